package footlights.peers.pekko;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * big: {@code workers} actors ping each other within neighbourhoods of {@code hood} workers.
 *
 * <p>The guardian, which is also the sink, spawns the workers one neighbourhood at a time (the last
 * neighbourhood may be smaller) and sends each member a {@link Start} with the list of its
 * neighbourhood's {@code ActorRef}s. A {@link Worker} then sends a {@link Ping}, carrying its own
 * reference for the answer, to a uniformly random other member (to itself if it is alone), waits
 * for the {@link Pong}, and repeats until it has received {@code pings} pongs; then it sends the
 * sink a {@link Done} with the number of pongs it received. A worker answers every ping it gets,
 * before, during and after its own round, since its neighbours may still be running. The sink adds
 * up the reported pongs (the check) and ends the run once every worker has reported.
 */
public final class Big {

    /** The protocol of a worker. */
    public sealed interface Command permits Start, Ping, Pong {}

    /** Starts a worker's round of pings with the members of its neighbourhood. */
    public record Start(List<ActorRef<Command>> hood) implements Command {}

    /** A ping from {@code replyTo}, which expects a pong. */
    public record Ping(ActorRef<Command> replyTo) implements Command {}

    /** The answer to a ping. */
    public record Pong() implements Command {}

    /** A worker's report to the sink: it has received {@code pongs} pongs. */
    public record Done(long pongs) {}

    private static final Pong PONG = new Pong();

    private Big() {}

    /** The guardian and sink: spawns and starts the workers, then sums their reports. */
    public static Behavior<Done> create(int workers, long pings, int hood, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> new Sink(context, workers, pings, hood, outcome));
    }

    /** The sink: adds up the workers' pong counts until every worker has reported. */
    static final class Sink extends AbstractBehavior<Done> {
        private final int workers;
        private final CompletableFuture<String> outcome;
        private int reported;
        private long pongs;

        private Sink(ActorContext<Done> context, int workers, long pings, int hood, CompletableFuture<String> outcome) {
            super(context);
            this.workers = workers;
            this.outcome = outcome;
            for (int first = 0; first < workers; first += hood) {
                int size = Math.min(hood, workers - first);
                List<ActorRef<Command>> members = new ArrayList<>(size);
                for (int position = 0; position < size; position++) {
                    members.add(context.spawnAnonymous(Worker.create(position, pings, context.getSelf())));
                }
                Start start = new Start(List.copyOf(members));
                members.forEach(member -> member.tell(start));
            }
        }

        @Override
        public Receive<Done> createReceive() {
            return newReceiveBuilder().onMessage(Done.class, this::onDone).build();
        }

        private Behavior<Done> onDone(Done done) {
            pongs += done.pongs();
            if (++reported < workers) {
                return this;
            }
            outcome.complete("check=" + pongs);
            return Behaviors.stopped();
        }
    }

    /** A worker: pings random neighbours one at a time and answers their pings. */
    static final class Worker extends AbstractBehavior<Command> {
        private final int position;
        private final long pings;
        private final ActorRef<Done> sink;
        private List<ActorRef<Command>> hood = List.of();
        private long pongs;

        static Behavior<Command> create(int position, long pings, ActorRef<Done> sink) {
            return Behaviors.setup(context -> new Worker(context, position, pings, sink));
        }

        private Worker(ActorContext<Command> context, int position, long pings, ActorRef<Done> sink) {
            super(context);
            this.position = position;
            this.pings = pings;
            this.sink = sink;
        }

        @Override
        public Receive<Command> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Ping.class, this::onPing)
                    .onMessage(Pong.class, pong -> onPong())
                    .onMessage(Start.class, this::onStart)
                    .build();
        }

        private Behavior<Command> onStart(Start start) {
            hood = start.hood();
            if (pings == 0) {
                sink.tell(new Done(0));
            } else {
                pingSomeone();
            }
            return this;
        }

        private Behavior<Command> onPing(Ping ping) {
            ping.replyTo().tell(PONG);
            return this;
        }

        private Behavior<Command> onPong() {
            pongs++;
            if (pongs == pings) {
                sink.tell(new Done(pongs));
            } else {
                pingSomeone();
            }
            return this;
        }

        /** Sends a ping to a uniformly random other member of the neighbourhood (or to itself if alone). */
        private void pingSomeone() {
            ActorRef<Command> target;
            if (hood.size() == 1) {
                target = getContext().getSelf();
            } else {
                int pick = ThreadLocalRandom.current().nextInt(hood.size() - 1);
                target = hood.get(pick < position ? pick : pick + 1);
            }
            target.tell(new Ping(getContext().getSelf()));
        }
    }
}
