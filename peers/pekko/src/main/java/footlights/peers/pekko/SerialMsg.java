package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * serialmsg: {@code pairs} generators each send {@code messages} messages to their own receiver
 * through one dispatcher actor (BenchErl's serialmsg).
 *
 * <p>The guardian, which is also the sink, spawns the {@link #dispatcher}, then for each pair a
 * {@link #receiver} and a {@link #generator} that knows that receiver's {@code ActorRef}. A
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
        return Behaviors.setup(context -> {
            ActorRef<Envelope> dispatcher = context.spawn(dispatcher(), "dispatcher");
            for (int i = 0; i < pairs; i++) {
                ActorRef<Delivery> receiver = context.spawnAnonymous(receiver(context.getSelf()));
                context.spawnAnonymous(generator(messages, receiver, dispatcher));
            }
            long[] total = {0};
            int[] reported = {0};
            return Behaviors.receiveMessage(received -> {
                total[0] += received.count();
                if (++reported[0] < pairs) {
                    return Behaviors.same();
                }
                outcome.complete("check=" + total[0]);
                return Behaviors.stopped();
            });
        });
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
    static Behavior<Delivery> receiver(ActorRef<Received> sink) {
        return Behaviors.setup(context -> {
            long[] count = {0};
            return Behaviors.receive(Delivery.class)
                    .onMessage(Payload.class, payload -> {
                        count[0]++;
                        return Behaviors.same();
                    })
                    .onMessage(End.class, end -> {
                        sink.tell(new Received(count[0]));
                        return Behaviors.stopped();
                    })
                    .build();
        });
    }
}
