package footlights.peers.pekko;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * barber: the sleeping barber, with a factory of customers, a waiting room and a barber (Savina's
 * sleeping barber).
 *
 * <p>The guardian is the factory. It has a generator seeded with 0 and, for each customer
 * {@code k} in order, draws {@code a = below(arrival+1)} and {@code c = below(cut+1)}, computes
 * {@code work(k, a)} (the wait until the customer arrives, added to its digest), spawns customer
 * {@code k} and sends it to the {@link Room} in an {@link Enter}. The room seats the customer if
 * one of its {@code room} chairs is free, waking the {@link #barber} with the first seated customer
 * if he sleeps, and otherwise sends the customer {@link Full}; a customer sent away tells the
 * factory, which sends it to the room again. The barber cuts one customer at a time: it computes
 * {@code work(k, c)}, tells the customer it is {@link Done} with the result and asks the room for
 * the {@link Next} seated customer; when none is seated he sleeps. A customer tells the factory the
 * result of its haircut and stops. When all {@code haircuts} customers have reported, the factory
 * prints {@code HAIRCUTS:DIGEST}, the digest being its arrival digest plus the results.
 */
public final class Barber {

    /** A customer as the room and the barber see it: its number, its haircut's work and its address. */
    public record Customer(long id, long cut, ActorRef<ToCustomer> ref) {}

    /** What the room receives. */
    public sealed interface ToRoom permits Enter, Next {}

    /** A customer comes in. */
    public record Enter(Customer customer) implements ToRoom {}

    /** The barber is free for the next seated customer. */
    public record Next() implements ToRoom {}

    /** What the barber receives: a customer to cut. */
    public record Cut(Customer customer) {}

    /** What a customer receives. */
    public sealed interface ToCustomer permits Full, Done {}

    /** Every chair is taken: come back. */
    public record Full() implements ToCustomer {}

    /** The haircut is done; {@code result} is its work. */
    public record Done(long result) implements ToCustomer {}

    /** What the factory receives. */
    public sealed interface ToFactory permits Returned, Served {}

    /** A customer was sent away and wants to enter again. */
    public record Returned(Customer customer) implements ToFactory {}

    /** A customer had its haircut, whose work was {@code result}. */
    public record Served(long result) implements ToFactory {}

    private static final Full FULL = new Full();
    private static final Next NEXT = new Next();

    private Barber() {}

    /** The guardian, which is the factory: sends every customer in, then counts their reports. */
    public static Behavior<ToFactory> create(long haircuts, int room, long arrival, long cut,
            CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            if (haircuts == 0) {
                outcome.complete("check=" + SplitMix64.joined(0, 0));
                return Behaviors.stopped();
            }
            ActorRef<ToRoom> waitingRoom = context.spawn(
                    Behaviors.<ToRoom>setup(c -> new Room(c, room, c.spawn(barber(c.getSelf()), "barber"))), "room");
            SplitMix64 random = new SplitMix64(0);
            long digest = 0;
            for (long k = 0; k < haircuts; k++) {
                long a = random.below(arrival + 1);
                long c = random.below(cut + 1);
                digest += SplitMix64.work(k, a);
                ActorRef<ToCustomer> ref = context.spawn(customer(k, c, context.getSelf()), "customer-" + k);
                waitingRoom.tell(new Enter(new Customer(k, c, ref)));
            }
            return factory(haircuts, 0, digest, waitingRoom, outcome);
        });
    }

    /** The factory after sending everyone in: re-sends customers turned away, counts the served. */
    private static Behavior<ToFactory> factory(long haircuts, long served, long digest, ActorRef<ToRoom> room,
            CompletableFuture<String> outcome) {
        return Behaviors.receive(ToFactory.class)
                .onMessage(Returned.class, returned -> {
                    room.tell(new Enter(returned.customer()));
                    return Behaviors.same();
                })
                .onMessage(Served.class, report -> {
                    long total = digest + report.result();
                    if (served + 1 == haircuts) {
                        outcome.complete("check=" + SplitMix64.joined(served + 1, total));
                        return Behaviors.stopped();
                    }
                    return factory(haircuts, served + 1, total, room, outcome);
                })
                .build();
    }

    /** Customer {@code id}, whose haircut takes {@code cut}: waits for its haircut, reports it and ends. */
    static Behavior<ToCustomer> customer(long id, long cut, ActorRef<ToFactory> factory) {
        return Behaviors.setup(context -> {
            Customer self = new Customer(id, cut, context.getSelf());
            return Behaviors.receive(ToCustomer.class)
                    .onMessage(Full.class, full -> {
                        factory.tell(new Returned(self));
                        return Behaviors.same();
                    })
                    .onMessage(Done.class, done -> {
                        factory.tell(new Served(done.result()));
                        return Behaviors.stopped();
                    })
                    .build();
        });
    }

    /** The waiting room: a queue of at most {@code room} seated customers, and whether the barber sleeps. */
    static final class Room extends AbstractBehavior<ToRoom> {
        private final int chairs;
        private final ActorRef<Cut> barber;
        private final ArrayDeque<Customer> seated = new ArrayDeque<>();
        private boolean barberAsleep = true;

        Room(ActorContext<ToRoom> context, int chairs, ActorRef<Cut> barber) {
            super(context);
            this.chairs = chairs;
            this.barber = barber;
        }

        @Override
        public Receive<ToRoom> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Enter.class, this::onEnter)
                    .onMessage(Next.class, next -> onNext())
                    .build();
        }

        private Behavior<ToRoom> onEnter(Enter enter) {
            if (seated.size() == chairs) {
                enter.customer().ref().tell(FULL);
                return this;
            }
            seated.add(enter.customer());
            if (barberAsleep) {
                barberAsleep = false;
                barber.tell(new Cut(seated.poll()));
            }
            return this;
        }

        private Behavior<ToRoom> onNext() {
            Customer customer = seated.poll();
            if (customer == null) {
                barberAsleep = true;
            } else {
                barber.tell(new Cut(customer));
            }
            return this;
        }
    }

    /** The barber: one haircut per customer, then the next seated one. */
    static Behavior<Cut> barber(ActorRef<ToRoom> room) {
        return Behaviors.receiveMessage(cut -> {
            Customer customer = cut.customer();
            customer.ref().tell(new Done(SplitMix64.work(customer.id(), customer.cut())));
            room.tell(NEXT);
            return Behaviors.same();
        });
    }
}
