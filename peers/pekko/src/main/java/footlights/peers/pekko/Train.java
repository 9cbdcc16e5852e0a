package footlights.peers.pekko;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The training run of the class-data archive: {@code java -XX:AOTCacheOutput=FILE -cp
 * pekko-suite.jar footlights.peers.pekko.Train} (or {@code -XX:ArchiveClassesAtExit=FILE}).
 *
 * <p>The JVM's ahead-of-time class cache (JDK 25, JEP 483/514/515) and its dynamic class-data
 * sharing archive (AppCDS) hold the classes that one run loaded and linked, so that a later run
 * maps them instead of finding, parsing and verifying them again. One benchmark loads only part of
 * what the suite uses, so this training run starts every benchmark once, in turn, each at small
 * parameters and in its own actor system, with the same code path as a measured run
 * ({@link Runner}), and then each benchmark that has a classic-actor program ({@link Classic}) once
 * more with that program, so that the {@code pekko-classic} variant maps its classes too. It prints
 * the result lines on stderr (stdout stays empty) and exits 0, or 1 if any run failed or printed a
 * wrong check, once all are done; the JVM writes the archive as it exits.
 */
public final class Train {

    /** One small run of a benchmark: its arguments and the check it must print. */
    record Run(String check, String... args) {
        /** Whether the benchmark has a classic-actor program, which training runs too. */
        boolean hasClassic() {
            return Classic.has(args[0]);
        }
    }

    /** One small run of every benchmark, in the contract's order. */
    static final List<Run> RUNS = List.of(
            new Run("1", "threadring", "actors=50", "hops=20000"),
            new Run("10000", "chameneos", "creatures=10", "meetings=5000"),
            new Run("10000", "big", "workers=50", "pings=200", "hood=10"),
            new Run("228:16", "fannkuch", "n=7"),
            new Run("144", "fibtree", "n=12"),
            new Run("49995000", "skynet", "size=10000", "div=10"),
            new Run("1024", "spreading", "depth=10"),
            new Run("2", "mixed", "rings=2", "ring_size=10", "token=100", "reps=1"),
            new Run("10000", "bang", "senders=10", "messages=1000"),
            new Run("5000", "serialmsg", "pairs=5", "messages=1000"),
            new Run("10000", "pingpong", "pings=10000"),
            new Run("20000", "counting", "count=20000"),
            new Run("15:9541978460438545511", "fjthrput", "actors=3", "messages=5"),
            new Run("10:7438657777315996608", "fjcreate", "actors=10"),
            new Run("1000:426:884524078801535:89697136445", "concdict", "workers=2", "messages=500", "write_pct=50"),
            new Run("600:305:63574575:15", "concsll", "workers=2", "messages=300", "write_pct=50", "size_pct=5"),
            new Run("30:14693027747183956667", "bndbuffer", "buffer=2", "producers=3", "consumers=2", "items=10",
                    "cost=3"),
            new Run("500", "philosopher", "philosophers=5", "rounds=100"),
            new Run("100:8950015174297331598", "barber", "haircuts=100", "room=5", "arrival=10", "cut=100"),
            new Run("20:7265486000446837202", "cigsmok", "rounds=10", "smokers=3"),
            new Run("556817300049", "logmap", "terms=100", "series=2", "rate=36000", "increment=40"),
            new Run("20:6004220", "banking", "accounts=3", "transactions=20"));

    private Train() {}

    public static void main(String[] argv) {
        System.exit(Main.exitStatus(() -> train(Runner.threads(), Runner.timeoutSecs(), System.err)));
    }

    /**
     * Runs every one of {@link #RUNS} in turn at {@code threads} dispatcher threads, each limited to
     * {@code timeoutSecs} seconds, printing each result line (or its failure) on {@code log}.
     * Returns 0 if every run printed its check, else 1.
     */
    static int train(int threads, long timeoutSecs, PrintStream log) throws Args.Invalid {
        int status = 0;
        for (Run run : RUNS) {
            status |= trainOne(run, false, threads, timeoutSecs, log);
        }
        for (Run run : RUNS) {
            if (run.hasClassic()) {
                status |= trainOne(run, true, threads, timeoutSecs, log);
            }
        }
        return status;
    }

    /** Runs {@code run} once (its classic program if {@code classic}); returns 0 if it printed its check, else 1. */
    private static int trainOne(Run run, boolean classic, int threads, long timeoutSecs, PrintStream log)
            throws Args.Invalid {
        Args.Parsed args = Args.parse(run.args());
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(line, true, StandardCharsets.UTF_8);
        int ran = Main.run(args, classic, threads, timeoutSecs, out, log);
        String result = line.toString(StandardCharsets.UTF_8).strip();
        log.println(result);
        if (ran != 0 || !result.startsWith("result bench=" + args.bench() + " check=" + run.check() + " ")) {
            log.println("error: training run " + (classic ? "(classic) " : "") + String.join(" ", run.args())
                    + " did not print check=" + run.check());
            return 1;
        }
        return 0;
    }
}
