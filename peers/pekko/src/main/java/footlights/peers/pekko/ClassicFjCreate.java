package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Props;

/**
 * fjcreate with classic actors ({@link Classic}): the same flat creation as {@link FjCreate}.
 *
 * <p>The top-level {@link Root} creates the {@link Worker}s one after the other with
 * {@code getContext().actorOf}, numbered from 0, and tells worker {@code k} the number {@code k}
 * right after creating it. A worker computes {@code step(k)}, tells it to the root (the sender of
 * its message) and stops itself. The root counts the reports and adds them up:
 * {@code HANDLED:DIGEST}.
 */
final class ClassicFjCreate {

    /** A worker's one message. */
    record Number(long k) {}

    /** A worker's report: {@code step(k)}. */
    record Report(long value) {}

    private ClassicFjCreate() {}

    /** The top-level actor of a run. */
    static Props root(int actors, CompletableFuture<String> outcome) {
        return Props.create(Root.class, () -> new Root(actors, outcome));
    }

    /** Creates and starts every worker, then adds up their reports. */
    static final class Root extends AbstractActor {
        private final int actors;
        private final CompletableFuture<String> outcome;
        private long handled;
        private long digest;

        Root(int actors, CompletableFuture<String> outcome) {
            this.actors = actors;
            this.outcome = outcome;
        }

        @Override
        public void preStart() {
            Props worker = Props.create(Worker.class, Worker::new);
            for (int k = 0; k < actors; k++) {
                ActorRef ref = getContext().actorOf(worker);
                ref.tell(new Number(k), getSelf());
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Report.class, report -> {
                handled++;
                digest += report.value();
                if (handled == actors) {
                    outcome.complete("check=" + SplitMix64.joined(handled, digest));
                    getContext().getSystem().terminate();
                }
            }).build();
        }
    }

    /** A worker: handles its one number, reports and stops. */
    static final class Worker extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Number.class, number -> {
                getSender().tell(new Report(SplitMix64.step(number.k())), getSelf());
                getContext().stop(getSelf());
            }).build();
        }
    }
}
