package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The class-data archive's training run ({@link Train#train}, in-process at 2 threads) runs every
 * benchmark once, correctly, in the contract's order.
 */
class TrainTest {

    @Test
    void trainingRunsEveryBenchmarkAndSucceeds() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status = Train.train(2, 300, InProcess.stream(log));
        List<String> lines = InProcess.lines(log);
        assertEquals(0, status, String.join("\n", lines));
        List<String> results = lines.stream().filter(l -> l.startsWith("result ")).toList();
        assertEquals(Train.RUNS.size(), results.size(), String.join("\n", lines));
        for (int i = 0; i < Train.RUNS.size(); i++) {
            Train.Run run = Train.RUNS.get(i);
            String line = results.get(i);
            assertTrue(line.startsWith("result bench=" + run.args()[0] + " check=" + run.check() + " "), line);
            assertTrue(line.matches(".* seconds=[0-9.]+"), line);
        }
    }
}
