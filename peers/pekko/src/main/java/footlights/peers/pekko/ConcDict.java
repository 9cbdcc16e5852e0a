package footlights.peers.pekko;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * concdict: {@code workers} clients of one dictionary actor, each waiting for every answer
 * (Savina's concurrent dictionary).
 *
 * <p>The {@link #dictionary} holds a {@code HashMap<Long, Long>}: a {@link Write} stores its value
 * and is answered with it, a {@link Read} is answered with the key's value or 0, a {@link Summarise}
 * with the map's size and the sum over its entries of {@code (key+1)*value}. Requests carry the
 * {@code ActorRef} to answer (Pekko's request-response pattern). {@link Worker} {@code w} draws
 * each of its {@code messages} operations from its own generator seeded with {@code w}:
 * {@code r = below(100)}, {@code key = w*1024 + below(1024)}, and for a write ({@code r <
 * write_pct}) {@code value = next() >>> 32}; it sends the next operation only when the answer to
 * the last has arrived, adds up the answers to its reads, and reports its answer count and read sum
 * to the guardian. When every worker has reported, the guardian asks the dictionary for its
 * summary: {@code ANSWERS:SIZE:CONTENTS:READSUM}.
 */
public final class ConcDict {

    /** A request to the dictionary. */
    public sealed interface Request permits Write, Read, Summarise {}

    /** Store {@code key -> value}; answered with {@code value}. */
    public record Write(long key, long value, ActorRef<Answer> replyTo) implements Request {}

    /** Look {@code key} up; answered with its value, or 0 if it has none. */
    public record Read(long key, ActorRef<Answer> replyTo) implements Request {}

    /** Ask for the size and the contents digest. */
    public record Summarise(ActorRef<Event> replyTo) implements Request {}

    /** The dictionary's answer to a write or a read. */
    public record Answer(long value) {}

    /** What the guardian receives. */
    public sealed interface Event permits Done, Summary {}

    /** A worker's report: its answers and the sum of its read answers. */
    public record Done(long answers, long readSum) implements Event {}

    /** The dictionary's size and {@code sum((key+1)*value)}. */
    public record Summary(long size, long contents) implements Event {}

    private ConcDict() {}

    /** The guardian: spawns the dictionary and the workers, then collects and summarises. */
    public static Behavior<Event> create(int workers, long messages, int writePct, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            ActorRef<Request> dictionary = context.spawn(dictionary(), "dictionary");
            for (int w = 0; w < workers; w++) {
                context.spawn(Worker.create(w, messages, writePct, dictionary, context.getSelf()), "worker-" + w);
            }
            return collecting(workers, 0, 0, dictionary, context.getSelf(), outcome);
        });
    }

    /** Waits for {@code pending} more workers' reports, then for the dictionary's summary. */
    private static Behavior<Event> collecting(int pending, long answers, long readSum, ActorRef<Request> dictionary,
            ActorRef<Event> self, CompletableFuture<String> outcome) {
        return Behaviors.receive(Event.class)
                .onMessage(Done.class, done -> {
                    if (pending == 1) {
                        dictionary.tell(new Summarise(self));
                    }
                    return collecting(pending - 1, answers + done.answers(), readSum + done.readSum(), dictionary,
                            self, outcome);
                })
                .onMessage(Summary.class, summary -> {
                    outcome.complete("check=" + SplitMix64.joined(answers, summary.size(), summary.contents(), readSum));
                    return Behaviors.stopped();
                })
                .build();
    }

    /** The dictionary actor. */
    static Behavior<Request> dictionary() {
        Map<Long, Long> entries = new HashMap<>();
        return Behaviors.receive(Request.class)
                .onMessage(Write.class, write -> {
                    entries.put(write.key(), write.value());
                    write.replyTo().tell(new Answer(write.value()));
                    return Behaviors.same();
                })
                .onMessage(Read.class, read -> {
                    read.replyTo().tell(new Answer(entries.getOrDefault(read.key(), 0L)));
                    return Behaviors.same();
                })
                .onMessage(Summarise.class, summarise -> {
                    long contents = 0;
                    for (Map.Entry<Long, Long> entry : entries.entrySet()) {
                        contents += (entry.getKey() + 1) * entry.getValue();
                    }
                    summarise.replyTo().tell(new Summary(entries.size(), contents));
                    return Behaviors.same();
                })
                .build();
    }

    /** A worker: one operation at a time, each answered before the next is drawn. */
    static final class Worker extends AbstractBehavior<Answer> {
        private final int id;
        private final long messages;
        private final int writePct;
        private final ActorRef<Request> dictionary;
        private final ActorRef<Event> guardian;
        private final SplitMix64 random;
        private boolean reading;
        private long answers;
        private long readSum;

        static Behavior<Answer> create(int id, long messages, int writePct, ActorRef<Request> dictionary,
                ActorRef<Event> guardian) {
            return Behaviors.setup(context -> {
                Worker worker = new Worker(context, id, messages, writePct, dictionary, guardian);
                return worker.sendNextOrFinish();
            });
        }

        private Worker(ActorContext<Answer> context, int id, long messages, int writePct, ActorRef<Request> dictionary,
                ActorRef<Event> guardian) {
            super(context);
            this.id = id;
            this.messages = messages;
            this.writePct = writePct;
            this.dictionary = dictionary;
            this.guardian = guardian;
            this.random = new SplitMix64(id);
        }

        @Override
        public Receive<Answer> createReceive() {
            return newReceiveBuilder().onMessage(Answer.class, this::onAnswer).build();
        }

        private Behavior<Answer> onAnswer(Answer answer) {
            answers++;
            if (reading) {
                readSum += answer.value();
            }
            return sendNextOrFinish();
        }

        /** Draws and sends the next operation, or reports and stops after the last answer. */
        private Behavior<Answer> sendNextOrFinish() {
            if (answers == messages) {
                guardian.tell(new Done(answers, readSum));
                return Behaviors.stopped();
            }
            long r = random.below(100L);
            long key = (long) id * 1024 + random.below(1024L);
            reading = r >= writePct;
            if (reading) {
                dictionary.tell(new Read(key, getContext().getSelf()));
            } else {
                dictionary.tell(new Write(key, random.next() >>> 32, getContext().getSelf()));
            }
            return this;
        }
    }
}
