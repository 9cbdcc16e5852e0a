package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The class-data archive's training run ({@link Train}) runs every benchmark once, correctly, and
 * keeps stdout empty.
 */
class TrainTest {

    @Test
    void trainingRunsEveryBenchmarkAndExitsZero() throws Exception {
        SuiteProcess.Outcome outcome = SuiteProcess.runClass("footlights.peers.pekko.Train", 2, List.of(), 300);
        assertEquals(0, outcome.status(), outcome.describe());
        assertEquals(List.of(), outcome.stdout(), outcome.describe());
        List<String> results = outcome.stderr().stream().filter(l -> l.startsWith("result ")).toList();
        assertEquals(Train.RUNS.size(), results.size(), outcome.describe());
        for (int i = 0; i < Train.RUNS.size(); i++) {
            Train.Run run = Train.RUNS.get(i);
            String line = results.get(i);
            assertTrue(line.startsWith("result bench=" + run.args()[0] + " check=" + run.check() + " "), line);
            assertTrue(line.matches(".* seconds=[0-9.]+"), line);
        }
    }
}
