package footlights.peers.pekko;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * bndbuffer: producers and consumers through one manager with a bounded buffer (Savina's
 * producer-consumer with a bounded buffer).
 *
 * <p>{@link Producer} {@code p} has a generator seeded with {@code p}; it makes its item
 * {@code work(next(), cost)} and sends it to the {@link Manager} as a {@link Data}, its first as it
 * starts and each next one when the manager sends it {@link Produce}; told to produce after its
 * {@code items}-th item, it tells the manager {@link ProducerDone} and stops. The manager hands an
 * arriving item to a waiting consumer, or else puts it at the end of its buffer; then it tells the
 * producer to produce again while the buffer holds fewer than {@code buffer} items, and otherwise
 * holds the producer back until a consumer takes an item from the buffer. A {@link Consumer} tells
 * the manager it is {@link Available} as it starts and after each item; it computes
 * {@code work(item, cost)} for each item it receives and adds it to its sum. Once every producer is
 * done and every consumer waits (so the buffer is empty), the manager tells the consumers to
 * {@link Stop}; each reports its count and sum to the guardian: {@code CONSUMED:SUM}.
 */
public final class BndBuffer {

    /** What the manager receives. */
    public sealed interface ToManager permits Data, Available, ProducerDone {}

    /** An item from {@code producer}. */
    public record Data(long item, ActorRef<ToProducer> producer) implements ToManager {}

    /** {@code consumer} is waiting for an item. */
    public record Available(ActorRef<ToConsumer> consumer) implements ToManager {}

    /** A producer has made all its items. */
    public record ProducerDone() implements ToManager {}

    /** What a producer receives. */
    public sealed interface ToProducer permits Produce {}

    /** Make the next item. */
    public record Produce() implements ToProducer {}

    /** What a consumer receives. */
    public sealed interface ToConsumer permits Item, Stop {}

    /** An item to consume. */
    public record Item(long item) implements ToConsumer {}

    /** No more items will come. */
    public record Stop() implements ToConsumer {}

    /** A consumer's report: items consumed and the sum of its work. */
    public record Report(long consumed, long sum) {}

    private static final Produce PRODUCE = new Produce();
    private static final Stop STOP = new Stop();

    private BndBuffer() {}

    /** The guardian: spawns the manager, the consumers and the producers, then adds up the reports. */
    public static Behavior<Report> create(int buffer, int producers, int consumers, long items, long cost,
            CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            ActorRef<ToManager> manager = context.spawn(Manager.create(buffer, producers, consumers), "manager");
            for (int c = 0; c < consumers; c++) {
                context.spawn(Consumer.create(cost, manager, context.getSelf()), "consumer-" + c);
            }
            for (int p = 0; p < producers; p++) {
                context.spawn(Producer.create(p, items, cost, manager), "producer-" + p);
            }
            return collecting(consumers, 0, 0, outcome);
        });
    }

    /** Waits for {@code pending} more consumer reports. */
    private static Behavior<Report> collecting(int pending, long consumed, long sum, CompletableFuture<String> outcome) {
        return Behaviors.receiveMessage(report -> {
            if (pending == 1) {
                outcome.complete("check=" + SplitMix64.joined(consumed + report.consumed(), sum + report.sum()));
                return Behaviors.stopped();
            }
            return collecting(pending - 1, consumed + report.consumed(), sum + report.sum(), outcome);
        });
    }

    /** The manager: the bounded buffer between the producers and the consumers. */
    static final class Manager extends AbstractBehavior<ToManager> {
        private final int capacity;
        private final int producers;
        private final int consumers;
        private final ArrayDeque<Long> buffer = new ArrayDeque<>();
        private final ArrayDeque<ActorRef<ToConsumer>> waitingConsumers = new ArrayDeque<>();
        private final ArrayDeque<ActorRef<ToProducer>> heldProducers = new ArrayDeque<>();
        private int producersDone;

        static Behavior<ToManager> create(int capacity, int producers, int consumers) {
            return Behaviors.setup(context -> new Manager(context, capacity, producers, consumers));
        }

        private Manager(ActorContext<ToManager> context, int capacity, int producers, int consumers) {
            super(context);
            this.capacity = capacity;
            this.producers = producers;
            this.consumers = consumers;
        }

        @Override
        public Receive<ToManager> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Data.class, this::onData)
                    .onMessage(Available.class, this::onAvailable)
                    .onMessage(ProducerDone.class, done -> onProducerDone())
                    .build();
        }

        private Behavior<ToManager> onData(Data data) {
            ActorRef<ToConsumer> consumer = waitingConsumers.poll();
            if (consumer != null) {
                consumer.tell(new Item(data.item()));
            } else {
                buffer.add(data.item());
            }
            if (buffer.size() < capacity) {
                data.producer().tell(PRODUCE);
            } else {
                heldProducers.add(data.producer());
            }
            return this;
        }

        private Behavior<ToManager> onAvailable(Available available) {
            Long item = buffer.poll();
            if (item == null) {
                waitingConsumers.add(available.consumer());
                return finishIfDone();
            }
            available.consumer().tell(new Item(item));
            ActorRef<ToProducer> producer = heldProducers.poll();
            if (producer != null) {
                producer.tell(PRODUCE);
            }
            return this;
        }

        private Behavior<ToManager> onProducerDone() {
            producersDone++;
            return finishIfDone();
        }

        /** Once every producer is done and every consumer waits, stops the consumers and itself. */
        private Behavior<ToManager> finishIfDone() {
            if (producersDone < producers || waitingConsumers.size() < consumers) {
                return this;
            }
            waitingConsumers.forEach(consumer -> consumer.tell(STOP));
            return Behaviors.stopped();
        }
    }

    /** A producer: one item at a time, each when the manager asks for it. */
    static final class Producer extends AbstractBehavior<ToProducer> {
        private final long items;
        private final long cost;
        private final ActorRef<ToManager> manager;
        private final SplitMix64 random;
        private long produced;

        static Behavior<ToProducer> create(int id, long items, long cost, ActorRef<ToManager> manager) {
            return Behaviors.setup(context -> new Producer(context, id, items, cost, manager).produce());
        }

        private Producer(ActorContext<ToProducer> context, int id, long items, long cost, ActorRef<ToManager> manager) {
            super(context);
            this.items = items;
            this.cost = cost;
            this.manager = manager;
            this.random = new SplitMix64(id);
        }

        @Override
        public Receive<ToProducer> createReceive() {
            return newReceiveBuilder().onMessage(Produce.class, produce -> produce()).build();
        }

        /** Makes and sends the next item, or says it is done and stops. */
        private Behavior<ToProducer> produce() {
            if (produced == items) {
                manager.tell(new ProducerDone());
                return Behaviors.stopped();
            }
            produced++;
            manager.tell(new Data(SplitMix64.work(random.next(), cost), getContext().getSelf()));
            return this;
        }
    }

    /** A consumer: works on each item it is given until told to stop. */
    static final class Consumer extends AbstractBehavior<ToConsumer> {
        private final long cost;
        private final ActorRef<ToManager> manager;
        private final ActorRef<Report> guardian;
        private final Available available;
        private long consumed;
        private long sum;

        static Behavior<ToConsumer> create(long cost, ActorRef<ToManager> manager, ActorRef<Report> guardian) {
            return Behaviors.setup(context -> new Consumer(context, cost, manager, guardian));
        }

        private Consumer(ActorContext<ToConsumer> context, long cost, ActorRef<ToManager> manager,
                ActorRef<Report> guardian) {
            super(context);
            this.cost = cost;
            this.manager = manager;
            this.guardian = guardian;
            this.available = new Available(context.getSelf());
            manager.tell(available);
        }

        @Override
        public Receive<ToConsumer> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Item.class, this::onItem)
                    .onMessage(Stop.class, stop -> onStop())
                    .build();
        }

        private Behavior<ToConsumer> onItem(Item item) {
            consumed++;
            sum += SplitMix64.work(item.item(), cost);
            manager.tell(available);
            return this;
        }

        private Behavior<ToConsumer> onStop() {
            guardian.tell(new Report(consumed, sum));
            return Behaviors.stopped();
        }
    }
}
