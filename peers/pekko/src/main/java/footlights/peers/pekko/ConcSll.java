package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * concsll: {@code workers} clients of one sorted-linked-list actor, each waiting for every answer
 * (Savina's concurrent sorted linked list).
 *
 * <p>The {@link SortedList} actor keeps its values in a singly linked list in ascending order and
 * searches it from the front: an {@link Insert} walks to the first element that is not smaller and
 * links the value in before it (equal values are all kept), a {@link Contains} walks until it finds
 * the value or passes it, a {@link Size} counts the elements; each is answered to the
 * {@code ActorRef} it carries. {@link Worker} {@code w} draws each of its {@code messages}
 * operations from its own generator seeded with {@code w}: {@code r = below(100)}; a size query if
 * {@code r < size_pct}, else an insert if {@code r < size_pct + write_pct}, else a lookup, the
 * value of either being {@code below(1024)*workers + w}. It sends the next operation only when the
 * answer to the last has arrived, counts its answers and its lookups answered true, and reports both
 * to the guardian. When every worker has reported, the guardian asks the list for its length and
 * the sum over positions {@code p} of {@code (p+1)*value}: {@code ANSWERS:SIZE:CONTENTS:HITS}.
 */
public final class ConcSll {

    /** A request to the list. */
    public sealed interface Request permits Insert, Contains, Size, Summarise {}

    /** Insert {@code value}; answered once it is in. */
    public record Insert(long value, ActorRef<Answer> replyTo) implements Request {}

    /** Whether {@code value} is in the list. */
    public record Contains(long value, ActorRef<Answer> replyTo) implements Request {}

    /** The list's length. */
    public record Size(ActorRef<Answer> replyTo) implements Request {}

    /** The list's length and contents digest, for the guardian. */
    public record Summarise(ActorRef<Event> replyTo) implements Request {}

    /** The list's answer: a length, whether a value was found, or 0 for a completed insert. */
    public record Answer(long value) {}

    /** What the guardian receives. */
    public sealed interface Event permits Done, Summary {}

    /** A worker's report: its answers and its lookups that found their value. */
    public record Done(long answers, long hits) implements Event {}

    /** The list's length and {@code sum((p+1)*value)}. */
    public record Summary(long size, long contents) implements Event {}

    private static final Answer INSERTED = new Answer(0);
    private static final Answer FOUND = new Answer(1);
    private static final Answer NOT_FOUND = new Answer(0);

    private ConcSll() {}

    /** The guardian: spawns the list and the workers, then collects and summarises. */
    public static Behavior<Event> create(int workers, long messages, int writePct, int sizePct,
            CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            ActorRef<Request> list = context.spawn(Behaviors.setup(SortedList::new), "list");
            for (int w = 0; w < workers; w++) {
                context.spawn(Worker.create(w, workers, messages, writePct, sizePct, list, context.getSelf()),
                        "worker-" + w);
            }
            return collecting(workers, 0, 0, list, context.getSelf(), outcome);
        });
    }

    /** Waits for {@code pending} more workers' reports, then for the list's summary. */
    private static Behavior<Event> collecting(int pending, long answers, long hits, ActorRef<Request> list,
            ActorRef<Event> self, CompletableFuture<String> outcome) {
        return Behaviors.receive(Event.class)
                .onMessage(Done.class, done -> {
                    if (pending == 1) {
                        list.tell(new Summarise(self));
                    }
                    return collecting(pending - 1, answers + done.answers(), hits + done.hits(), list, self, outcome);
                })
                .onMessage(Summary.class, summary -> {
                    outcome.complete("check=" + SplitMix64.joined(answers, summary.size(), summary.contents(), hits));
                    return Behaviors.stopped();
                })
                .build();
    }

    /** The list actor: a sorted singly linked list, searched from the front. */
    static final class SortedList extends AbstractBehavior<Request> {

        /** One element of the list. */
        private static final class Node {
            final long value;
            Node next;

            Node(long value, Node next) {
                this.value = value;
                this.next = next;
            }
        }

        private Node head;

        SortedList(ActorContext<Request> context) {
            super(context);
        }

        @Override
        public Receive<Request> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Insert.class, this::onInsert)
                    .onMessage(Contains.class, this::onContains)
                    .onMessage(Size.class, this::onSize)
                    .onMessage(Summarise.class, this::onSummarise)
                    .build();
        }

        private Behavior<Request> onInsert(Insert insert) {
            if (head == null || head.value >= insert.value()) {
                head = new Node(insert.value(), head);
            } else {
                Node before = head;
                while (before.next != null && before.next.value < insert.value()) {
                    before = before.next;
                }
                before.next = new Node(insert.value(), before.next);
            }
            insert.replyTo().tell(INSERTED);
            return this;
        }

        private Behavior<Request> onContains(Contains contains) {
            Node node = head;
            while (node != null && node.value < contains.value()) {
                node = node.next;
            }
            contains.replyTo().tell(node != null && node.value == contains.value() ? FOUND : NOT_FOUND);
            return this;
        }

        private Behavior<Request> onSize(Size size) {
            size.replyTo().tell(new Answer(length()));
            return this;
        }

        private Behavior<Request> onSummarise(Summarise summarise) {
            long contents = 0;
            long position = 0;
            for (Node node = head; node != null; node = node.next) {
                position++;
                contents += position * node.value;
            }
            summarise.replyTo().tell(new Summary(length(), contents));
            return this;
        }

        private long length() {
            long length = 0;
            for (Node node = head; node != null; node = node.next) {
                length++;
            }
            return length;
        }
    }

    /** A worker: one operation at a time, each answered before the next is drawn. */
    static final class Worker extends AbstractBehavior<Answer> {
        private final int id;
        private final int workers;
        private final long messages;
        private final int writePct;
        private final int sizePct;
        private final ActorRef<Request> list;
        private final ActorRef<Event> guardian;
        private final SplitMix64 random;
        private boolean lookingUp;
        private long answers;
        private long hits;

        static Behavior<Answer> create(int id, int workers, long messages, int writePct, int sizePct,
                ActorRef<Request> list, ActorRef<Event> guardian) {
            return Behaviors.setup(context ->
                    new Worker(context, id, workers, messages, writePct, sizePct, list, guardian).sendNextOrFinish());
        }

        private Worker(ActorContext<Answer> context, int id, int workers, long messages, int writePct, int sizePct,
                ActorRef<Request> list, ActorRef<Event> guardian) {
            super(context);
            this.id = id;
            this.workers = workers;
            this.messages = messages;
            this.writePct = writePct;
            this.sizePct = sizePct;
            this.list = list;
            this.guardian = guardian;
            this.random = new SplitMix64(id);
        }

        @Override
        public Receive<Answer> createReceive() {
            return newReceiveBuilder().onMessage(Answer.class, this::onAnswer).build();
        }

        private Behavior<Answer> onAnswer(Answer answer) {
            answers++;
            if (lookingUp && answer.value() == 1) {
                hits++;
            }
            return sendNextOrFinish();
        }

        /** Draws and sends the next operation, or reports and stops after the last answer. */
        private Behavior<Answer> sendNextOrFinish() {
            if (answers == messages) {
                guardian.tell(new Done(answers, hits));
                return Behaviors.stopped();
            }
            long r = random.below(100L);
            lookingUp = false;
            if (r < sizePct) {
                list.tell(new Size(getContext().getSelf()));
            } else {
                long value = random.below(1024L) * workers + id;
                if (r < sizePct + writePct) {
                    list.tell(new Insert(value, getContext().getSelf()));
                } else {
                    lookingUp = true;
                    list.tell(new Contains(value, getContext().getSelf()));
                }
            }
            return this;
        }
    }
}
