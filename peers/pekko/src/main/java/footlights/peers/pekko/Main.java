package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.Behavior;

/**
 * Entry point: {@code java -XX:ActiveProcessorCount=N -jar pekko-suite.jar BENCH [NAME=VALUE ...]}.
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
        try {
            args = Args.parse(argv);
        } catch (Args.Invalid e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        CompletableFuture<String> outcome = new CompletableFuture<>();
        Behavior<?> guardian = guardian(args, outcome);
        System.exit(Runner.run(args.bench(), guardian, outcome, System.out, System.err));
    }

    /** The root behaviour of benchmark {@code args.bench()}, which completes {@code outcome}. */
    static Behavior<?> guardian(Args.Parsed args, CompletableFuture<String> outcome) {
        return switch (args.bench()) {
            case "threadring" -> ThreadRing.create(args.getInt("actors"), args.getInt("hops"), outcome);
            case "chameneos" -> Chameneos.create(args.getInt("creatures"), args.get("meetings"), outcome);
            case "big" -> Big.create(args.getInt("workers"), args.get("pings"), args.getInt("hood"), outcome);
            case "fannkuch" -> Fannkuch.create(args.getInt("n"), Runner.threads(), outcome);
            case "fibtree" -> FibTree.create(args.getInt("n"), outcome);
            case "skynet" -> Skynet.create(args.get("size"), args.getInt("div"), outcome);
            case "spreading" -> Spreading.create(args.getInt("depth"), outcome);
            case "mixed" -> Mixed.create(args.getInt("rings"), args.getInt("ring_size"), args.getInt("token"),
                    args.getInt("reps"), outcome);
            case "bang" -> Bang.create(args.getInt("senders"), args.get("messages"), outcome);
            case "serialmsg" -> SerialMsg.create(args.getInt("pairs"), args.get("messages"), outcome);
            case "pingpong" -> PingPong.create(args.get("pings"), outcome);
            case "counting" -> Counting.create(args.get("count"), outcome);
            default -> throw new IllegalStateException("no implementation of " + args.bench());
        };
    }
}
