package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
 * Runs every line of the shared test vectors (bench, params, expected check) as a child process,
 * at 1 and at 2 dispatcher threads, and checks the single stdout line: the expected check (and for
 * chameneos one count per creature, adding up to it) and a positive {@code seconds=} work time. The file is taken from the system property {@code vectors}
 * (or {@code VECTORS}), else the environment variable {@code VECTORS}, else
 * {@code ../../../shared/spec/vectors.tsv} relative to peers/pekko.
 */
class VectorsTest {

    private static final long TIMEOUT_SECS = 300;

    /** {@code result bench=B check=C [counts=N,...] seconds=S}: groups bench, check, counts, seconds. */
    private static final Pattern RESULT = Pattern.compile(
            "result bench=(\\S+) check=(\\S+)(?: counts=([0-9]+(?:,[0-9]+)*))? seconds=([0-9]+(?:\\.[0-9]+)?)");

    static Path vectorsFile() {
        String given = System.getProperty("vectors", System.getProperty("VECTORS", System.getenv("VECTORS")));
        return Path.of(given != null && !given.isBlank() ? given : "../../../shared/spec/vectors.tsv");
    }

    @TestFactory
    Stream<DynamicTest> everyVectorPrintsItsCheck() throws IOException {
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
            vectors.add(fields);
        }
        assertTrue(vectors.size() > 0, "no vectors in " + file);
        return IntStream.of(1, 2).boxed().flatMap(threads -> vectors.stream().map(v -> DynamicTest.dynamicTest(
                "threads=" + threads + " " + v[0] + " " + v[1] + " -> " + v[2],
                () -> checkVector(threads, v[0], v[1], v[2]))));
    }

    private static void checkVector(int threads, String bench, String params, String check) throws Exception {
        List<String> args = new ArrayList<>();
        args.add(bench);
        args.addAll(Arrays.asList(params.trim().split("\\s+")));
        SuiteProcess.Outcome outcome = SuiteProcess.run(threads, args, TIMEOUT_SECS);
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
