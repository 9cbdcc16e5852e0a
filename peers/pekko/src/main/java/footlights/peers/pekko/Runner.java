package footlights.peers.pekko;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.slf4j.LoggerFactory;

/**
 * Runs one benchmark: starts an {@link ActorSystem} whose guardian is the benchmark's root
 * behaviour, waits for the outcome and prints the result line; the caller then exits the JVM.
 *
 * <p>Every benchmark's guardian completes a {@link CompletableFuture} with the result fields
 * (for example {@code check=37}) once its actors have produced them, or completes it
 * exceptionally when it detects a wrong answer. This class waits for that future with a generous
 * overall timeout, so a lost message or a failed actor ends the run with exit status 1 instead of a
 * hang. If the actor system terminates before the outcome (the guardian failed), that is a failure
 * too.
 *
 * <p>Work time: {@code seconds=} in the result line is {@link System#nanoTime()} from just before
 * {@code ActorSystem.create} (so it includes loading the configuration, Pekko's own start and the
 * JIT's cold start) until the outcome is known.
 *
 * <p>Exit: once the result line is printed and flushed, nothing of the run is left to do, so the
 * caller ends the process with {@code System.exit} instead of terminating the actor system and
 * waiting for its coordinated shutdown (as JMH-style and Savina-style harnesses end their forks).
 * No shutdown hook of Pekko's is registered (application.conf), so the exit is immediate.
 *
 * <p>Threads: the default dispatcher is a fork-join pool with exactly
 * {@code Runtime.availableProcessors()} threads (which {@code -XX:ActiveProcessorCount=N} sets),
 * and application.conf points Pekko's internal dispatcher at the same pool.
 */
final class Runner {

    /** Overall limit of one run, overridable with -Dfootlights.timeout.secs or FOOTLIGHTS_TIMEOUT_SECS. */
    private static final long DEFAULT_TIMEOUT_SECS = 1800;

    private Runner() {}

    /** The dispatcher thread count: the JVM's processor count, as -XX:ActiveProcessorCount sets it. */
    static int threads() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** Configuration: application.conf and Pekko's defaults, with the pool sized to {@link #threads()}. */
    static Config config() {
        int threads = threads();
        Config pool = ConfigFactory.parseString(String.format(
                "pekko.actor.default-dispatcher.fork-join-executor {%n"
                        + "  parallelism-min = %d%n  parallelism-max = %d%n  parallelism-factor = 1.0%n}%n",
                threads, threads));
        return pool.withFallback(ConfigFactory.load());
    }

    /**
     * Starts {@code guardian}, waits for {@code outcome} and prints
     * {@code result bench=BENCH FIELDS seconds=S} on {@code out}. Returns the exit status: 0 on
     * success, 1 on a failure (reported on {@code err}). The actor system is left running: the
     * caller exits the process.
     */
    static <T> int run(String bench, Behavior<T> guardian, CompletableFuture<String> outcome,
            PrintStream out, PrintStream err) {
        long timeout = timeoutSecs();
        // Initialise SLF4J before Pekko's threads log concurrently (avoids its replay warnings).
        LoggerFactory.getILoggerFactory();
        long start = System.nanoTime();
        ActorSystem<T> system = ActorSystem.create(guardian, "footlights", config());
        system.getWhenTerminated().thenRun(() -> outcome.completeExceptionally(
                new IllegalStateException("the actor system terminated before the benchmark finished")));
        try {
            String fields = outcome.get(timeout, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            out.println("result bench=" + bench + " " + fields + " seconds=" + formatSeconds(seconds));
            out.flush();
            err.printf(Locale.ROOT, "%s: %d threads, %.3f s from actor system start to result%n", bench,
                    threads(), seconds);
            return 0;
        } catch (TimeoutException e) {
            err.println("error: " + bench + ": no result after " + timeout + " s, giving up");
        } catch (ExecutionException e) {
            err.println("error: " + bench + ": " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("error: " + bench + ": interrupted while waiting for the result");
        }
        return 1;
    }

    /** {@code seconds} as the result line carries it: a plain decimal, nanosecond digits. */
    static String formatSeconds(double seconds) {
        return String.format(Locale.ROOT, "%.9f", seconds);
    }

    private static long timeoutSecs() {
        String text = System.getProperty("footlights.timeout.secs", System.getenv("FOOTLIGHTS_TIMEOUT_SECS"));
        if (text != null) {
            try {
                long secs = Long.parseLong(text.trim());
                if (secs > 0) {
                    return secs;
                }
            } catch (NumberFormatException ignored) {
                // fall through to the default
            }
        }
        return DEFAULT_TIMEOUT_SECS;
    }
}
