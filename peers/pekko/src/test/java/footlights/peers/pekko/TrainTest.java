package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The class-data archive's training run ({@link Train#train}, in-process at 2 threads) runs every
 * benchmark once, correctly, in the contract's order, and then each benchmark that has a classic
 * program once more with it.
 */
class TrainTest {

    @Test
    void trainingRunsEveryBenchmarkAndSucceeds() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status = Train.train(2, 300, InProcess.stream(log));
        List<String> lines = InProcess.lines(log);
        assertEquals(0, status, String.join("\n", lines));
        List<String> results = lines.stream().filter(l -> l.startsWith("result ")).toList();
        List<Train.Run> runs = new ArrayList<>(Train.RUNS);
        Train.RUNS.stream().filter(Train.Run::hasClassic).forEach(runs::add);
        assertEquals(runs.size(), results.size(), String.join("\n", lines));
        assertTrue(runs.size() > Train.RUNS.size(), "the classic programs are trained too");
        for (int i = 0; i < runs.size(); i++) {
            Train.Run run = runs.get(i);
            String line = results.get(i);
            assertTrue(line.startsWith("result bench=" + run.args()[0] + " check=" + run.check() + " "), line);
            assertTrue(line.matches(".* seconds=[0-9.]+"), line);
        }
    }
}
