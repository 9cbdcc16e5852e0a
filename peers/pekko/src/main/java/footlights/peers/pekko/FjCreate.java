package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * fjcreate: fork-join creation, {@code actors} short-lived actors created flat (Savina's ForkJoin
 * creation).
 *
 * <p>The guardian spawns the {@link #worker}s one after the other, numbered from 0, and sends
 * worker {@code k} a {@link Number} carrying {@code k} right after spawning it. A worker computes
 * {@code step(k)}, reports it to the guardian and stops with {@code Behaviors.stopped()}. The
 * guardian counts the reports and adds them up: {@code HANDLED:DIGEST}.
 */
public final class FjCreate {

    /** A worker's one message. */
    public record Number(long k) {}

    /** A worker's report: {@code step(k)}. */
    public record Report(long value) {}

    private FjCreate() {}

    /** The guardian: spawns and starts every worker, then adds up their reports. */
    public static Behavior<Report> create(int actors, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            for (int k = 0; k < actors; k++) {
                context.spawnAnonymous(worker(context.getSelf())).tell(new Number(k));
            }
            return collecting(actors, 0, 0, outcome);
        });
    }

    /** Waits for {@code pending} more reports, having counted {@code handled} with sum {@code digest}. */
    private static Behavior<Report> collecting(int pending, long handled, long digest,
            CompletableFuture<String> outcome) {
        return Behaviors.receiveMessage(report -> {
            if (pending == 1) {
                outcome.complete("check=" + SplitMix64.joined(handled + 1, digest + report.value()));
                return Behaviors.stopped();
            }
            return collecting(pending - 1, handled + 1, digest + report.value(), outcome);
        });
    }

    /** A worker: handles its one number, reports and ends. */
    static Behavior<Number> worker(ActorRef<Report> collector) {
        return Behaviors.receiveMessage(number -> {
            collector.tell(new Report(SplitMix64.step(number.k())));
            return Behaviors.stopped();
        });
    }
}
