package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the small lines of the shared test vectors (bench, params, expected check) in-process, each
 * in its own actor system of 1 and of 2 dispatcher threads ({@link InProcess}), and checks the
 * single result line: the expected check (and for chameneos one count per creature, adding up to
 * it) and a positive {@code seconds=} work time. A benchmark with a classic-actor program
 * ({@link Classic}) runs each of its vectors with that program too.
 *
 * <p>What is left to {@code actorbench verify}, which runs every vector as its own process of the
 * built jar at 1 and 2 threads (scripts/test runs it right after these tests): the vectors at a
 * benchmark's quick size (every parameter at its default, the heaviest line of each benchmark),
 * and the process-level contract, of which {@link ProcessTest} checks one case each. Here, one JVM
 * runs the edge cases (zero hops, one ping, a last neighbourhood smaller than the rest, ...) at
 * both thread counts in seconds, where a JVM per vector took minutes.
 *
 * <p>The file is taken from the system property {@code vectors} (or {@code VECTORS}), else the
 * environment variable {@code VECTORS}, else the repository's {@code docs/vectors.tsv}
 * ({@code ../../docs/vectors.tsv} relative to peers/pekko).
 */
class VectorsTest {

    private static final long TIMEOUT_SECS = 300;

    /** {@code result bench=B check=C [counts=N,...] seconds=S}: groups bench, check, counts, seconds. */
    private static final Pattern RESULT = Pattern.compile(
            "result bench=(\\S+) check=(\\S+)(?: counts=([0-9]+(?:,[0-9]+)*))? seconds=([0-9]+(?:\\.[0-9]+)?)");

    static Path vectorsFile() {
        String given = System.getProperty("vectors", System.getProperty("VECTORS", System.getenv("VECTORS")));
        return Path.of(given != null && !given.isBlank() ? given : "../../docs/vectors.tsv");
    }

    /** Whether {@code bench params} sets every parameter to its quick (default) value. */
    static boolean atQuickSize(String bench, String params) throws Args.Invalid {
        List<String> args = new ArrayList<>(List.of(bench));
        args.addAll(Arrays.asList(params.trim().split("\\s+")));
        return Args.parse(args.toArray(String[]::new)).equals(Args.parse(new String[] {bench}));
    }

    @TestFactory
    Stream<DynamicTest> everySmallVectorPrintsItsCheck() throws Exception {
        Path file = vectorsFile();
        assertTrue(Files.isRegularFile(file), "test vectors not found at " + file.toAbsolutePath()
                + " (set -Dvectors=PATH or VECTORS=PATH)");
        List<String[]> vectors = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t");
            assertEquals(3, fields.length, "malformed vector line: " + line);
            if (!atQuickSize(fields[0], fields[1])) {
                vectors.add(fields);
            }
        }
        for (String bench : Args.knownBenchmarks().split(", ")) {
            assertTrue(vectors.stream().anyMatch(v -> v[0].equals(bench)), "no small vector of " + bench + " in " + file);
        }
        return Stream.of(false, true).flatMap(classic -> IntStream.of(1, 2).boxed().flatMap(threads -> vectors.stream()
                .filter(v -> !classic || Classic.has(v[0]))
                .map(v -> DynamicTest.dynamicTest(
                        (classic ? "classic " : "") + "threads=" + threads + " " + v[0] + " " + v[1] + " -> " + v[2],
                        () -> checkVector(classic, threads, v[0], v[1], v[2])))));
    }

    private static void checkVector(boolean classic, int threads, String bench, String params, String check)
            throws Exception {
        List<String> args = new ArrayList<>();
        args.add(bench);
        args.addAll(Arrays.asList(params.trim().split("\\s+")));
        InProcess.Outcome outcome = InProcess.run(classic, threads, TIMEOUT_SECS, args.toArray(String[]::new));
        assertEquals(0, outcome.status(), outcome.describe());
        assertEquals(1, outcome.stdout().size(), "exactly one stdout line: " + outcome.describe());
        String line = outcome.stdout().get(0);
        Matcher fields = RESULT.matcher(line);
        assertTrue(fields.matches(), "result line with check and seconds: " + line);
        assertEquals(bench, fields.group(1), line);
        assertEquals(check, fields.group(2), line);
        double seconds = Double.parseDouble(fields.group(4));
        assertTrue(seconds > 0, "seconds must be positive: " + line);
        if (!bench.equals("chameneos")) {
            assertEquals(null, fields.group(3), "only chameneos prints counts: " + line);
            return;
        }
        assertTrue(fields.group(3) != null, "chameneos prints counts: " + line);
        String[] counts = fields.group(3).split(",");
        int creatures = Integer.parseInt(params.replaceAll(".*creatures=(\\d+).*", "$1"));
        assertEquals(creatures, counts.length, "one count per creature: " + line);
        long sum = Arrays.stream(counts).mapToLong(Long::parseLong).sum();
        assertEquals(Long.parseLong(check), sum, "counts add up to the check: " + line);
    }
}
