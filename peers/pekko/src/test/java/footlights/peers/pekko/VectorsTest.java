package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every line of the shared test vectors (bench, params, expected check) as a child process
 * and checks the single stdout line. The file is taken from the system property {@code vectors}
 * (or {@code VECTORS}), else the environment variable {@code VECTORS}, else
 * {@code ../../../shared/spec/vectors.tsv} relative to peers/pekko.
 */
class VectorsTest {

    private static final long TIMEOUT_SECS = 300;

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
        return vectors.stream().map(v -> DynamicTest.dynamicTest(v[0] + " " + v[1] + " -> " + v[2],
                () -> checkVector(v[0], v[1], v[2])));
    }

    private static void checkVector(String bench, String params, String check) throws Exception {
        List<String> args = new ArrayList<>();
        args.add(bench);
        args.addAll(Arrays.asList(params.trim().split("\\s+")));
        SuiteProcess.Outcome outcome = SuiteProcess.run(args, TIMEOUT_SECS);
        assertEquals(0, outcome.status(), outcome.describe());
        assertEquals(1, outcome.stdout().size(), "exactly one stdout line: " + outcome.describe());
        String line = outcome.stdout().get(0);
        String expected = "result bench=" + bench + " check=" + check;
        if (!bench.equals("chameneos")) {
            assertEquals(expected, line);
            return;
        }
        assertTrue(line.startsWith(expected + " counts="), line);
        String[] counts = line.substring((expected + " counts=").length()).split(",");
        int creatures = Integer.parseInt(params.replaceAll(".*creatures=(\\d+).*", "$1"));
        assertEquals(creatures, counts.length, "one count per creature: " + line);
        long sum = Arrays.stream(counts).mapToLong(Long::parseLong).sum();
        assertEquals(Long.parseLong(check), sum, "counts add up to the check: " + line);
    }
}
