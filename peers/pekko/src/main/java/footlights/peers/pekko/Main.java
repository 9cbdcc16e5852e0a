package footlights.peers.pekko;

import java.io.PrintStream;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;

/**
 * Entry point: {@code java -XX:ActiveProcessorCount=N -jar pekko-suite.jar BENCH [NAME=VALUE ...]}.
 *
 * <p>With {@code PEKKO_SUITE_ACTORS=classic} in the environment, a benchmark that has a classic-actor
 * program ({@link Classic}) runs that one instead of its typed behaviours.
 *
 * <p>Parses the arguments ({@link Args}; bad input prints one line on stderr and exits 2), builds
 * the chosen benchmark's guardian behaviour, and hands it to {@link Runner}, which runs it in an
 * actor system and prints the single {@code result} line. The JVM then exits at once (0, or 1 on
 * a failed run) without shutting the actor system down: see {@link Runner}.
 */
public final class Main {

    private Main() {}

    public static void main(String[] argv) {
        Args.Parsed args;
        boolean classic;
        try {
            args = Args.parse(argv);
            classic = Classic.selected(System.getenv(Classic.VARIABLE));
        } catch (Args.Invalid e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(exitStatus(() -> run(args, classic, Runner.threads(), Runner.timeoutSecs(), System.out,
                System.err)));
    }

    /** A run's body, which returns the process's exit status. */
    interface Body {
        int run() throws Exception;
    }

    /**
     * The exit status of {@code body}, or 1 (with its stack trace on stderr) if it throws. The
     * caller exits the JVM with it whatever happened: an exception thrown out of {@code main}
     * would leave the JVM running as long as any actor system's non-daemon threads do.
     */
    static int exitStatus(Body body) {
        try {
            return body.run();
        } catch (Exception | Error e) {
            e.printStackTrace();
            return 1;
        }
    }

    /**
     * Runs benchmark {@code args} once in its own actor system of {@code threads} dispatcher threads
     * ({@link Runner#run}): the result line on {@code out}, a failure's reason on {@code err}.
     * Returns the exit status, 0 or 1.
     */
    static int run(Args.Parsed args, int threads, long timeoutSecs, PrintStream out, PrintStream err) {
        return run(args, false, threads, timeoutSecs, out, err);
    }

    /**
     * As {@link #run(Args.Parsed, int, long, PrintStream, PrintStream)}, with the benchmark's classic
     * program ({@link Classic}) when {@code classic} is set and it has one, else its typed one.
     */
    static int run(Args.Parsed args, boolean classic, int threads, long timeoutSecs, PrintStream out,
            PrintStream err) {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        if (classic && Classic.has(args.bench())) {
            return Runner.run(args.bench(), config -> {
                ActorSystem system = ActorSystem.create("footlights", config);
                Classic.start(system, args, outcome);
                return system;
            }, outcome, threads, timeoutSecs, out, err);
        }
        return Runner.run(args.bench(), guardian(args, threads, outcome), outcome, threads, timeoutSecs, out, err);
    }

    /**
     * The root behaviour of benchmark {@code args.bench()} for a dispatcher of {@code threads}
     * threads, which completes {@code outcome}.
     */
    static Behavior<?> guardian(Args.Parsed args, int threads, CompletableFuture<String> outcome) {
        return switch (args.bench()) {
            case "threadring" -> ThreadRing.create(args.getInt("actors"), args.getInt("hops"), outcome);
            case "chameneos" -> Chameneos.create(args.getInt("creatures"), args.get("meetings"), outcome);
            case "big" -> Big.create(args.getInt("workers"), args.get("pings"), args.getInt("hood"), outcome);
            case "fannkuch" -> Fannkuch.create(args.getInt("n"), threads, outcome);
            case "fibtree" -> FibTree.create(args.getInt("n"), outcome);
            case "skynet" -> Skynet.create(args.get("size"), args.getInt("div"), outcome);
            case "spreading" -> Spreading.create(args.getInt("depth"), outcome);
            case "mixed" -> Mixed.create(args.getInt("rings"), args.getInt("ring_size"), args.getInt("token"),
                    args.getInt("reps"), outcome);
            case "bang" -> Bang.create(args.getInt("senders"), args.get("messages"), outcome);
            case "serialmsg" -> SerialMsg.create(args.getInt("pairs"), args.get("messages"), outcome);
            case "pingpong" -> PingPong.create(args.get("pings"), outcome);
            case "counting" -> Counting.create(args.get("count"), outcome);
            case "fjthrput" -> FjThrput.create(args.getInt("actors"), args.get("messages"), outcome);
            case "fjcreate" -> FjCreate.create(args.getInt("actors"), outcome);
            case "concdict" -> ConcDict.create(args.getInt("workers"), args.get("messages"), args.getInt("write_pct"),
                    outcome);
            case "concsll" -> ConcSll.create(args.getInt("workers"), args.get("messages"), args.getInt("write_pct"),
                    args.getInt("size_pct"), outcome);
            case "bndbuffer" -> BndBuffer.create(args.getInt("buffer"), args.getInt("producers"),
                    args.getInt("consumers"), args.get("items"), args.get("cost"), outcome);
            case "philosopher" -> Philosopher.create(args.getInt("philosophers"), args.get("rounds"), outcome);
            case "barber" -> Barber.create(args.get("haircuts"), args.getInt("room"), args.get("arrival"),
                    args.get("cut"), outcome);
            case "cigsmok" -> CigSmok.create(args.get("rounds"), args.getInt("smokers"), outcome);
            case "logmap" -> LogMap.create(args.get("terms"), args.getInt("series"), args.get("rate"),
                    args.get("increment"), outcome);
            case "banking" -> Banking.create(args.getInt("accounts"), args.get("transactions"), outcome);
            default -> throw new IllegalStateException("no implementation of " + args.bench());
        };
    }
}
