package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * serialmsg: {@code pairs} generators each send {@code messages} messages to their own receiver
 * through one dispatcher actor (BenchErl's serialmsg).
 *
 * <p>The guardian, which is also the sink, spawns the {@link #dispatcher}, then for each pair a
 * {@link Receiver} and a {@link #generator} that knows that receiver's {@code ActorRef}. A
 * generator, as soon as it starts, sends the dispatcher {@code messages} {@link Envelope}s
 * addressed to its receiver, each holding a {@link Payload}, then one envelope holding
 * {@link End}, and stops. The dispatcher forwards the content of every envelope to the address
 * written on it. Pekko keeps the order between two actors, so a receiver gets its {@code End}
 * after all its payloads; it then reports how many payloads it counted to the sink and stops. The
 * sink adds up the reports (the check) and ends the run when all receivers have reported.
 */
public final class SerialMsg {

    /** The protocol of a receiver. */
    public sealed interface Delivery permits Payload, End {}

    /** One message from a generator to its receiver. */
    public record Payload(long sequence) implements Delivery {}

    /** The generator has sent everything. */
    public record End() implements Delivery {}

    /** The protocol of the dispatcher: a delivery and its address. */
    public record Envelope(ActorRef<Delivery> to, Delivery content) {}

    /** A receiver's count, for the sink. */
    public record Received(long count) {}

    private static final End END = new End();

    private SerialMsg() {}

    /** The guardian and sink: spawns everything, then sums the receivers' counts. */
    public static Behavior<Received> create(int pairs, long messages, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> new Sink(context, pairs, messages, outcome));
    }

    /** The sink: adds up the receivers' counts until every receiver has reported. */
    static final class Sink extends AbstractBehavior<Received> {
        private final int pairs;
        private final CompletableFuture<String> outcome;
        private int reported;
        private long total;

        private Sink(ActorContext<Received> context, int pairs, long messages, CompletableFuture<String> outcome) {
            super(context);
            this.pairs = pairs;
            this.outcome = outcome;
            ActorRef<Envelope> dispatcher = context.spawn(dispatcher(), "dispatcher");
            for (int i = 0; i < pairs; i++) {
                ActorRef<Delivery> receiver = context.spawnAnonymous(Receiver.create(context.getSelf()));
                context.spawnAnonymous(generator(messages, receiver, dispatcher));
            }
        }

        @Override
        public Receive<Received> createReceive() {
            return newReceiveBuilder().onMessage(Received.class, this::onReceived).build();
        }

        private Behavior<Received> onReceived(Received received) {
            total += received.count();
            if (++reported < pairs) {
                return this;
            }
            outcome.complete("check=" + total);
            return Behaviors.stopped();
        }
    }

    /** The dispatcher: forwards every envelope's content to its address. */
    static Behavior<Envelope> dispatcher() {
        return Behaviors.receiveMessage(envelope -> {
            envelope.to().tell(envelope.content());
            return Behaviors.same();
        });
    }

    /** A generator: sends its messages for {@code receiver} through the dispatcher, then stops. */
    static Behavior<Envelope> generator(long messages, ActorRef<Delivery> receiver, ActorRef<Envelope> dispatcher) {
        return Behaviors.setup(context -> {
            for (long i = 0; i < messages; i++) {
                dispatcher.tell(new Envelope(receiver, new Payload(i)));
            }
            dispatcher.tell(new Envelope(receiver, END));
            return Behaviors.stopped();
        });
    }

    /** A receiver: counts payloads until the end, then reports to the sink. */
    static final class Receiver extends AbstractBehavior<Delivery> {
        private final ActorRef<Received> sink;
        private long count;

        static Behavior<Delivery> create(ActorRef<Received> sink) {
            return Behaviors.setup(context -> new Receiver(context, sink));
        }

        private Receiver(ActorContext<Delivery> context, ActorRef<Received> sink) {
            super(context);
            this.sink = sink;
        }

        @Override
        public Receive<Delivery> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Payload.class, payload -> onPayload())
                    .onMessage(End.class, end -> onEnd())
                    .build();
        }

        private Behavior<Delivery> onPayload() {
            count++;
            return this;
        }

        private Behavior<Delivery> onEnd() {
            sink.tell(new Received(count));
            return Behaviors.stopped();
        }
    }
}
