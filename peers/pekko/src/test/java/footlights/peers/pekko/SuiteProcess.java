package footlights.peers.pekko;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the suite as a child JVM, the way the harness does
 * ({@code java -XX:ActiveProcessorCount=N ... footlights.peers.pekko.Main BENCH PARAMS}), with the
 * test's own classpath, and captures its exit status, stdout and stderr.
 */
final class SuiteProcess {

    /** What one run produced. */
    record Outcome(int status, List<String> stdout, List<String> stderr) {
        String describe() {
            return "exit " + status + ", stdout " + stdout + ", stderr " + stderr;
        }
    }

    /** Dispatcher threads of the child runs that name none: -Dfootlights.test.threads, default 2. */
    static int threads() {
        return Integer.getInteger("footlights.test.threads", 2);
    }

    private SuiteProcess() {}

    /** Runs the suite with {@code args} at {@link #threads()}, killing it after {@code timeoutSecs} seconds. */
    static Outcome run(List<String> args, long timeoutSecs) throws IOException, InterruptedException {
        return run(threads(), args, timeoutSecs);
    }

    /** Runs the suite with {@code args} at {@code threads} dispatcher threads, killed after {@code timeoutSecs} s. */
    static Outcome run(int threads, List<String> args, long timeoutSecs) throws IOException, InterruptedException {
        return runClass("footlights.peers.pekko.Main", threads, args, timeoutSecs);
    }

    /** Runs {@code mainClass} of the suite with {@code args}, as {@link #run(int, List, long)} does. */
    static Outcome runClass(String mainClass, int threads, List<String> args, long timeoutSecs)
            throws IOException, InterruptedException {
        return runClass(mainClass, Map.of(), threads, args, timeoutSecs);
    }

    /** As {@link #runClass(String, int, List, long)}, with {@code env} added to the child's environment. */
    static Outcome runClass(String mainClass, Map<String, String> env, int threads, List<String> args,
            long timeoutSecs) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-XX:ActiveProcessorCount=" + threads,
                "-Dfootlights.timeout.secs=" + timeoutSecs, "-cp", System.getProperty("java.class.path"),
                mainClass));
        command.addAll(args);
        Path out = Files.createTempFile("pekko-suite", ".out");
        Path err = Files.createTempFile("pekko-suite", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            if (!process.waitFor(timeoutSecs + 30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("suite " + args + " still running after " + (timeoutSecs + 30) + " s");
            }
            return new Outcome(process.exitValue(), lines(out), lines(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8).lines().toList();
    }
}
