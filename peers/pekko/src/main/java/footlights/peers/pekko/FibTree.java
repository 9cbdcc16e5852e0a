package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * fibtree: computes {@code fib(n)} with one actor per call of the naive recursion.
 *
 * <p>A {@link #node} actor for {@code n <= 2} replies {@code fib(n)} (0, 1, 1) to its parent at
 * once and stops. An actor for {@code n > 2} spawns two anonymous children for {@code n-1} and
 * {@code n-2}, giving each its own {@code ActorRef} as the address for the reply, then waits for
 * the two {@link Value}s, replies their sum to its parent and stops with
 * {@code Behaviors.stopped()}. The guardian spawns the actor for {@code n} and prints the value it
 * replies. The waiting is written in Pekko's functional style: each reply returns a new behaviour
 * holding the partial sum and the number of replies still due.
 */
public final class FibTree {

    /** A reply: the value computed by a subtree. */
    public record Value(long value) {}

    private FibTree() {}

    /** The guardian: spawns the root call and waits for its value. */
    public static Behavior<Value> create(int n, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            context.spawn(node(n, context.getSelf()), "fib-" + n);
            return Behaviors.receiveMessage(result -> {
                outcome.complete("check=" + result.value());
                return Behaviors.stopped();
            });
        });
    }

    /** The actor for {@code fib(n)}, which replies to {@code parent}. */
    static Behavior<Value> node(int n, ActorRef<Value> parent) {
        return Behaviors.setup(context -> {
            if (n <= 2) {
                parent.tell(new Value(n == 0 ? 0 : 1));
                return Behaviors.stopped();
            }
            context.spawnAnonymous(node(n - 1, context.getSelf()));
            context.spawnAnonymous(node(n - 2, context.getSelf()));
            return awaiting(parent, 2, 0);
        });
    }

    /** Waits for {@code pending} more replies, having summed {@code sum} so far. */
    private static Behavior<Value> awaiting(ActorRef<Value> parent, int pending, long sum) {
        return Behaviors.receiveMessage(reply -> {
            if (pending == 1) {
                parent.tell(new Value(sum + reply.value()));
                return Behaviors.stopped();
            }
            return awaiting(parent, pending - 1, sum + reply.value());
        });
    }
}
