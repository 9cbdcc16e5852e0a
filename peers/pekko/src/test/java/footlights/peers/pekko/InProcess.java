package footlights.peers.pekko;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs a benchmark inside the test's JVM, each run in its own actor system of the given number of
 * dispatcher threads ({@link Main#run}), and captures its exit status and output lines.
 */
final class InProcess {

    /** What one run produced. */
    record Outcome(int status, List<String> stdout, List<String> stderr) {
        String describe() {
            return "status " + status + ", stdout " + stdout + ", stderr " + stderr;
        }
    }

    private InProcess() {}

    /** Runs {@code args} (benchmark first) at {@code threads} threads, giving up after {@code timeoutSecs}. */
    static Outcome run(int threads, long timeoutSecs, String... args) throws Args.Invalid {
        return run(false, threads, timeoutSecs, args);
    }

    /** As {@link #run(int, long, String...)}, with the benchmark's classic program if {@code classic}. */
    static Outcome run(boolean classic, int threads, long timeoutSecs, String... args) throws Args.Invalid {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(Args.parse(args), classic, threads, timeoutSecs, stream(out), stream(err));
        return new Outcome(status, lines(out), lines(err));
    }

    static PrintStream stream(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    static List<String> lines(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
