package footlights.peers.pekko;

import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * chameneos: {@code creatures} creature actors meet in pairs at one meeting-place actor.
 *
 * <p>A {@link Creature} with id {@code i} (0-based) starts with colour
 * {@code [blue, red, yellow][i mod 3]} and sends the {@link Place} a {@link Meet} request carrying
 * its id, its colour and its own {@code ActorRef}; it sends the next request only after the place
 * has answered with {@link Met}. The place keeps at most one waiting request. When a second one
 * arrives it pairs the two (checking that they are not the same creature), tells each the other's
 * id and the complementary colour, and counts the meeting. After {@code meetings} meetings the
 * place answers every further request with {@link Stop}: at that moment no creature is waiting,
 * so every creature has exactly one request still to come and thus receives exactly one stop.
 * On stop a creature reports the number of meetings it counted to the guardian and ends itself
 * with {@code Behaviors.stopped()}. The guardian sums the reports (the check) and prints the
 * counts in creature order.
 */
public final class Chameneos {

    /** The colours, in the order the contract assigns them to creatures. */
    enum Colour {
        BLUE, RED, YELLOW;

        /** The colour both creatures take after a meeting: the same if equal, else the third one. */
        Colour complement(Colour other) {
            return this == other ? this : values()[3 - ordinal() - other.ordinal()];
        }
    }

    /** The protocol of the meeting place: one request for a meeting. */
    public record Meet(int id, Colour colour, ActorRef<CreatureCommand> creature) {}

    /** The protocol of a creature. */
    public sealed interface CreatureCommand permits Met, Stop {}

    /** A meeting happened with creature {@code partner}; the creature's colour is now {@code colour}. */
    public record Met(int partner, Colour colour) implements CreatureCommand {}

    /** No more meetings: report the count and stop. */
    public record Stop() implements CreatureCommand {}

    /** The protocol of the guardian. */
    public sealed interface Report permits Count, Fault {}

    /** A stopped creature's own count of meetings. */
    public record Count(int id, long meetings) implements Report {}

    /** Something that must never happen did. */
    public record Fault(String description) implements Report {}

    private static final Stop STOP = new Stop();

    private Chameneos() {}

    /** The guardian: spawns the place and the creatures, then collects every creature's count. */
    public static Behavior<Report> create(int creatures, long meetings, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> new Guardian(context, creatures, meetings, outcome));
    }

    /** The guardian: gathers the creatures' own counts and turns them into the result. */
    static final class Guardian extends AbstractBehavior<Report> {
        private final long[] counts;
        private final CompletableFuture<String> outcome;
        private int reported;

        private Guardian(ActorContext<Report> context, int creatures, long meetings, CompletableFuture<String> outcome) {
            super(context);
            this.counts = new long[creatures];
            this.outcome = outcome;
            ActorRef<Meet> place = context.spawn(Place.create(meetings, context.getSelf().narrow()), "place");
            for (int id = 0; id < creatures; id++) {
                context.spawnAnonymous(Creature.create(id, Colour.values()[id % 3], place, context.getSelf()));
            }
        }

        @Override
        public Receive<Report> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Count.class, this::onCount)
                    .onMessage(Fault.class, this::onFault)
                    .build();
        }

        private Behavior<Report> onCount(Count count) {
            counts[count.id()] = count.meetings();
            if (++reported < counts.length) {
                return this;
            }
            long sum = 0;
            StringJoiner list = new StringJoiner(",");
            for (long c : counts) {
                sum += c;
                list.add(Long.toString(c));
            }
            outcome.complete("check=" + sum + " counts=" + list);
            return Behaviors.stopped();
        }

        private Behavior<Report> onFault(Fault fault) {
            outcome.completeExceptionally(new IllegalStateException(fault.description()));
            return Behaviors.stopped();
        }
    }

    /** The meeting place: pairs waiting creatures until {@code meetings} meetings have happened. */
    static final class Place extends AbstractBehavior<Meet> {
        private final ActorRef<Fault> faults;
        private long remaining;
        private Meet waiting;

        static Behavior<Meet> create(long meetings, ActorRef<Fault> faults) {
            return Behaviors.setup(context -> new Place(context, meetings, faults));
        }

        private Place(ActorContext<Meet> context, long meetings, ActorRef<Fault> faults) {
            super(context);
            this.remaining = meetings;
            this.faults = faults;
        }

        @Override
        public Receive<Meet> createReceive() {
            return newReceiveBuilder().onMessage(Meet.class, this::onMeet).build();
        }

        private Behavior<Meet> onMeet(Meet request) {
            if (remaining == 0) {
                request.creature().tell(STOP);
            } else if (waiting == null) {
                waiting = request;
            } else if (waiting.id() == request.id()) {
                faults.tell(new Fault("creature " + request.id() + " asked to meet itself"));
            } else {
                Colour colour = waiting.colour().complement(request.colour());
                waiting.creature().tell(new Met(request.id(), colour));
                request.creature().tell(new Met(waiting.id(), colour));
                waiting = null;
                remaining--;
            }
            return this;
        }
    }

    /** A creature: asks for meetings one at a time and counts them until told to stop. */
    static final class Creature extends AbstractBehavior<CreatureCommand> {
        private final int id;
        private final ActorRef<Meet> place;
        private final ActorRef<Report> guardian;
        private Colour colour;
        private long meetings;

        static Behavior<CreatureCommand> create(int id, Colour colour, ActorRef<Meet> place, ActorRef<Report> guardian) {
            return Behaviors.setup(context -> new Creature(context, id, colour, place, guardian));
        }

        private Creature(ActorContext<CreatureCommand> context, int id, Colour colour, ActorRef<Meet> place,
                ActorRef<Report> guardian) {
            super(context);
            this.id = id;
            this.colour = colour;
            this.place = place;
            this.guardian = guardian;
            place.tell(new Meet(id, colour, context.getSelf()));
        }

        @Override
        public Receive<CreatureCommand> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Met.class, this::onMet)
                    .onMessage(Stop.class, stop -> onStop())
                    .build();
        }

        private Behavior<CreatureCommand> onMet(Met met) {
            meetings++;
            colour = met.colour();
            place.tell(new Meet(id, colour, getContext().getSelf()));
            return this;
        }

        private Behavior<CreatureCommand> onStop() {
            guardian.tell(new Count(id, meetings));
            return Behaviors.stopped();
        }
    }
}
