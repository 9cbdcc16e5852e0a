package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Props;

/**
 * fjthrput with classic actors ({@link Classic}): the same sender and receivers as
 * {@link FjThrput}.
 *
 * <p>The top-level {@link Root} creates the {@link Receiver}s with {@code getContext().actorOf},
 * numbered from 0, and is the sender: for {@code i} from 0 to {@code messages-1}, and within that
 * for every receiver {@code r} in order, it tells receiver {@code r} a {@link Message} carrying
 * {@code r*messages + i}. A receiver counts each message and adds {@code step(value)} to its digest;
 * at its {@code messages}-th message (at once when {@code messages} is 0) it reports its count and
 * digest to its parent and stops. The root adds up the reports: {@code HANDLED:DIGEST}.
 */
final class ClassicFjThrput {

    /** One message for a receiver. */
    record Message(long value) {}

    /** A receiver's report: the messages it handled and its digest. */
    record Report(long handled, long digest) {}

    private ClassicFjThrput() {}

    /** The top-level actor of a run. */
    static Props root(int actors, long messages, CompletableFuture<String> outcome) {
        return Props.create(Root.class, () -> new Root(actors, messages, outcome));
    }

    /** Creates the receivers, sends every message, then adds up the reports. */
    static final class Root extends AbstractActor {
        private final int actors;
        private final long messages;
        private final CompletableFuture<String> outcome;
        private int reports;
        private long handled;
        private long digest;

        Root(int actors, long messages, CompletableFuture<String> outcome) {
            this.actors = actors;
            this.messages = messages;
            this.outcome = outcome;
        }

        @Override
        public void preStart() {
            ActorRef[] receivers = new ActorRef[actors];
            for (int r = 0; r < actors; r++) {
                receivers[r] = getContext().actorOf(Receiver.props(messages));
            }
            for (long i = 0; i < messages; i++) {
                for (int r = 0; r < actors; r++) {
                    receivers[r].tell(new Message(r * messages + i), getSelf());
                }
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Report.class, report -> {
                handled += report.handled();
                digest += report.digest();
                if (++reports == actors) {
                    outcome.complete("check=" + SplitMix64.joined(handled, digest));
                    getContext().getSystem().terminate();
                }
            }).build();
        }
    }

    /** A receiver: a little work per message, one report after the last. */
    static final class Receiver extends AbstractActor {
        private final long messages;
        private long handled;
        private long digest;

        static Props props(long messages) {
            return Props.create(Receiver.class, () -> new Receiver(messages));
        }

        private Receiver(long messages) {
            this.messages = messages;
        }

        @Override
        public void preStart() {
            if (messages == 0) {
                report();
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Message.class, message -> {
                handled++;
                digest += SplitMix64.step(message.value());
                if (handled == messages) {
                    report();
                }
            }).build();
        }

        private void report() {
            getContext().getParent().tell(new Report(handled, digest), getSelf());
            getContext().stop(getSelf());
        }
    }
}
