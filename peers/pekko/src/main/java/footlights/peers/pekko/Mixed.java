package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * mixed: rings of actors passing tokens, created and ended each repetition, next to CPU-bound
 * factorisations (libcppa's "mixed case").
 *
 * <p>The guardian is the collector. It spawns, for each of the {@code rings} rings, a
 * {@link #worker} and a {@link Master} that owns it. A repetition of a master: it sends its worker
 * {@link Work#CALC}; it spawns {@code ring_size - 1} anonymous {@link #chainLink} children in a
 * ring behind itself (built back to front, the last one pointing at the master); it sends the
 * first link the {@link Token} {@code token}. A link forwards every token unchanged and stops
 * after forwarding 0; the master forwards {@code t - 1} on receiving {@code t > 0}, so on
 * receiving 0 every link of this ring has ended and the repetition is over. After {@code reps}
 * repetitions the master tells its worker {@link Work#FINISH} (queued behind its last
 * {@code CALC}), tells the collector {@link MasterDone} and stops.
 *
 * <p>A worker factorises 28350160440309881 by trial division for every {@code CALC} and sends the
 * two factors to the collector; on {@code FINISH} it stops. The collector checks each
 * {@link Factors} (both above 1, product equal to the number) and ends the run once it holds
 * {@code rings*reps} verified factorisations and every master is done; the check is the number of
 * verified factorisations.
 */
public final class Mixed {

    /** The number every worker factorises: 86028157 * 329545133. */
    static final long NUMBER = 28_350_160_440_309_881L;

    /** A token travelling round a ring. */
    public record Token(int value) {}

    /** The protocol of a worker. */
    public enum Work { CALC, FINISH }

    /** The protocol of the collector. */
    public sealed interface Report permits Factors, MasterDone {}

    /** A worker's result: two factors whose product should be {@link #NUMBER}. */
    public record Factors(long small, long large) implements Report {}

    /** A master has finished all its repetitions. */
    public record MasterDone() implements Report {}

    private Mixed() {}

    /** The guardian and collector: spawns masters and workers, then verifies and counts results. */
    public static Behavior<Report> create(int rings, int ringSize, int token, int reps, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> new Collector(context, rings, ringSize, token, reps, outcome));
    }

    /** The collector: verifies every factorisation and waits for all masters. */
    static final class Collector extends AbstractBehavior<Report> {
        private final int rings;
        private final long expected;
        private final CompletableFuture<String> outcome;
        private long verified;
        private int mastersDone;

        private Collector(ActorContext<Report> context, int rings, int ringSize, int token, int reps,
                CompletableFuture<String> outcome) {
            super(context);
            this.rings = rings;
            this.expected = (long) rings * reps;
            this.outcome = outcome;
            for (int ring = 0; ring < rings; ring++) {
                ActorRef<Work> worker = context.spawn(worker(context.getSelf()), "worker-" + ring);
                context.spawn(Master.create(ringSize, token, reps, worker, context.getSelf()), "master-" + ring);
            }
        }

        @Override
        public Receive<Report> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Factors.class, this::onFactors)
                    .onMessage(MasterDone.class, done -> onMasterDone())
                    .build();
        }

        private Behavior<Report> onFactors(Factors factors) {
            long small = factors.small();
            long large = factors.large();
            if (small <= 1 || large <= 1 || Math.multiplyHigh(small, large) != 0 || small * large != NUMBER) {
                outcome.completeExceptionally(new IllegalStateException(
                        "wrong factorisation " + small + " * " + large + " of " + NUMBER));
                return Behaviors.stopped();
            }
            verified++;
            return finishedOrSame();
        }

        private Behavior<Report> onMasterDone() {
            mastersDone++;
            return finishedOrSame();
        }

        private Behavior<Report> finishedOrSame() {
            if (verified < expected || mastersDone < rings) {
                return this;
            }
            outcome.complete("check=" + verified);
            return Behaviors.stopped();
        }
    }

    /** A worker: factorises {@link #NUMBER} for every {@code CALC}, stops on {@code FINISH}. */
    static Behavior<Work> worker(ActorRef<Report> collector) {
        return Behaviors.receiveMessage(work -> switch (work) {
            case CALC -> {
                long small = smallestFactor(NUMBER);
                collector.tell(new Factors(small, NUMBER / small));
                yield Behaviors.same();
            }
            case FINISH -> Behaviors.stopped();
        });
    }

    /** The smallest factor above 1 of {@code n > 1}, by trial division. */
    static long smallestFactor(long n) {
        if (n % 2 == 0) {
            return 2;
        }
        for (long d = 3; d <= n / d; d += 2) {
            if (n % d == 0) {
                return d;
            }
        }
        return n;
    }

    /** A link of a ring: forwards every token to {@code next}, and stops after forwarding 0. */
    static Behavior<Token> chainLink(ActorRef<Token> next) {
        return Behaviors.receiveMessage(token -> {
            next.tell(token);
            return token.value() == 0 ? Behaviors.stopped() : Behaviors.same();
        });
    }

    /** A master: runs its repetitions of calc, ring building and token passing. */
    static final class Master extends AbstractBehavior<Token> {
        private final int ringSize;
        private final int token;
        private final int reps;
        private final ActorRef<Work> worker;
        private final ActorRef<Report> collector;
        private ActorRef<Token> firstLink;
        private int repsDone;

        static Behavior<Token> create(int ringSize, int token, int reps, ActorRef<Work> worker, ActorRef<Report> collector) {
            return Behaviors.setup(context -> new Master(context, ringSize, token, reps, worker, collector));
        }

        private Master(ActorContext<Token> context, int ringSize, int token, int reps, ActorRef<Work> worker,
                ActorRef<Report> collector) {
            super(context);
            this.ringSize = ringSize;
            this.token = token;
            this.reps = reps;
            this.worker = worker;
            this.collector = collector;
            startRepetition();
        }

        private void startRepetition() {
            worker.tell(Work.CALC);
            ActorRef<Token> next = getContext().getSelf();
            for (int i = 1; i < ringSize; i++) {
                next = getContext().spawnAnonymous(chainLink(next));
            }
            firstLink = next;
            firstLink.tell(new Token(token));
        }

        @Override
        public Receive<Token> createReceive() {
            return newReceiveBuilder().onMessage(Token.class, this::onToken).build();
        }

        private Behavior<Token> onToken(Token received) {
            if (received.value() > 0) {
                firstLink.tell(new Token(received.value() - 1));
                return this;
            }
            repsDone++;
            if (repsDone < reps) {
                startRepetition();
                return this;
            }
            worker.tell(Work.FINISH);
            collector.tell(new MasterDone());
            return Behaviors.stopped();
        }
    }
}
