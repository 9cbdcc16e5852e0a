package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * counting: one producer sends {@code count} increments to a counter actor, then asks for the
 * value (Savina's counting actor).
 *
 * <p>The guardian spawns the {@link #counter} and the {@link #producer}. The producer, as soon as
 * it starts, tells the counter {@code count} {@link Increment}s and then a {@link Get} carrying
 * its own {@code ActorRef}; Pekko keeps the order of messages between two actors, so the counter
 * answers the {@code Get} only after counting every increment. The producer passes the
 * {@link Value} it gets back to the guardian and stops; the guardian prints it as the check.
 */
public final class Counting {

    /** The protocol of the counter. */
    public sealed interface Command permits Increment, Get {}

    /** Add one. */
    public record Increment() implements Command {}

    /** Reply with the current value to {@code replyTo}. */
    public record Get(ActorRef<Value> replyTo) implements Command {}

    /** The counter's value. */
    public record Value(long count) {}

    private static final Increment INCREMENT = new Increment();

    private Counting() {}

    /** The guardian: spawns counter and producer, then waits for the value the producer got. */
    public static Behavior<Value> create(long count, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            ActorRef<Command> counter = context.spawn(counter(), "counter");
            context.spawn(producer(count, counter, context.getSelf()), "producer");
            return Behaviors.receiveMessage(value -> {
                outcome.complete("check=" + value.count());
                return Behaviors.stopped();
            });
        });
    }

    /** The counter: counts increments and answers queries. */
    static Behavior<Command> counter() {
        return Behaviors.setup(context -> {
            long[] value = {0};
            return Behaviors.receive(Command.class)
                    .onMessage(Increment.class, increment -> {
                        value[0]++;
                        return Behaviors.same();
                    })
                    .onMessage(Get.class, get -> {
                        get.replyTo().tell(new Value(value[0]));
                        return Behaviors.same();
                    })
                    .build();
        });
    }

    /** The producer: sends the increments and the query, then hands the answer to the guardian. */
    static Behavior<Value> producer(long count, ActorRef<Command> counter, ActorRef<Value> guardian) {
        return Behaviors.setup(context -> {
            for (long i = 0; i < count; i++) {
                counter.tell(INCREMENT);
            }
            counter.tell(new Get(context.getSelf()));
            return Behaviors.receiveMessage(value -> {
                guardian.tell(value);
                return Behaviors.stopped();
            });
        });
    }
}
