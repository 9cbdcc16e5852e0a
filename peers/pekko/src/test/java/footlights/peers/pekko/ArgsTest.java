package footlights.peers.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The argument parser, in-process: each kind of bad input gets its one exact error line (the line
 * Main prints before exiting 2), and good input gets the contract's defaults and range edges.
 * {@code actorbench verify} checks five bad inputs on the built program; these are the rest.
 */
class ArgsTest {

    /** The error line {@code args} is rejected with. */
    private static String rejected(String... args) {
        return assertThrows(Args.Invalid.class, () -> Args.parse(args)).getMessage();
    }

    @Test
    void unknownBenchmark() {
        assertEquals("error: unknown benchmark 'foo' (known: threadring, chameneos, big, fannkuch, fibtree, skynet, "
                + "spreading, mixed, bang, serialmsg, pingpong, counting, fjthrput, fjcreate, concdict, concsll, "
                + "bndbuffer, philosopher, barber, cigsmok, logmap, banking)", rejected("foo"));
    }

    @Test
    void noBenchmark() {
        assertTrue(rejected().startsWith("error: no benchmark given (known: threadring, "), rejected());
    }

    @Test
    void unknownParameter() {
        assertEquals("error: threadring: unknown parameter foo=1 (known: actors, hops)", rejected("threadring", "foo=1"));
    }

    @Test
    void nonNumericValues() {
        assertEquals("error: threadring: hops=abc is not a non-negative integer", rejected("threadring", "hops=abc"));
        assertEquals("error: pingpong: pings=-1 is not a non-negative integer", rejected("pingpong", "pings=-1"));
        assertEquals("error: pingpong: pings= is not a non-negative integer", rejected("pingpong", "pings="));
        assertEquals("error: pingpong: pings=+5 is not a non-negative integer", rejected("pingpong", "pings=+5"));
    }

    @Test
    void outOfRange() {
        assertEquals("error: fannkuch: n=13 is out of range (3..=12)", rejected("fannkuch", "n=13"));
        assertEquals("error: fannkuch: n=2 is out of range (3..=12)", rejected("fannkuch", "n=2"));
        assertEquals("error: chameneos: creatures=1 is out of range (2..=1000000)", rejected("chameneos", "creatures=1"));
        assertEquals("error: counting: count=99999999999999999999999 is out of range (0..=1000000000)",
                rejected("counting", "count=99999999999999999999999"));
    }

    @Test
    void savinaParametersNameTheirRanges() {
        assertEquals("error: concdict: write_pct=101 is out of range (0..=100)",
                rejected("concdict", "write_pct=101"));
        assertEquals("error: banking: accounts=1 is out of range (2..=1000000)", rejected("banking", "accounts=1"));
        assertEquals("error: logmap: rate=36001 is out of range (0..=36000)", rejected("logmap", "rate=36001"));
        assertEquals("error: fjcreate: actors=0 is out of range (1..=10000000)", rejected("fjcreate", "actors=0"));
        assertEquals("error: bndbuffer: unknown parameter size=1 (known: buffer, producers, consumers, items, cost)",
                rejected("bndbuffer", "size=1"));
        assertEquals("error: barber: room=x is not a non-negative integer", rejected("barber", "room=x"));
    }

    @Test
    void skynetSizeNotAPowerOfDiv() {
        assertEquals("error: skynet: size=1000 is not a power of div=7", rejected("skynet", "size=1000", "div=7"));
        // The rule holds for the defaults too: div=7 with the default size 100000.
        assertEquals("error: skynet: size=100000 is not a power of div=7", rejected("skynet", "div=7"));
    }

    @Test
    void argumentWithoutEquals() {
        assertEquals("error: threadring: argument 'hops' is not NAME=VALUE", rejected("threadring", "hops"));
    }

    @Test
    void repeatedParameter() {
        assertEquals("error: threadring: parameter hops=5 given twice", rejected("threadring", "hops=4", "hops=5"));
    }

    @Test
    void firstBadArgumentIsTheOneNamed() {
        assertEquals("error: big: unknown parameter x=1 (known: workers, pings, hood)",
                rejected("big", "x=1", "pings=abc"));
    }

    @Test
    void defaultsAndEdges() throws Exception {
        Args.Parsed mixed = Args.parse(new String[] {"mixed", "reps=1"});
        assertEquals("mixed", mixed.bench());
        assertEquals(4, mixed.get("rings"));
        assertEquals(50, mixed.get("ring_size"));
        assertEquals(100, mixed.get("token"));
        assertEquals(1, mixed.get("reps"));
        Args.Parsed threadring = Args.parse(new String[] {"threadring"});
        assertEquals(503, threadring.getInt("actors"));
        assertEquals(1_000_000, threadring.getInt("hops"));
        assertEquals(1, Args.parse(new String[] {"skynet", "size=1", "div=7"}).get("size"));
        assertEquals(12, Args.parse(new String[] {"fannkuch", "n=12"}).get("n"));
        assertEquals(0, Args.parse(new String[] {"pingpong", "pings=0"}).get("pings"));
        assertEquals(1_000_000_000, Args.parse(new String[] {"counting", "count=1000000000"}).get("count"));
        assertEquals(7, Args.parse(new String[] {"fibtree", "n=007"}).get("n"));
        assertThrows(IllegalArgumentException.class, () -> threadring.get("pings"));
    }
}
