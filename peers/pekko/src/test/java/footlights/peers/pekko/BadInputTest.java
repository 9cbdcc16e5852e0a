package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bad command lines: exit status 2, nothing on stdout, exactly one stderr line naming the
 * benchmark, the parameter and the bad value (checked on real child processes), plus the
 * defaults and range edges of the parser itself.
 */
class BadInputTest {

    private static void rejected(List<String> args, String expectedLine, String... mustName) throws Exception {
        SuiteProcess.Outcome outcome = SuiteProcess.run(args, 60);
        assertEquals(2, outcome.status(), outcome.describe());
        assertEquals(List.of(), outcome.stdout(), outcome.describe());
        assertEquals(1, outcome.stderr().size(), "one stderr line: " + outcome.describe());
        String line = outcome.stderr().get(0);
        if (expectedLine != null) {
            assertEquals(expectedLine, line);
        }
        for (String word : mustName) {
            assertTrue(line.contains(word), "'" + line + "' names " + word);
        }
    }

    @Test
    void unknownBenchmark() throws Exception {
        rejected(List.of("foo"), "error: unknown benchmark 'foo' (known: threadring, chameneos, big, fannkuch, "
                + "fibtree, skynet, spreading, mixed, bang, serialmsg, pingpong, counting)", "foo");
    }

    @Test
    void noBenchmark() throws Exception {
        rejected(List.of(), null, "no benchmark given");
    }

    @Test
    void unknownParameter() throws Exception {
        rejected(List.of("threadring", "foo=1"),
                "error: threadring: unknown parameter foo=1 (known: actors, hops)", "threadring", "foo=1");
    }

    @Test
    void nonNumericValue() throws Exception {
        rejected(List.of("threadring", "hops=abc"),
                "error: threadring: hops=abc is not a non-negative integer", "threadring", "hops=abc");
    }

    @Test
    void negativeValue() throws Exception {
        rejected(List.of("pingpong", "pings=-1"), null, "pingpong", "pings=-1");
    }

    @Test
    void fannkuchOutOfRange() throws Exception {
        rejected(List.of("fannkuch", "n=13"), "error: fannkuch: n=13 is out of range (3..=12)", "fannkuch", "n=13");
    }

    @Test
    void skynetSizeNotAPowerOfDiv() throws Exception {
        rejected(List.of("skynet", "size=1000", "div=7"),
                "error: skynet: size=1000 is not a power of div=7", "skynet", "size=1000", "div=7");
    }

    @Test
    void argumentWithoutEquals() throws Exception {
        rejected(List.of("threadring", "hops"), "error: threadring: argument 'hops' is not NAME=VALUE", "hops");
    }

    @Test
    void repeatedParameter() throws Exception {
        rejected(List.of("threadring", "hops=4", "hops=5"), "error: threadring: parameter hops=5 given twice",
                "hops=5");
    }

    @Test
    void hugeNumberIsOutOfRange() throws Exception {
        rejected(List.of("counting", "count=99999999999999999999999"), null, "counting", "out of range");
    }

    @Test
    void parserDefaultsAndEdges() throws Exception {
        Args.Parsed mixed = Args.parse(new String[] {"mixed", "reps=1"});
        assertEquals(4, mixed.get("rings"));
        assertEquals(50, mixed.get("ring_size"));
        assertEquals(100, mixed.get("token"));
        assertEquals(1, mixed.get("reps"));
        assertEquals(1, Args.parse(new String[] {"skynet", "size=1", "div=7"}).get("size"));
        assertEquals(12, Args.parse(new String[] {"fannkuch", "n=12"}).get("n"));
    }
}
