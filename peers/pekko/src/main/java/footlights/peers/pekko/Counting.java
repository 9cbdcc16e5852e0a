package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * counting: one producer sends {@code count} increments to a counter actor, then asks for the
 * value (Savina's counting actor).
 *
 * <p>The guardian spawns the {@link Counter} and the {@link #producer}. The producer, as soon as
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
            ActorRef<Command> counter = context.spawn(Counter.create(), "counter");
            context.spawn(producer(count, counter, context.getSelf()), "producer");
            return Behaviors.receiveMessage(value -> {
                outcome.complete("check=" + value.count());
                return Behaviors.stopped();
            });
        });
    }

    /** The counter: counts increments and answers queries. */
    static final class Counter extends AbstractBehavior<Command> {
        private long value;

        static Behavior<Command> create() {
            return Behaviors.setup(Counter::new);
        }

        private Counter(ActorContext<Command> context) {
            super(context);
        }

        @Override
        public Receive<Command> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Increment.class, increment -> onIncrement())
                    .onMessage(Get.class, this::onGet)
                    .build();
        }

        private Behavior<Command> onIncrement() {
            value++;
            return this;
        }

        private Behavior<Command> onGet(Get get) {
            get.replyTo().tell(new Value(value));
            return this;
        }
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
