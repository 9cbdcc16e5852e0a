package footlights.peers.pekko;

/**
 * The contract's one generator, SplitMix64, and its unit of work (docs/benchmarks.md, "The
 * generator and the arithmetic").
 *
 * <p>All arithmetic is on 64-bit words, wrapping: Java's {@code long} wraps the same way, and
 * {@code >>>} is the logical shift the contract means. A number that goes into a check is printed
 * with {@link Long#toUnsignedString(long)}.
 *
 * <pre>
 *   mix(z)     = z ^= z >>> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >>> 27; z *= 0x94D049BB133111EB; z ^ (z >>> 31)
 *   step(x)    = mix(x + GAMMA)
 *   work(x, n) = step applied n times to x
 *   next()     = state += GAMMA; mix(state)
 *   below(n)   = next() mod n (unsigned)
 * </pre>
 *
 * Each drawing actor owns one instance, seeded as its benchmark says; instances are never shared.
 */
final class SplitMix64 {

    private static final long GAMMA = 0x9E3779B97F4A7C15L;

    private long state;

    /** A generator whose state is {@code seed}. */
    SplitMix64(long seed) {
        this.state = seed;
    }

    /** The next number of the sequence. */
    long next() {
        state += GAMMA;
        return mix(state);
    }

    /** {@code next() mod n} for {@code n >= 1}, unsigned. */
    long below(long n) {
        return Long.remainderUnsigned(next(), n);
    }

    /** {@link #below(long)} for an int bound, as an int. */
    int below(int n) {
        return (int) below((long) n);
    }

    /** One step of the generator from {@code x}: {@code mix(x + GAMMA)}. */
    static long step(long x) {
        return mix(x + GAMMA);
    }

    /** {@code step} applied {@code n} times to {@code x}: the contract's unit of CPU work. */
    static long work(long x, long n) {
        for (long i = 0; i < n; i++) {
            x = mix(x + GAMMA);
        }
        return x;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** {@code numbers} as a check: unsigned decimals joined by {@code :}. */
    static String joined(long... numbers) {
        StringBuilder text = new StringBuilder();
        for (long number : numbers) {
            if (!text.isEmpty()) {
                text.append(':');
            }
            text.append(Long.toUnsignedString(number));
        }
        return text.toString();
    }
}
