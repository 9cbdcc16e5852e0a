package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * spreading: actor creation in a binary tree of depth {@code depth} (libcppa's "actor creation").
 *
 * <p>A {@link #node} actor with {@code d = 0} replies 1 to its parent and stops. With
 * {@code d > 0} it spawns two anonymous children with {@code d-1}, each replying to the node's own
 * {@code ActorRef}, waits for both {@link Count}s, replies their sum to its parent and stops with
 * {@code Behaviors.stopped()}. The guardian spawns the root and prints the count that arrives: the
 * number of leaves, {@code 2^depth}, as counted by the replies.
 */
public final class Spreading {

    /** A reply: the number of leaves below a node. */
    public record Count(long leaves) {}

    private Spreading() {}

    /** The guardian: spawns the root and waits for its count. */
    public static Behavior<Count> create(int depth, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            context.spawn(node(depth, context.getSelf()), "spreading");
            return Behaviors.receiveMessage(count -> {
                outcome.complete("check=" + count.leaves());
                return Behaviors.stopped();
            });
        });
    }

    /** The actor at distance {@code depth} above the leaves, which replies to {@code parent}. */
    static Behavior<Count> node(int depth, ActorRef<Count> parent) {
        return Behaviors.setup(context -> {
            if (depth == 0) {
                parent.tell(new Count(1));
                return Behaviors.stopped();
            }
            context.spawnAnonymous(node(depth - 1, context.getSelf()));
            context.spawnAnonymous(node(depth - 1, context.getSelf()));
            return awaiting(parent, 2, 0);
        });
    }

    /** Waits for {@code pending} more child counts, having added up {@code leaves} so far. */
    private static Behavior<Count> awaiting(ActorRef<Count> parent, int pending, long leaves) {
        return Behaviors.receiveMessage(count -> {
            if (pending == 1) {
                parent.tell(new Count(leaves + count.leaves()));
                return Behaviors.stopped();
            }
            return awaiting(parent, pending - 1, leaves + count.leaves());
        });
    }
}
