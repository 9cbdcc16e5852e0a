package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * logmap: logistic-map series computed through rate actors, request and reply (Savina's logistic
 * map).
 *
 * <p>The guardian is the master. With {@code R = rate / 10000.0} and {@code D = increment /
 * 10000.0}, it spawns {@code series} {@link #rateActor}s, rate actor {@code i} with the rate
 * {@code r = R + (double) i * D}, and as many {@link Series}, series {@code i} starting from
 * {@code x = (double) (i+1) / (double) (series+1)} and asking rate actor {@code i} only. A series
 * computes {@code terms} terms one at a time: it sends its current term to its rate actor in a
 * {@link Compute} carrying its {@code ActorRef}, and the {@link Term} that comes back,
 * {@code (r * x) * (1.0 - x)} in IEEE double (Java never fuses these), becomes its current term,
 * and the series adds {@code floor(x * 2^32)} of it to its sum. After the last term it reports its
 * sum to the master, which prints the sum of the reports (wrapping): {@code SUM}.
 */
public final class LogMap {

    /** A request to a rate actor: the next term after {@code x}. */
    public record Compute(double x, ActorRef<Term> replyTo) {}

    /** A rate actor's answer: the next term. */
    public record Term(double x) {}

    /** A series' report to the master: the sum of {@code floor(x * 2^32)} over its terms. */
    public record Report(long value) {}

    private LogMap() {}

    /** The guardian, which is the master: spawns the pairs, then adds up the reports. */
    public static Behavior<Report> create(long terms, int series, long rate, long increment,
            CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            double bigR = rate / 10000.0;
            double d = increment / 10000.0;
            for (int i = 0; i < series; i++) {
                double r = bigR + (double) i * d;
                ActorRef<Compute> rateActor = context.spawn(rateActor(r), "rate-" + i);
                double x = (double) (i + 1) / (double) (series + 1);
                context.spawn(Series.create(terms, x, rateActor, context.getSelf()), "series-" + i);
            }
            return collecting(series, 0, outcome);
        });
    }

    /** Waits for {@code pending} more series' reports, having added up {@code sum}. */
    private static Behavior<Report> collecting(int pending, long sum, CompletableFuture<String> outcome) {
        return Behaviors.receiveMessage(report -> {
            if (pending == 1) {
                outcome.complete("check=" + Long.toUnsignedString(sum + report.value()));
                return Behaviors.stopped();
            }
            return collecting(pending - 1, sum + report.value(), outcome);
        });
    }

    /** A rate actor with rate {@code r}: answers every term with the next. */
    static Behavior<Compute> rateActor(double r) {
        return Behaviors.receiveMessage(compute -> {
            double x = compute.x();
            compute.replyTo().tell(new Term((r * x) * (1.0 - x)));
            return Behaviors.same();
        });
    }

    /** A series: one term at a time from its rate actor. */
    static final class Series extends AbstractBehavior<Term> {
        private final long terms;
        private final ActorRef<Compute> rateActor;
        private final ActorRef<Report> master;
        private long computed;
        private long sum;

        static Behavior<Term> create(long terms, double x, ActorRef<Compute> rateActor, ActorRef<Report> master) {
            return Behaviors.setup(context -> new Series(context, terms, rateActor, master).next(x));
        }

        private Series(ActorContext<Term> context, long terms, ActorRef<Compute> rateActor, ActorRef<Report> master) {
            super(context);
            this.terms = terms;
            this.rateActor = rateActor;
            this.master = master;
        }

        @Override
        public Receive<Term> createReceive() {
            return newReceiveBuilder().onMessage(Term.class, term -> {
                computed++;
                sum += (long) Math.floor(term.x() * 4294967296.0);
                return next(term.x());
            }).build();
        }

        /** Asks for the term after {@code x}, or after the last reports the sum and stops. */
        private Behavior<Term> next(double x) {
            if (computed == terms) {
                master.tell(new Report(sum));
                return Behaviors.stopped();
            }
            rateActor.tell(new Compute(x, getContext().getSelf()));
            return this;
        }
    }
}
