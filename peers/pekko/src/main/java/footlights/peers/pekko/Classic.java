package footlights.peers.pekko;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * The classic-actor variant of the suite: the benchmarks that run faster on Pekko's classic API
 * ({@code AbstractActor}, {@code Props}, untyped {@code tell}) than on typed behaviours, chosen by
 * the environment variable {@value #VARIABLE}{@code =classic} (suite.toml's {@code pekko-classic}).
 *
 * <p>Typed behaviours are Pekko's recommended API and the suite's {@code pekko} implementation.
 * Each typed actor runs inside a classic actor (an adapter that hands every message to the current
 * {@code Behavior} and interprets the one returned), so where a benchmark's cost is mostly creating
 * and stopping actors (skynet, fibtree, spreading, fjcreate), or one actor's flood of messages to
 * many (fjthrput), the classic API does less per actor and per message. The variant runs the classic program
 * for each benchmark in {@link #BENCHMARKS} and the typed one for every other, so that it shows
 * Pekko at its best on every cell (peers/README.md, "Apache Pekko: classic actors").
 *
 * <p>A classic program runs in a classic {@link ActorSystem} under one top-level actor, which
 * completes the run's outcome and then terminates the system, as a typed guardian's stop does, so
 * that runs inside one JVM (the training run, the tests) leave no actor system behind.
 */
final class Classic {

    /** The environment variable that selects the API: {@code typed} (the default) or {@code classic}. */
    static final String VARIABLE = "PEKKO_SUITE_ACTORS";

    /** The benchmarks with a classic program. */
    static final Set<String> BENCHMARKS = Set.of("fibtree", "skynet", "spreading", "fjcreate", "fjthrput");

    private Classic() {}

    /**
     * Whether {@code value} (the variable's value, or null when unset) selects the classic
     * programs; throws {@link Args.Invalid} with the line to print for any other value.
     */
    static boolean selected(String value) throws Args.Invalid {
        if (value == null || value.isEmpty() || value.equals("typed")) {
            return false;
        }
        if (value.equals("classic")) {
            return true;
        }
        throw new Args.Invalid("error: " + VARIABLE + "=" + value + " is neither typed nor classic");
    }

    /** Whether benchmark {@code bench} has a classic program. */
    static boolean has(String bench) {
        return BENCHMARKS.contains(bench);
    }

    /** Starts the classic program of {@code args} (one of {@link #BENCHMARKS}) in {@code system}. */
    static void start(ActorSystem system, Args.Parsed args, CompletableFuture<String> outcome) {
        Props root = switch (args.bench()) {
            case "fibtree" -> ClassicFibTree.root(args.getInt("n"), outcome);
            case "skynet" -> ClassicSkynet.root(args.get("size"), args.getInt("div"), outcome);
            case "spreading" -> ClassicSpreading.root(args.getInt("depth"), outcome);
            case "fjcreate" -> ClassicFjCreate.root(args.getInt("actors"), outcome);
            case "fjthrput" -> ClassicFjThrput.root(args.getInt("actors"), args.get("messages"), outcome);
            default -> throw new IllegalStateException("no classic program of " + args.bench());
        };
        system.actorOf(root, args.bench());
    }
}
