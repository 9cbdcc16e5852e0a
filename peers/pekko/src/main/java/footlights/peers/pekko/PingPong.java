package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * pingpong: request/reply latency between two actors (Savina's ping-pong).
 *
 * <p>The guardian spawns a {@link #ponger} and a {@link Pinger}. The pinger sends a {@link Ping}
 * carrying its own {@code ActorRef}, waits for the {@link Pong}, counts it and sends the next
 * ping, {@code pings} times. The ponger answers every ping to the reference in it. When the pinger
 * has counted {@code pings} pongs it tells the guardian the count (the check) and stops.
 */
public final class PingPong {

    /** A ping, to be answered to {@code replyTo}. */
    public record Ping(ActorRef<Pong> replyTo) {}

    /** The answer to a ping. */
    public record Pong() {}

    /** The pinger's count of pongs, for the guardian. */
    public record Pongs(long received) {}

    private static final Pong PONG = new Pong();

    private PingPong() {}

    /** The guardian: spawns the pair and waits for the pinger's count. */
    public static Behavior<Pongs> create(long pings, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            ActorRef<Ping> ponger = context.spawn(ponger(), "ponger");
            context.spawn(Pinger.create(pings, ponger, context.getSelf()), "pinger");
            return Behaviors.receiveMessage(pongs -> {
                outcome.complete("check=" + pongs.received());
                return Behaviors.stopped();
            });
        });
    }

    /** The ponger: answers every ping with a pong. */
    static Behavior<Ping> ponger() {
        return Behaviors.receiveMessage(ping -> {
            ping.replyTo().tell(PONG);
            return Behaviors.same();
        });
    }

    /** The pinger: one ping at a time, until {@code pings} pongs have come back. */
    static final class Pinger extends AbstractBehavior<Pong> {
        private final long pings;
        private final ActorRef<Ping> ponger;
        private final ActorRef<Pongs> guardian;
        private long received;

        static Behavior<Pong> create(long pings, ActorRef<Ping> ponger, ActorRef<Pongs> guardian) {
            return Behaviors.setup(context -> {
                if (pings == 0) {
                    guardian.tell(new Pongs(0));
                    return Behaviors.stopped();
                }
                ponger.tell(new Ping(context.getSelf()));
                return new Pinger(context, pings, ponger, guardian);
            });
        }

        private Pinger(ActorContext<Pong> context, long pings, ActorRef<Ping> ponger, ActorRef<Pongs> guardian) {
            super(context);
            this.pings = pings;
            this.ponger = ponger;
            this.guardian = guardian;
        }

        @Override
        public Receive<Pong> createReceive() {
            return newReceiveBuilder().onMessage(Pong.class, pong -> onPong()).build();
        }

        private Behavior<Pong> onPong() {
            received++;
            if (received == pings) {
                guardian.tell(new Pongs(received));
                return Behaviors.stopped();
            }
            ponger.tell(new Ping(getContext().getSelf()));
            return this;
        }
    }
}
