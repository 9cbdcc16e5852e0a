package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The program as a process ({@link Main} in a child JVM): what only a whole process shows, once
 * each. Bad input exits 2 with one stderr line and an empty stdout; a good run exits 0 right after
 * its single stdout line, at the thread count {@code -XX:ActiveProcessorCount} gives the JVM.
 * {@code actorbench verify} runs the built jar on every vector and more bad inputs.
 */
class ProcessTest {

    @Test
    void badInputExitsTwoWithOneStderrLine() throws Exception {
        SuiteProcess.Outcome outcome = SuiteProcess.run(2, List.of("threadring", "hops=abc"), 60);
        assertEquals(2, outcome.status(), outcome.describe());
        assertEquals(List.of(), outcome.stdout(), outcome.describe());
        assertEquals(List.of("error: threadring: hops=abc is not a non-negative integer"), outcome.stderr());
    }

    @Test
    void goodRunPrintsOneResultLineAndExitsZero() throws Exception {
        SuiteProcess.Outcome outcome = SuiteProcess.run(1, List.of("fannkuch", "n=5"), 120);
        assertEquals(0, outcome.status(), outcome.describe());
        assertEquals(1, outcome.stdout().size(), outcome.describe());
        assertTrue(outcome.stdout().get(0).matches("result bench=fannkuch check=11:7 seconds=[0-9]+\\.[0-9]{9}"),
                outcome.describe());
        // The JVM's processor count is the dispatcher's thread count.
        assertTrue(outcome.stderr().stream().anyMatch(l -> l.startsWith("fannkuch: 1 threads, ")), outcome.describe());
    }

    @Test
    void classicVariantRunsItsClassicProgram() throws Exception {
        SuiteProcess.Outcome outcome = SuiteProcess.runClass("footlights.peers.pekko.Main",
                Map.of(Classic.VARIABLE, "classic"), 2, List.of("skynet", "size=1000", "div=10"), 120);
        assertEquals(0, outcome.status(), outcome.describe());
        assertEquals(1, outcome.stdout().size(), outcome.describe());
        assertTrue(outcome.stdout().get(0).matches("result bench=skynet check=499500 seconds=[0-9]+\\.[0-9]{9}"),
                outcome.describe());
    }

    @Test
    void unknownActorApiExitsTwoWithOneStderrLine() throws Exception {
        SuiteProcess.Outcome outcome = SuiteProcess.runClass("footlights.peers.pekko.Main",
                Map.of(Classic.VARIABLE, "untyped"), 1, List.of("skynet"), 60);
        assertEquals(2, outcome.status(), outcome.describe());
        assertEquals(List.of(), outcome.stdout(), outcome.describe());
        assertEquals(List.of("error: PEKKO_SUITE_ACTORS=untyped is neither typed nor classic"), outcome.stderr());
    }
}
