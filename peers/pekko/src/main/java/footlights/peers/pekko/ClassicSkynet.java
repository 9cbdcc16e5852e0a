package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.Props;

/**
 * skynet with classic actors ({@link Classic}): the same tree as {@link Skynet}, written with
 * {@link AbstractActor} and {@link Props}.
 *
 * <p>A {@link Node} for {@code (num, size)} with {@code size = 1} tells its parent {@code num} as
 * it starts and stops itself. Otherwise it creates {@code div} children for
 * {@code (num + k*size/div, size/div)} with {@code getContext().actorOf}, adds up the {@link Sum}s
 * they send to their parent (itself), and with the last one tells its own parent the total and
 * stops. The top-level {@link Root} creates the node {@code (0, size)} and completes the outcome
 * with the sum that arrives, {@code 0 + 1 + ... + size-1}.
 */
final class ClassicSkynet {

    /** A reply: the sum of a subtree's leaf numbers. */
    record Sum(long value) {}

    private ClassicSkynet() {}

    /** The top-level actor of a run. */
    static Props root(long size, int div, CompletableFuture<String> outcome) {
        return Props.create(Root.class, () -> new Root(size, div, outcome));
    }

    /** Creates the tree's root node and reports the sum it replies. */
    static final class Root extends AbstractActor {
        private final long size;
        private final int div;
        private final CompletableFuture<String> outcome;

        Root(long size, int div, CompletableFuture<String> outcome) {
            this.size = size;
            this.div = div;
            this.outcome = outcome;
        }

        @Override
        public void preStart() {
            getContext().actorOf(Node.props(0, size, div), "skynet");
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Sum.class, sum -> {
                outcome.complete("check=" + sum.value());
                getContext().getSystem().terminate();
            }).build();
        }
    }

    /** The actor for the subtree with leaves {@code num .. num+size-1}; it replies to its parent. */
    static final class Node extends AbstractActor {
        private final long num;
        private final long size;
        private final int div;
        private int pending;
        private long total;

        static Props props(long num, long size, int div) {
            return Props.create(Node.class, () -> new Node(num, size, div));
        }

        private Node(long num, long size, int div) {
            this.num = num;
            this.size = size;
            this.div = div;
        }

        @Override
        public void preStart() {
            if (size == 1) {
                getContext().getParent().tell(new Sum(num), getSelf());
                getContext().stop(getSelf());
                return;
            }
            long childSize = size / div;
            pending = div;
            for (int k = 0; k < div; k++) {
                getContext().actorOf(props(num + k * childSize, childSize, div));
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Sum.class, sum -> {
                total += sum.value();
                if (--pending == 0) {
                    getContext().getParent().tell(new Sum(total), getSelf());
                    getContext().stop(getSelf());
                }
            }).build();
        }
    }
}
