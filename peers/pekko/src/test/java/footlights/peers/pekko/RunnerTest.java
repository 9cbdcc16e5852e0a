package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * {@link Runner}'s outcomes, in-process: the result line's form, and the four ways a run fails
 * (an actor system that cannot start, a wrong answer the guardian detects, a guardian that stops
 * without an answer, no answer in time), each with exit status 1, its reason on stderr and nothing
 * on stdout. No vector of the contract can make a correct peer fail, so only here are these paths
 * run.
 */
class RunnerTest {

    private record Ran(int status, List<String> stdout, List<String> stderr) {}

    private static Ran run(Behavior<String> guardian, CompletableFuture<String> outcome, long timeoutSecs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Runner.run("test", guardian, outcome, 1, timeoutSecs, InProcess.stream(out),
                InProcess.stream(err));
        return new Ran(status, InProcess.lines(out), InProcess.lines(err));
    }

    @Test
    void successPrintsTheFieldsAndAPositiveWorkTime() {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        Ran ran = run(Behaviors.setup(context -> {
            outcome.complete("check=42");
            return Behaviors.stopped();
        }), outcome, 60);
        assertEquals(0, ran.status(), ran.toString());
        assertEquals(1, ran.stdout().size(), ran.toString());
        String line = ran.stdout().get(0);
        assertTrue(line.matches("result bench=test check=42 seconds=[0-9]+\\.[0-9]{9}"), line);
        assertTrue(Double.parseDouble(line.substring(line.indexOf("seconds=") + 8)) > 0, line);
        assertEquals(1, ran.stderr().size(), ran.toString());
        assertTrue(ran.stderr().get(0).startsWith("test: 1 threads, "), ran.toString());
    }

    @Test
    void wrongAnswerDetectedByTheGuardianFails() {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        Ran ran = run(Behaviors.setup(context -> {
            outcome.completeExceptionally(new IllegalStateException("wrong factorisation 3 * 5 of 16"));
            return Behaviors.stopped();
        }), outcome, 60);
        assertEquals(new Ran(1, List.of(), List.of("error: test: wrong factorisation 3 * 5 of 16")), ran);
    }

    @Test
    void guardianStoppingWithoutAnAnswerFails() {
        Ran ran = run(Behaviors.setup(context -> Behaviors.stopped()), new CompletableFuture<>(), 60);
        assertEquals(new Ran(1, List.of(),
                List.of("error: test: the actor system terminated before the benchmark finished")), ran);
    }

    @Test
    void noAnswerInTimeFailsAndShowsThePoolAndThreads() {
        Ran ran = run(Behaviors.receiveMessage(message -> Behaviors.same()), new CompletableFuture<>(), 1);
        assertEquals(1, ran.status(), ran.toString());
        assertEquals(List.of(), ran.stdout(), ran.toString());
        assertEquals("error: test: no result after 1 s, giving up", ran.stderr().get(0), ran.toString());
        assertTrue(ran.stderr().get(1).startsWith("  dispatcher pool: ") && ran.stderr().get(1).contains("parallelism = 1"),
                ran.toString());
        assertTrue(ran.stderr().stream().anyMatch(l -> l.startsWith("  thread footlights-pekko.actor.default-dispatcher-")),
                ran.toString());
    }

    @Test
    void actorSystemThatCannotStartFails() {
        // pekko.loggers as an object where Pekko reads a list: ActorSystem.create throws.
        String key = "pekko.loggers.0";
        System.setProperty(key, "footlights.peers.pekko.NoSuchLogger");
        ConfigFactory.invalidateCaches();
        try {
            CompletableFuture<String> outcome = new CompletableFuture<>();
            Ran ran = run(Behaviors.setup(context -> {
                outcome.complete("check=1");
                return Behaviors.stopped();
            }), outcome, 60);
            assertEquals(1, ran.status(), ran.toString());
            assertEquals(List.of(), ran.stdout(), ran.toString());
            assertEquals(1, ran.stderr().size(), ran.toString());
            assertTrue(ran.stderr().get(0).startsWith("error: test: the actor system did not start: "), ran.toString());
            assertTrue(ran.stderr().get(0).contains("pekko.loggers"), ran.toString());
        } finally {
            System.clearProperty(key);
            ConfigFactory.invalidateCaches();
        }
    }

    @Test
    void configurationSizesThePoolAndGivesTheLoggerTheRunsLimit() {
        Config config = Runner.config(3, 77);
        assertEquals(3, config.getInt("pekko.actor.default-dispatcher.fork-join-executor.parallelism-min"));
        assertEquals(3, config.getInt("pekko.actor.default-dispatcher.fork-join-executor.parallelism-max"));
        assertEquals(Duration.ofSeconds(77), config.getDuration("pekko.logger-startup-timeout"));
        // application.conf is underneath.
        assertEquals(20, config.getInt("pekko.actor.default-dispatcher.throughput"));
    }

    @Test
    void anExceptionOutOfARunIsExitStatusOne() {
        // Main and Train exit the JVM with this status, so a throw cannot leave the JVM running
        // behind an actor system's non-daemon threads.
        assertEquals(7, Main.exitStatus(() -> 7));
        assertEquals(1, Main.exitStatus(() -> {
            throw new IllegalStateException("thrown on purpose by RunnerTest");
        }));
    }

    @Test
    void secondsAreAPlainDecimalWithNanosecondDigits() {
        assertEquals("0.000000001", Runner.formatSeconds(1e-9));
        assertEquals("12.500000000", Runner.formatSeconds(12.5));
    }
}
