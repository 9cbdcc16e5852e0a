package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * skynet: a tree of actors, {@code div} children per node, sums the numbers of its
 * {@code size} leaves.
 *
 * <p>A {@link #node} actor for {@code (num, size)} with {@code size = 1} is a leaf: it replies
 * {@code num} to its parent and stops. Otherwise it spawns {@code div} anonymous children for
 * {@code (num + k*size/div, size/div)}, {@code k = 0 .. div-1}, each replying to the node's own
 * {@code ActorRef}, and counts their {@link Sum} replies down; with the last one it replies the
 * total to its parent and stops with {@code Behaviors.stopped()}. The guardian spawns the root
 * {@code (0, size)} and prints the sum that arrives, which is {@code 0 + 1 + ... + size-1}.
 * (The argument parser has already checked that {@code size} is a power of {@code div}.)
 */
public final class Skynet {

    /** A reply: the sum of a subtree's leaf numbers. */
    public record Sum(long value) {}

    private Skynet() {}

    /** The guardian: spawns the root and waits for its sum. */
    public static Behavior<Sum> create(long size, int div, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            context.spawn(node(0, size, div, context.getSelf()), "skynet");
            return Behaviors.receiveMessage(sum -> {
                outcome.complete("check=" + sum.value());
                return Behaviors.stopped();
            });
        });
    }

    /** The actor for the subtree with leaves {@code num .. num+size-1}, which replies to {@code parent}. */
    static Behavior<Sum> node(long num, long size, int div, ActorRef<Sum> parent) {
        return Behaviors.setup(context -> {
            if (size == 1) {
                parent.tell(new Sum(num));
                return Behaviors.stopped();
            }
            long childSize = size / div;
            for (int k = 0; k < div; k++) {
                context.spawnAnonymous(node(num + k * childSize, childSize, div, context.getSelf()));
            }
            return awaiting(parent, div, 0);
        });
    }

    /** Waits for {@code pending} more child sums, having added up {@code total} so far. */
    private static Behavior<Sum> awaiting(ActorRef<Sum> parent, int pending, long total) {
        return Behaviors.receiveMessage(sum -> {
            if (pending == 1) {
                parent.tell(new Sum(total + sum.value()));
                return Behaviors.stopped();
            }
            return awaiting(parent, pending - 1, total + sum.value());
        });
    }
}
