package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * philosopher: dining philosophers with an arbitrator (Savina's dining philosophers).
 *
 * <p>The {@link Arbitrator} holds {@code philosophers} forks. {@link Diner} {@code i} needs forks
 * {@code i} and {@code (i+1) mod philosophers} (one fork when it dines alone): while it has eaten
 * fewer than {@code rounds} meals it sends the arbitrator a {@link Hungry} carrying its
 * {@code ActorRef}, and the arbitrator answers {@link Answer#EAT}, taking both forks, if both are
 * free, and {@link Answer#DENIED} otherwise; a denied philosopher asks again at once. A philosopher told to eat
 * eats one meal and tells the arbitrator {@link Done}, which frees its forks and counts the meal;
 * after its {@code rounds}-th meal (at once when {@code rounds} is 0) it tells the arbitrator
 * {@link Finished} and stops. When all have finished, the arbitrator gives the guardian its count
 * of meals: {@code MEALS}.
 */
public final class Philosopher {

    /** What the arbitrator receives. */
    public sealed interface ToArbitrator permits Hungry, Done, Finished {}

    /** Philosopher {@code id} asks for its forks. */
    public record Hungry(int id, ActorRef<Answer> replyTo) implements ToArbitrator {}

    /** Philosopher {@code id} has eaten and puts its forks down. */
    public record Done(int id) implements ToArbitrator {}

    /** A philosopher has eaten all its meals. */
    public record Finished() implements ToArbitrator {}

    /** The arbitrator's answer to {@link Hungry}. */
    public enum Answer {
        /** Both forks are yours: eat. */
        EAT,
        /** A fork is taken: ask again. */
        DENIED
    }

    /** The arbitrator's count of meals, for the guardian. */
    public record Meals(long meals) {}

    private Philosopher() {}

    /** The guardian: spawns the arbitrator and the philosophers, then waits for the count of meals. */
    public static Behavior<Meals> create(int philosophers, long rounds, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            ActorRef<ToArbitrator> arbitrator = context.spawn(
                    Behaviors.setup(c -> new Arbitrator(c, philosophers, context.getSelf())), "arbitrator");
            for (int i = 0; i < philosophers; i++) {
                context.spawn(Diner.create(i, rounds, arbitrator), "philosopher-" + i);
            }
            return Behaviors.receiveMessage(meals -> {
                outcome.complete("check=" + Long.toUnsignedString(meals.meals()));
                return Behaviors.stopped();
            });
        });
    }

    /** The arbitrator: grants both forks or none, counts meals, reports when all have finished. */
    static final class Arbitrator extends AbstractBehavior<ToArbitrator> {
        private final boolean[] taken;
        private final ActorRef<Meals> guardian;
        private int unfinished;
        private long meals;

        Arbitrator(ActorContext<ToArbitrator> context, int philosophers, ActorRef<Meals> guardian) {
            super(context);
            this.taken = new boolean[philosophers];
            this.guardian = guardian;
            this.unfinished = philosophers;
        }

        @Override
        public Receive<ToArbitrator> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Hungry.class, this::onHungry)
                    .onMessage(Done.class, this::onDone)
                    .onMessage(Finished.class, finished -> onFinished())
                    .build();
        }

        private Behavior<ToArbitrator> onHungry(Hungry hungry) {
            int left = hungry.id();
            int right = (left + 1) % taken.length;
            if (taken[left] || taken[right]) {
                hungry.replyTo().tell(Answer.DENIED);
            } else {
                taken[left] = true;
                taken[right] = true;
                hungry.replyTo().tell(Answer.EAT);
            }
            return this;
        }

        private Behavior<ToArbitrator> onDone(Done done) {
            taken[done.id()] = false;
            taken[(done.id() + 1) % taken.length] = false;
            meals++;
            return this;
        }

        private Behavior<ToArbitrator> onFinished() {
            if (--unfinished > 0) {
                return this;
            }
            guardian.tell(new Meals(meals));
            return Behaviors.stopped();
        }
    }

    /** A philosopher: asks for its forks until it has eaten {@code rounds} meals. */
    static final class Diner extends AbstractBehavior<Answer> {
        private final int id;
        private final long rounds;
        private final ActorRef<ToArbitrator> arbitrator;
        private final Hungry hungry;
        private long eaten;

        static Behavior<Answer> create(int id, long rounds, ActorRef<ToArbitrator> arbitrator) {
            return Behaviors.setup(context -> new Diner(context, id, rounds, arbitrator).askOrFinish());
        }

        private Diner(ActorContext<Answer> context, int id, long rounds, ActorRef<ToArbitrator> arbitrator) {
            super(context);
            this.id = id;
            this.rounds = rounds;
            this.arbitrator = arbitrator;
            this.hungry = new Hungry(id, context.getSelf());
        }

        @Override
        public Receive<Answer> createReceive() {
            return newReceiveBuilder()
                    .onMessageEquals(Answer.EAT, this::onEat)
                    .onMessageEquals(Answer.DENIED, this::onDenied)
                    .build();
        }

        private Behavior<Answer> onEat() {
            eaten++;
            arbitrator.tell(new Done(id));
            return askOrFinish();
        }

        private Behavior<Answer> onDenied() {
            arbitrator.tell(hungry);
            return this;
        }

        /** Asks for the forks again, or, after the last meal, says so and stops. */
        private Behavior<Answer> askOrFinish() {
            if (eaten == rounds) {
                arbitrator.tell(new Finished());
                return Behaviors.stopped();
            }
            arbitrator.tell(hungry);
            return this;
        }
    }
}
