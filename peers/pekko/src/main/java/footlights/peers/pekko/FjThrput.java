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
 * fjthrput: fork-join throughput, one sender and {@code actors} receivers (Savina's ForkJoin
 * throughput).
 *
 * <p>The guardian spawns the {@link Receiver}s, numbered from 0, and is the sender: for {@code i}
 * from 0 to {@code messages-1}, and within that for every receiver {@code r} in order, it sends
 * receiver {@code r} a {@link Message} carrying {@code r*messages + i}. A receiver counts each
 * message and adds {@code step(value)} to its digest; at its {@code messages}-th message (at once
 * when {@code messages} is 0) it reports its count and digest to the guardian and stops. The
 * guardian adds up the reports: {@code HANDLED:DIGEST}.
 */
public final class FjThrput {

    /** One message for a receiver. */
    public record Message(long value) {}

    /** A receiver's report: the messages it handled and its digest. */
    public record Report(long handled, long digest) {}

    private FjThrput() {}

    /** The guardian: spawns the receivers, sends every message, then adds up the reports. */
    public static Behavior<Report> create(int actors, long messages, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            List<ActorRef<Message>> receivers = new ArrayList<>(actors);
            for (int r = 0; r < actors; r++) {
                receivers.add(context.spawnAnonymous(Receiver.create(messages, context.getSelf())));
            }
            for (long i = 0; i < messages; i++) {
                for (int r = 0; r < actors; r++) {
                    receivers.get(r).tell(new Message(r * messages + i));
                }
            }
            return collecting(actors, 0, 0, outcome);
        });
    }

    /** Waits for {@code pending} more reports, having added up {@code handled} and {@code digest}. */
    private static Behavior<Report> collecting(int pending, long handled, long digest,
            CompletableFuture<String> outcome) {
        return Behaviors.receiveMessage(report -> {
            long allHandled = handled + report.handled();
            long allDigest = digest + report.digest();
            if (pending == 1) {
                outcome.complete("check=" + SplitMix64.joined(allHandled, allDigest));
                return Behaviors.stopped();
            }
            return collecting(pending - 1, allHandled, allDigest, outcome);
        });
    }

    /** A receiver: a little work per message, one report after the last. */
    static final class Receiver extends AbstractBehavior<Message> {
        private final long messages;
        private final ActorRef<Report> collector;
        private long handled;
        private long digest;

        static Behavior<Message> create(long messages, ActorRef<Report> collector) {
            return Behaviors.setup(context -> {
                if (messages == 0) {
                    collector.tell(new Report(0, 0));
                    return Behaviors.stopped();
                }
                return new Receiver(context, messages, collector);
            });
        }

        private Receiver(ActorContext<Message> context, long messages, ActorRef<Report> collector) {
            super(context);
            this.messages = messages;
            this.collector = collector;
        }

        @Override
        public Receive<Message> createReceive() {
            return newReceiveBuilder().onMessage(Message.class, this::onMessage).build();
        }

        private Behavior<Message> onMessage(Message message) {
            handled++;
            digest += SplitMix64.step(message.value());
            if (handled < messages) {
                return this;
            }
            collector.tell(new Report(handled, digest));
            return Behaviors.stopped();
        }
    }
}
