package footlights.peers.pekko;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Command-line parsing for {@code pekko-suite BENCH [NAME=VALUE ...]}, exactly as the suite's peer
 * contract fixes it.
 *
 * <p>Every benchmark has a fixed list of parameters, each with its quick value (the default) and
 * an inclusive range. Arguments are read left to right; the first bad one stops the parse with an
 * {@link Invalid} whose message is the single stderr line the contract prescribes (the caller
 * prints it and exits with status 2). Values are plain decimal digits; a number too large for any
 * range is reported as out of range, not as malformed. After all arguments are read, skynet's
 * extra rule (size must be a power of div) is checked.
 */
public final class Args {

    /** One parameter of a benchmark: its name, quick (default) value and inclusive range. */
    private record Param(String name, long quick, long min, long max) {}

    /** The benchmarks in contract order, each with its parameters in contract order. */
    private static final Map<String, List<Param>> BENCHMARKS = new LinkedHashMap<>();

    static {
        BENCHMARKS.put("threadring", List.of(
                new Param("actors", 503, 1, 1_000_000),
                new Param("hops", 1_000_000, 0, 1_000_000_000)));
        BENCHMARKS.put("chameneos", List.of(
                new Param("creatures", 70, 2, 1_000_000),
                new Param("meetings", 200_000, 0, 100_000_000)));
        BENCHMARKS.put("big", List.of(
                new Param("workers", 500, 1, 1_000_000),
                new Param("pings", 2_000, 0, 100_000_000),
                new Param("hood", 1_000, 1, 1_000_000)));
        BENCHMARKS.put("fannkuch", List.of(new Param("n", 10, 3, 12)));
        BENCHMARKS.put("fibtree", List.of(new Param("n", 20, 0, 40)));
        BENCHMARKS.put("skynet", List.of(
                new Param("size", 100_000, 1, 100_000_000),
                new Param("div", 10, 2, 1_000)));
        BENCHMARKS.put("spreading", List.of(new Param("depth", 16, 0, 24)));
        BENCHMARKS.put("mixed", List.of(
                new Param("rings", 4, 1, 10_000),
                new Param("ring_size", 50, 2, 100_000),
                new Param("token", 100, 0, 100_000_000),
                new Param("reps", 2, 1, 1_000)));
        BENCHMARKS.put("bang", List.of(
                new Param("senders", 100, 1, 1_000_000),
                new Param("messages", 1_000, 0, 100_000_000)));
        BENCHMARKS.put("serialmsg", List.of(
                new Param("pairs", 40, 1, 100_000),
                new Param("messages", 1_000, 0, 100_000_000)));
        BENCHMARKS.put("pingpong", List.of(new Param("pings", 100_000, 0, 1_000_000_000)));
        BENCHMARKS.put("counting", List.of(new Param("count", 1_000_000, 0, 1_000_000_000)));
        BENCHMARKS.put("fjthrput", List.of(
                new Param("actors", 60, 1, 100_000),
                new Param("messages", 2_000, 0, 100_000_000)));
        BENCHMARKS.put("fjcreate", List.of(new Param("actors", 20_000, 1, 10_000_000)));
        BENCHMARKS.put("concdict", List.of(
                new Param("workers", 20, 1, 10_000),
                new Param("messages", 5_000, 0, 100_000_000),
                new Param("write_pct", 10, 0, 100)));
        BENCHMARKS.put("concsll", List.of(
                new Param("workers", 20, 1, 10_000),
                new Param("messages", 1_000, 0, 100_000_000),
                new Param("write_pct", 10, 0, 100),
                new Param("size_pct", 1, 0, 100)));
        BENCHMARKS.put("bndbuffer", List.of(
                new Param("buffer", 50, 1, 1_000_000),
                new Param("producers", 40, 1, 10_000),
                new Param("consumers", 40, 1, 10_000),
                new Param("items", 500, 0, 100_000_000),
                new Param("cost", 25, 0, 1_000_000)));
        BENCHMARKS.put("philosopher", List.of(
                new Param("philosophers", 20, 1, 10_000),
                new Param("rounds", 5_000, 0, 100_000_000)));
        BENCHMARKS.put("barber", List.of(
                new Param("haircuts", 1_000, 0, 10_000_000),
                new Param("room", 1_000, 1, 1_000_000),
                new Param("arrival", 1_000, 0, 1_000_000),
                new Param("cut", 1_000, 0, 1_000_000)));
        BENCHMARKS.put("cigsmok", List.of(
                new Param("rounds", 1_000, 0, 100_000_000),
                new Param("smokers", 200, 1, 100_000)));
        BENCHMARKS.put("logmap", List.of(
                new Param("terms", 10_000, 0, 100_000_000),
                new Param("series", 10, 1, 100),
                new Param("rate", 34_600, 0, 36_000),
                new Param("increment", 25, 0, 40)));
        BENCHMARKS.put("banking", List.of(
                new Param("accounts", 1_000, 2, 1_000_000),
                new Param("transactions", 30_000, 0, 100_000_000)));
    }

    /** Bad command-line input; the message is the complete line to print on stderr. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String line) {
            super(line);
        }
    }

    /** A valid invocation: the benchmark and the value of each of its parameters. */
    public record Parsed(String bench, Map<String, Long> values) {
        /** The value of parameter {@code name}, which the benchmark must have. */
        public long get(String name) {
            Long value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException(bench + " has no parameter " + name);
            }
            return value;
        }

        /** The value of parameter {@code name} as an int (every range fits one). */
        public int getInt(String name) {
            return Math.toIntExact(get(name));
        }
    }

    private Args() {}

    /** The benchmark names in contract order, comma-separated, for messages. */
    public static String knownBenchmarks() {
        return String.join(", ", BENCHMARKS.keySet());
    }

    /** Parses {@code args} (benchmark name first), or throws {@link Invalid} for bad input. */
    public static Parsed parse(String[] args) throws Invalid {
        if (args.length == 0) {
            throw new Invalid("error: no benchmark given (known: " + knownBenchmarks() + ")");
        }
        String bench = args[0];
        List<Param> params = BENCHMARKS.get(bench);
        if (params == null) {
            throw new Invalid("error: unknown benchmark '" + bench + "' (known: " + knownBenchmarks() + ")");
        }
        Map<String, Long> given = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            if (eq < 0) {
                throw new Invalid("error: " + bench + ": argument '" + arg + "' is not NAME=VALUE");
            }
            String name = arg.substring(0, eq);
            String text = arg.substring(eq + 1);
            Param param = params.stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
            if (param == null) {
                String known = params.stream().map(Param::name).collect(Collectors.joining(", "));
                throw new Invalid("error: " + bench + ": unknown parameter " + arg + " (known: " + known + ")");
            }
            if (given.containsKey(name)) {
                throw new Invalid("error: " + bench + ": parameter " + arg + " given twice");
            }
            if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new Invalid("error: " + bench + ": " + arg + " is not a non-negative integer");
            }
            BigInteger value = new BigInteger(text);
            if (value.compareTo(BigInteger.valueOf(param.min())) < 0
                    || value.compareTo(BigInteger.valueOf(param.max())) > 0) {
                throw new Invalid("error: " + bench + ": " + arg + " is out of range ("
                        + param.min() + "..=" + param.max() + ")");
            }
            given.put(name, value.longValueExact());
        }
        Map<String, Long> values = new LinkedHashMap<>();
        for (Param param : params) {
            values.put(param.name(), given.getOrDefault(param.name(), param.quick()));
        }
        if (bench.equals("skynet") && !isPowerOf(values.get("size"), values.get("div"))) {
            throw new Invalid("error: skynet: size=" + values.get("size") + " is not a power of div="
                    + values.get("div"));
        }
        return new Parsed(bench, Map.copyOf(values));
    }

    /** Whether {@code size} is {@code base^k} for some {@code k >= 0} ({@code base >= 2}). */
    private static boolean isPowerOf(long size, long base) {
        long power = 1;
        while (power < size) {
            power *= base;
        }
        return power == size;
    }
}
