package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.Props;

/**
 * fibtree with classic actors ({@link Classic}): the same recursion as {@link FibTree}, one
 * {@link AbstractActor} per call.
 *
 * <p>A {@link Node} for {@code n <= 2} tells its parent {@code fib(n)} (0, 1, 1) as it starts and
 * stops itself. For {@code n > 2} it creates children for {@code n-1} and {@code n-2}, adds up the
 * two {@link Value}s they send to their parent (itself), tells its own parent the sum and stops.
 * The top-level {@link Root} creates the node for {@code n} and completes the outcome with the
 * value that arrives.
 */
final class ClassicFibTree {

    /** A reply: the value computed by a subtree. */
    record Value(long value) {}

    private ClassicFibTree() {}

    /** The top-level actor of a run. */
    static Props root(int n, CompletableFuture<String> outcome) {
        return Props.create(Root.class, () -> new Root(n, outcome));
    }

    /** Creates the call for {@code n} and reports the value it replies. */
    static final class Root extends AbstractActor {
        private final int n;
        private final CompletableFuture<String> outcome;

        Root(int n, CompletableFuture<String> outcome) {
            this.n = n;
            this.outcome = outcome;
        }

        @Override
        public void preStart() {
            getContext().actorOf(Node.props(n), "fib-" + n);
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Value.class, value -> {
                outcome.complete("check=" + value.value());
                getContext().getSystem().terminate();
            }).build();
        }
    }

    /** The actor for {@code fib(n)}; it replies to its parent. */
    static final class Node extends AbstractActor {
        private final int n;
        private int pending = 2;
        private long sum;

        static Props props(int n) {
            return Props.create(Node.class, () -> new Node(n));
        }

        private Node(int n) {
            this.n = n;
        }

        @Override
        public void preStart() {
            if (n <= 2) {
                getContext().getParent().tell(new Value(n == 0 ? 0 : 1), getSelf());
                getContext().stop(getSelf());
                return;
            }
            getContext().actorOf(props(n - 1));
            getContext().actorOf(props(n - 2));
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Value.class, value -> {
                sum += value.value();
                if (--pending == 0) {
                    getContext().getParent().tell(new Value(sum), getSelf());
                    getContext().stop(getSelf());
                }
            }).build();
        }
    }
}
