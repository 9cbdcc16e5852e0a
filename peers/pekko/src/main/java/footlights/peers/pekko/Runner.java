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
import org.apache.pekko.dispatch.Dispatcher;
import org.apache.pekko.dispatch.MessageDispatcher;
import org.slf4j.LoggerFactory;

/**
 * Runs one benchmark: starts an {@link ActorSystem} whose guardian is the benchmark's root
 * behaviour, waits for the outcome and prints the result line; the caller then exits the JVM.
 *
 * <p>Every benchmark's guardian completes a {@link CompletableFuture} with the result fields
 * (for example {@code check=37}) once its actors have produced them, or completes it
 * exceptionally when it detects a wrong answer. This class waits for that future with a generous
 * overall timeout, so a lost message or a failed actor ends the run with exit status 1 instead of a
 * hang, and then prints the dispatcher pool's state and the system's thread stacks after the error
 * line ({@link #describeStuck}). If the actor system terminates before the outcome (the guardian
 * failed), or cannot start at all, that is a failure too.
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

    /**
     * Configuration: application.conf and Pekko's defaults, with the pool sized to {@code threads}
     * and the logger start-up handshake given the run's own limit of {@code timeoutSecs} seconds.
     *
     * <p>{@code ActorSystem.create} waits for the SLF4J logger actor to answer its initialisation
     * message, by default for 5 s, and throws when it does not: on this machine under load (load
     * average 60, CPU shared with every other session) that handshake took longer, and a correct
     * run failed before its first message. One limit, the run's, decides whether a run is too slow.
     */
    static Config config(int threads, long timeoutSecs) {
        Config overrides = ConfigFactory.parseString(String.format(
                "pekko.actor.default-dispatcher.fork-join-executor {%n"
                        + "  parallelism-min = %d%n  parallelism-max = %d%n  parallelism-factor = 1.0%n}%n"
                        + "pekko.logger-startup-timeout = %ds%n",
                threads, threads, timeoutSecs));
        return overrides.withFallback(ConfigFactory.load());
    }

    /** Starts an actor system from a configuration (a typed guardian's, or a classic one). */
    interface Start {
        org.apache.pekko.actor.ActorSystem start(Config config);
    }

    /**
     * Starts {@code guardian} in an actor system of {@code threads} dispatcher threads, waits up to
     * {@code timeout} seconds for {@code outcome} and prints {@code result bench=BENCH FIELDS
     * seconds=S} on {@code out}. Returns the exit status: 0 on success, 1 on a failure (reported on
     * {@code err}). After a success the actor system is left to the caller, which exits the process
     * (every guardian stops itself once its outcome is known, which terminates its system); after a
     * failure it is told to terminate.
     */
    static <T> int run(String bench, Behavior<T> guardian, CompletableFuture<String> outcome, int threads,
            long timeout, PrintStream out, PrintStream err) {
        return run(bench, config -> ActorSystem.create(guardian, "footlights", config).classicSystem(), outcome,
                threads, timeout, out, err);
    }

    /**
     * As {@link #run(String, Behavior, CompletableFuture, int, long, PrintStream, PrintStream)}, for an
     * actor system that {@code start} creates from the run's configuration: a classic system whose
     * top-level actors complete {@code outcome} (the classic variant, {@link Classic}).
     */
    static int run(String bench, Start start, CompletableFuture<String> outcome, int threads, long timeout,
            PrintStream out, PrintStream err) {
        // Initialise SLF4J before Pekko's threads log concurrently (avoids its replay warnings).
        LoggerFactory.getILoggerFactory();
        long begin = System.nanoTime();
        org.apache.pekko.actor.ActorSystem system;
        try {
            system = start.start(config(threads, timeout));
        } catch (RuntimeException e) {
            // Pekko stops what it started; the run has failed before it began.
            err.println("error: " + bench + ": the actor system did not start: " + e.getMessage());
            return 1;
        }
        system.getWhenTerminated().thenRun(() -> outcome.completeExceptionally(
                new IllegalStateException("the actor system terminated before the benchmark finished")));
        try {
            String fields = outcome.get(timeout, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - begin) / 1e9;
            out.println("result bench=" + bench + " " + fields + " seconds=" + formatSeconds(seconds));
            out.flush();
            err.printf(Locale.ROOT, "%s: %d threads, %.3f s from actor system start to result%n", bench,
                    threads, seconds);
            return 0;
        } catch (TimeoutException e) {
            err.println("error: " + bench + ": no result after " + timeout + " s, giving up");
            describeStuck(system, err);
        } catch (ExecutionException e) {
            err.println("error: " + bench + ": " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("error: " + bench + ": interrupted while waiting for the result");
        }
        system.terminate();
        return 1;
    }

    /**
     * After a run gave no result in time, prints on {@code err} what a diagnosis needs and the
     * process would otherwise take with it: the default dispatcher's pool (its toString counts
     * queued tasks and active, running and parked threads, so a task that no thread was woken for
     * shows up as {@code tasks > 0} with nothing running) and the stack of each of the system's
     * threads.
     */
    static void describeStuck(org.apache.pekko.actor.ActorSystem system, PrintStream err) {
        try {
            MessageDispatcher dispatcher = system.dispatchers().defaultGlobalDispatcher();
            Object pool = dispatcher instanceof Dispatcher d ? d.executorService().executor() : dispatcher;
            err.println("  dispatcher pool: " + pool);
        } catch (RuntimeException e) {
            err.println("  dispatcher pool: unknown (" + e + ")");
        }
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (thread.getName().startsWith(system.name() + "-")) {
                err.println("  thread " + thread.getName() + " " + thread.getState());
                for (StackTraceElement frame : stack) {
                    err.println("    at " + frame);
                }
            }
        });
        err.flush();
    }

    /** {@code seconds} as the result line carries it: a plain decimal, nanosecond digits. */
    static String formatSeconds(double seconds) {
        return String.format(Locale.ROOT, "%.9f", seconds);
    }

    /** The overall limit of one run in seconds: -Dfootlights.timeout.secs, else FOOTLIGHTS_TIMEOUT_SECS, else 1800. */
    static long timeoutSecs() {
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
