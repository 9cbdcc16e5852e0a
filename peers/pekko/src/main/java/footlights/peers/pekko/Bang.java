package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * bang: {@code senders} actors flood one receiver with {@code messages} messages each (BenchErl's
 * bang).
 *
 * <p>The guardian spawns the {@link Receiver} and then the {@link #sender}s. A sender, as soon as
 * it starts, tells the receiver {@code messages} {@link Hit}s followed by one {@link SenderDone}
 * and stops; since Pekko keeps the order of messages between two actors, a sender's
 * {@code SenderDone} arrives after all its hits. The receiver counts the hits; when it has heard
 * {@code SenderDone} from every sender, it tells the guardian its {@link Total}, which is the
 * check, and stops.
 */
public final class Bang {

    /** The protocol of the receiver. */
    public sealed interface Command permits Hit, SenderDone {}

    /** One message of the flood. */
    public record Hit() implements Command {}

    /** A sender has sent all its hits. */
    public record SenderDone() implements Command {}

    /** The receiver's count, for the guardian. */
    public record Total(long received) {}

    private static final Hit HIT = new Hit();
    private static final SenderDone SENDER_DONE = new SenderDone();

    private Bang() {}

    /** The guardian: spawns the receiver and the senders, then waits for the receiver's total. */
    public static Behavior<Total> create(int senders, long messages, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            ActorRef<Command> receiver = context.spawn(Receiver.create(senders, context.getSelf()), "receiver");
            for (int i = 0; i < senders; i++) {
                context.spawnAnonymous(sender(messages, receiver));
            }
            return Behaviors.receiveMessage(total -> {
                outcome.complete("check=" + total.received());
                return Behaviors.stopped();
            });
        });
    }

    /** A sender: sends its hits and its done signal, then stops. */
    static Behavior<Command> sender(long messages, ActorRef<Command> receiver) {
        return Behaviors.setup(context -> {
            for (long i = 0; i < messages; i++) {
                receiver.tell(HIT);
            }
            receiver.tell(SENDER_DONE);
            return Behaviors.stopped();
        });
    }

    /** The receiver: counts hits until all {@code senders} senders are done. */
    static final class Receiver extends AbstractBehavior<Command> {
        private final int senders;
        private final ActorRef<Total> guardian;
        private long hits;
        private int done;

        static Behavior<Command> create(int senders, ActorRef<Total> guardian) {
            return Behaviors.setup(context -> new Receiver(context, senders, guardian));
        }

        private Receiver(ActorContext<Command> context, int senders, ActorRef<Total> guardian) {
            super(context);
            this.senders = senders;
            this.guardian = guardian;
        }

        @Override
        public Receive<Command> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Hit.class, hit -> onHit())
                    .onMessage(SenderDone.class, signal -> onSenderDone())
                    .build();
        }

        private Behavior<Command> onHit() {
            hits++;
            return this;
        }

        private Behavior<Command> onSenderDone() {
            if (++done < senders) {
                return this;
            }
            guardian.tell(new Total(hits));
            return Behaviors.stopped();
        }
    }
}
