package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.Props;

/**
 * spreading with classic actors ({@link Classic}): the same binary tree as {@link Spreading}.
 *
 * <p>A {@link Node} at distance {@code 0} above the leaves tells its parent 1 as it starts and
 * stops itself; otherwise it creates two children one level lower, adds up the two {@link Count}s
 * they send to their parent (itself), tells its own parent the sum and stops. The top-level
 * {@link Root} creates the node at {@code depth} and completes the outcome with the count that
 * arrives, {@code 2^depth} as counted by the replies.
 */
final class ClassicSpreading {

    /** A reply: the number of leaves below a node. */
    record Count(long leaves) {}

    private ClassicSpreading() {}

    /** The top-level actor of a run. */
    static Props root(int depth, CompletableFuture<String> outcome) {
        return Props.create(Root.class, () -> new Root(depth, outcome));
    }

    /** Creates the tree's root node and reports the count it replies. */
    static final class Root extends AbstractActor {
        private final int depth;
        private final CompletableFuture<String> outcome;

        Root(int depth, CompletableFuture<String> outcome) {
            this.depth = depth;
            this.outcome = outcome;
        }

        @Override
        public void preStart() {
            getContext().actorOf(Node.props(depth), "spreading");
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Count.class, count -> {
                outcome.complete("check=" + count.leaves());
                getContext().getSystem().terminate();
            }).build();
        }
    }

    /** The actor at distance {@code depth} above the leaves; it replies to its parent. */
    static final class Node extends AbstractActor {
        private final int depth;
        private int pending = 2;
        private long leaves;

        static Props props(int depth) {
            return Props.create(Node.class, () -> new Node(depth));
        }

        private Node(int depth) {
            this.depth = depth;
        }

        @Override
        public void preStart() {
            if (depth == 0) {
                getContext().getParent().tell(new Count(1), getSelf());
                getContext().stop(getSelf());
                return;
            }
            getContext().actorOf(props(depth - 1));
            getContext().actorOf(props(depth - 1));
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Count.class, count -> {
                leaves += count.leaves();
                if (--pending == 0) {
                    getContext().getParent().tell(new Count(leaves), getSelf());
                    getContext().stop(getSelf());
                }
            }).build();
        }
    }
}
