package footlights.peers.pekko;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * cigsmok: cigarette smokers with an arbiter (Savina's cigarette smokers).
 *
 * <p>The guardian is the arbiter. It spawns {@code smokers} {@link Smoker}s, numbered from 0, and
 * has a generator seeded with 0: in each of {@code rounds} rounds, numbered from 0, it draws
 * {@code s = below(smokers)} and {@code t = below(1000)} and tells smoker {@code s} to
 * {@link Smoke} (the round and {@code t}), then waits for the smoker's {@link Started} before the
 * next round. A smoker told to smoke says it has started, then smokes: it counts the smoke and adds
 * {@code work(round, t)} to its digest. After the last round the arbiter tells every smoker to
 * {@link Stop}; each reports its number, count and digest, and the arbiter prints
 * {@code WEIGHTED:DIGEST}, the sum over smokers of {@code (id+1)*count} and the sum of the
 * digests.
 */
public final class CigSmok {

    /** What the arbiter receives. */
    public sealed interface ToArbiter permits Started, Report {}

    /** The smoker told to smoke has started. */
    public record Started() implements ToArbiter {}

    /** Smoker {@code id}'s report: its count of smokes and its digest. */
    public record Report(long id, long count, long digest) implements ToArbiter {}

    /** What a smoker receives. */
    public sealed interface ToSmoker permits Smoke, Stop {}

    /** Smoke, in round {@code round}, for {@code time}. */
    public record Smoke(long round, long time) implements ToSmoker {}

    /** No more rounds. */
    public record Stop() implements ToSmoker {}

    private static final Started STARTED = new Started();
    private static final Stop STOP = new Stop();

    private CigSmok() {}

    /** The guardian, which is the arbiter. */
    public static Behavior<ToArbiter> create(long rounds, int smokers, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> new Arbiter(context, rounds, smokers, outcome).nextRound());
    }

    /** The arbiter: one round at a time, then the smokers' reports. */
    static final class Arbiter extends AbstractBehavior<ToArbiter> {
        private final long rounds;
        private final List<ActorRef<ToSmoker>> smokers;
        private final CompletableFuture<String> outcome;
        private final SplitMix64 random = new SplitMix64(0);
        private long round;
        private int reports;
        private long weighted;
        private long digest;

        private Arbiter(ActorContext<ToArbiter> context, long rounds, int smokers, CompletableFuture<String> outcome) {
            super(context);
            this.rounds = rounds;
            this.outcome = outcome;
            this.smokers = new ArrayList<>(smokers);
            for (int id = 0; id < smokers; id++) {
                this.smokers.add(context.spawn(smoker(id, context.getSelf()), "smoker-" + id));
            }
        }

        @Override
        public Receive<ToArbiter> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Started.class, started -> nextRound())
                    .onMessage(Report.class, this::onReport)
                    .build();
        }

        /** Starts the next round, or after the last one tells every smoker to stop. */
        private Behavior<ToArbiter> nextRound() {
            if (round == rounds) {
                smokers.forEach(smoker -> smoker.tell(STOP));
                return this;
            }
            int s = (int) random.below((long) smokers.size());
            long t = random.below(1000L);
            smokers.get(s).tell(new Smoke(round, t));
            round++;
            return this;
        }

        private Behavior<ToArbiter> onReport(Report report) {
            weighted += (report.id() + 1) * report.count();
            digest += report.digest();
            if (++reports < smokers.size()) {
                return this;
            }
            outcome.complete("check=" + SplitMix64.joined(weighted, digest));
            return Behaviors.stopped();
        }
    }

    /** Smoker {@code id}: says it has started, then smokes; reports when told to stop. */
    static Behavior<ToSmoker> smoker(long id, ActorRef<ToArbiter> arbiter) {
        return Behaviors.setup(context -> new Smoker(context, id, arbiter));
    }

    /** A smoker: its count of smokes and its digest. */
    static final class Smoker extends AbstractBehavior<ToSmoker> {
        private final long id;
        private final ActorRef<ToArbiter> arbiter;
        private long count;
        private long digest;

        private Smoker(ActorContext<ToSmoker> context, long id, ActorRef<ToArbiter> arbiter) {
            super(context);
            this.id = id;
            this.arbiter = arbiter;
        }

        @Override
        public Receive<ToSmoker> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Smoke.class, this::onSmoke)
                    .onMessage(Stop.class, stop -> onStop())
                    .build();
        }

        private Behavior<ToSmoker> onSmoke(Smoke smoke) {
            arbiter.tell(STARTED);
            count++;
            digest += SplitMix64.work(smoke.round(), smoke.time());
            return this;
        }

        private Behavior<ToSmoker> onStop() {
            arbiter.tell(new Report(id, count, digest));
            return Behaviors.stopped();
        }
    }
}
