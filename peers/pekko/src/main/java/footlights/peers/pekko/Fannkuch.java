package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * fannkuch: fannkuch-redux over all {@code n!} permutations, split into index ranges for worker
 * actors.
 *
 * <p>The algorithm. Permutations are numbered {@code 0 .. n!-1} in the benchmark's order. Index
 * {@code k} written in the factorial number system has digits {@code d_i} ({@code 0 <= d_i <= i},
 * weight {@code i!}, for {@code i = n-1 .. 1}); its permutation is the identity with, for each
 * {@code i} from {@code n-1} down to 1, the prefix {@code [0..i]} rotated left {@code d_i} times.
 * Stepping to index {@code k+1} is incrementing that number: rotate the prefix {@code [0..1]} left
 * once; whenever digit {@code i} wraps past {@code i} (the prefix has turned full circle and is back
 * as it was) reset it and rotate the prefix {@code [0..i+1]} instead, and so on. For each
 * permutation the number of flips is counted: while the first element {@code f} is not 0, reverse
 * the prefix {@code [0..f]}. The checksum adds the flips of even indices and subtracts those of odd
 * ones; the result also holds the maximum number of flips.
 *
 * <p>The actors. The guardian is the collector. It cuts the index space into tasks of
 * {@code (n-2)!} permutations (so {@code n(n-1)} tasks), spawns one {@link #worker()} per dispatcher
 * thread and hands each a {@link Task}. A worker computes its range and replies with a
 * {@link Partial} (checksum, maximum flips and its own reference); the collector folds it in and
 * hands that worker the next task, if any: workers pull work, so they stay evenly loaded. When all
 * tasks are in, the collector prints {@code CHECKSUM:MAXFLIPS} and stops, which stops the workers.
 */
public final class Fannkuch {

    /** Permutations {@code [first, end)} of {@code n} elements to be checked; the answer goes to {@code replyTo}. */
    public record Task(int n, long first, long end, ActorRef<Partial> replyTo) {}

    /** A worker's answer for one task. */
    public record Partial(long checksum, int maxFlips, ActorRef<Task> worker) {}

    private Fannkuch() {}

    /** The guardian and collector: deals tasks to {@code workers} workers and combines their answers. */
    public static Behavior<Partial> create(int n, int workers, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> new Collector(context, n, workers, outcome));
    }

    /** The collector: hands out index ranges on demand and folds in the partial results. */
    static final class Collector extends AbstractBehavior<Partial> {
        private final int n;
        private final long total;
        private final long chunk;
        private final long tasks;
        private final CompletableFuture<String> outcome;
        private long nextFirst;
        private long answered;
        private long checksum;
        private int maxFlips;

        private Collector(ActorContext<Partial> context, int n, int workers, CompletableFuture<String> outcome) {
            super(context);
            this.n = n;
            this.total = factorial(n);
            this.chunk = factorial(n - 2);
            this.tasks = (total + chunk - 1) / chunk;
            this.outcome = outcome;
            for (int i = 0; i < Math.min(workers, tasks); i++) {
                handOut(context.spawn(worker(), "worker-" + i));
            }
        }

        @Override
        public Receive<Partial> createReceive() {
            return newReceiveBuilder().onMessage(Partial.class, this::onPartial).build();
        }

        private Behavior<Partial> onPartial(Partial partial) {
            checksum += partial.checksum();
            maxFlips = Math.max(maxFlips, partial.maxFlips());
            handOut(partial.worker());
            if (++answered < tasks) {
                return this;
            }
            outcome.complete("check=" + checksum + ":" + maxFlips);
            return Behaviors.stopped();
        }

        /** Gives {@code worker} the next range, if any is left. */
        private void handOut(ActorRef<Task> worker) {
            if (nextFirst < total) {
                worker.tell(new Task(n, nextFirst, Math.min(total, nextFirst + chunk), getContext().getSelf()));
                nextFirst += chunk;
            }
        }
    }

    /** A worker: checks the permutations of each task it is given and replies with the partial result. */
    static Behavior<Task> worker() {
        return Behaviors.receive((context, task) -> {
            task.replyTo().tell(check(task.n(), task.first(), task.end(), context.getSelf()));
            return Behaviors.same();
        });
    }

    /** Counts the flips of permutations {@code [first, end)} of the {@code n} elements. */
    private static Partial check(int n, long first, long end, ActorRef<Task> worker) {
        int[] perm = new int[n];
        int[] digits = new int[n];
        int[] scratch = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        long rest = first;
        for (int i = n - 1; i >= 1; i--) {
            long weight = factorial(i);
            digits[i] = (int) (rest / weight);
            rest %= weight;
            for (int r = 0; r < digits[i]; r++) {
                rotateLeft(perm, i);
            }
        }
        long checksum = 0;
        int maxFlips = 0;
        for (long index = first; index < end; index++) {
            int flips = flips(perm, scratch);
            checksum += (index & 1) == 0 ? flips : -flips;
            maxFlips = Math.max(maxFlips, flips);
            if (index + 1 < end) {
                advance(perm, digits);
            }
        }
        return new Partial(checksum, maxFlips, worker);
    }

    /** Steps {@code perm} to the next permutation by incrementing the factorial-base {@code digits}. */
    private static void advance(int[] perm, int[] digits) {
        for (int i = 1; i < perm.length; i++) {
            rotateLeft(perm, i);
            if (++digits[i] <= i) {
                return;
            }
            digits[i] = 0;
        }
    }

    /** Rotates the prefix {@code perm[0..last]} one place to the left. */
    private static void rotateLeft(int[] perm, int last) {
        int head = perm[0];
        System.arraycopy(perm, 1, perm, 0, last);
        perm[last] = head;
    }

    /** The number of prefix reversals until 0 comes first, working on a copy in {@code scratch}. */
    private static int flips(int[] perm, int[] scratch) {
        int head = perm[0];
        if (head == 0) {
            return 0;
        }
        System.arraycopy(perm, 0, scratch, 0, perm.length);
        int flips = 0;
        while (head != 0) {
            for (int lo = 0, hi = head; lo < hi; lo++, hi--) {
                int t = scratch[lo];
                scratch[lo] = scratch[hi];
                scratch[hi] = t;
            }
            flips++;
            head = scratch[0];
        }
        return flips;
    }

    private static long factorial(int k) {
        long f = 1;
        for (int i = 2; i <= k; i++) {
            f *= i;
        }
        return f;
    }
}
