//! The twenty-two benchmarks and their parameters, as the contract's tables give them
//! (`docs/benchmarks.md`: the first twelve, then the Savina ten).
//!
//! Each [`Bench`] knows its command-line name, a one-line summary of what it stresses,
//! the parameters it takes (each a [`Param`]: quick default and inclusive range) and the
//! seed parameters: those the seed documents measured, or Savina's defaults for the
//! benchmarks taken from Savina. The order of
//! [`Bench::ALL`] is the contract's order, which is also the order in which error
//! messages and `--help` list the benchmarks.

use std::fmt;
use std::str::FromStr;

/// One parameter of a benchmark: its name, its quick default and its inclusive range.
///
/// ```
/// use suite_contract::Bench;
///
/// let hops = Bench::Threadring.param("hops").unwrap();
/// assert_eq!((hops.quick, hops.min, hops.max), (1_000_000, 0, 1_000_000_000));
/// assert!(hops.contains(0) && !hops.contains(1_000_000_001));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name used on the command line (`hops` in `hops=1000`).
    pub name: &'static str,
    /// The quick value, used when the parameter is not given.
    pub quick: u64,
    /// The smallest accepted value.
    pub min: u64,
    /// The largest accepted value.
    pub max: u64,
}

impl Param {
    const fn new(name: &'static str, quick: u64, min: u64, max: u64) -> Param {
        Param {
            name,
            quick,
            min,
            max,
        }
    }

    /// Whether `value` lies in this parameter's inclusive range.
    pub fn contains(&self, value: u64) -> bool {
        (self.min..=self.max).contains(&value)
    }
}

/// One of the twenty-two benchmarks of the suite.
///
/// ```
/// use suite_contract::Bench;
///
/// let bench: Bench = "skynet".parse().unwrap();
/// assert_eq!(bench, Bench::Skynet);
/// assert_eq!(bench.name(), "skynet");
/// assert_eq!(bench.to_string(), "skynet");
/// let names: Vec<_> = bench.params().iter().map(|p| p.name).collect();
/// assert_eq!(names, ["size", "div"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bench {
    /// One token hopping around a ring of actors.
    Threadring,
    /// Creatures meeting at one meeting place.
    Chameneos,
    /// Many-to-many ping/pong within neighbourhoods of workers.
    Big,
    /// fannkuch-redux split into tasks for worker actors.
    Fannkuch,
    /// One actor per call of the naive Fibonacci recursion.
    Fibtree,
    /// A tree of actors summing their leaf numbers.
    Skynet,
    /// A binary tree of actors counting its leaves.
    Spreading,
    /// Rings of short-lived actors, tokens and trial-division work.
    Mixed,
    /// Many senders flooding one receiver.
    Bang,
    /// Messages proxied through one dispatcher.
    Serialmsg,
    /// Request/reply between two actors.
    Pingpong,
    /// One producer, one counter, then one query.
    Counting,
    /// Savina's fork-join throughput: one sender, many receivers.
    Fjthrput,
    /// Savina's fork-join creation: many actors, one message each.
    Fjcreate,
    /// Savina's concurrent dictionary: clients of one dictionary actor.
    Concdict,
    /// Savina's concurrent sorted linked list: clients of one list actor.
    Concsll,
    /// Savina's producer-consumer with a bounded buffer.
    Bndbuffer,
    /// Savina's dining philosophers with an arbitrator.
    Philosopher,
    /// Savina's sleeping barber.
    Barber,
    /// Savina's cigarette smokers with an arbiter.
    Cigsmok,
    /// Savina's logistic map series through rate actors.
    Logmap,
    /// Savina's bank transactions between account actors.
    Banking,
}

impl Bench {
    /// All benchmarks, in the contract's order.
    pub const ALL: [Bench; 22] = [
        Bench::Threadring,
        Bench::Chameneos,
        Bench::Big,
        Bench::Fannkuch,
        Bench::Fibtree,
        Bench::Skynet,
        Bench::Spreading,
        Bench::Mixed,
        Bench::Bang,
        Bench::Serialmsg,
        Bench::Pingpong,
        Bench::Counting,
        Bench::Fjthrput,
        Bench::Fjcreate,
        Bench::Concdict,
        Bench::Concsll,
        Bench::Bndbuffer,
        Bench::Philosopher,
        Bench::Barber,
        Bench::Cigsmok,
        Bench::Logmap,
        Bench::Banking,
    ];

    /// The name used on the command line and in the result line.
    ///
    /// ```
    /// assert_eq!(suite_contract::Bench::Serialmsg.name(), "serialmsg");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Bench::Threadring => "threadring",
            Bench::Chameneos => "chameneos",
            Bench::Big => "big",
            Bench::Fannkuch => "fannkuch",
            Bench::Fibtree => "fibtree",
            Bench::Skynet => "skynet",
            Bench::Spreading => "spreading",
            Bench::Mixed => "mixed",
            Bench::Bang => "bang",
            Bench::Serialmsg => "serialmsg",
            Bench::Pingpong => "pingpong",
            Bench::Counting => "counting",
            Bench::Fjthrput => "fjthrput",
            Bench::Fjcreate => "fjcreate",
            Bench::Concdict => "concdict",
            Bench::Concsll => "concsll",
            Bench::Bndbuffer => "bndbuffer",
            Bench::Philosopher => "philosopher",
            Bench::Barber => "barber",
            Bench::Cigsmok => "cigsmok",
            Bench::Logmap => "logmap",
            Bench::Banking => "banking",
        }
    }

    /// The benchmark with this command-line name, if there is one (names are exact,
    /// lower case).
    ///
    /// ```
    /// use suite_contract::Bench;
    /// assert_eq!(Bench::from_name("big"), Some(Bench::Big));
    /// assert_eq!(Bench::from_name("Big"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Bench> {
        Bench::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The parameters, in the contract's order, with quick defaults and ranges.
    ///
    /// ```
    /// let p = suite_contract::Bench::Fannkuch.params();
    /// assert_eq!((p[0].name, p[0].quick, p[0].min, p[0].max), ("n", 10, 3, 12));
    /// ```
    pub fn params(self) -> &'static [Param] {
        match self {
            Bench::Threadring => THREADRING,
            Bench::Chameneos => CHAMENEOS,
            Bench::Big => BIG,
            Bench::Fannkuch => FANNKUCH,
            Bench::Fibtree => FIBTREE,
            Bench::Skynet => SKYNET,
            Bench::Spreading => SPREADING,
            Bench::Mixed => MIXED,
            Bench::Bang => BANG,
            Bench::Serialmsg => SERIALMSG,
            Bench::Pingpong => PINGPONG,
            Bench::Counting => COUNTING,
            Bench::Fjthrput => FJTHRPUT,
            Bench::Fjcreate => FJCREATE,
            Bench::Concdict => CONCDICT,
            Bench::Concsll => CONCSLL,
            Bench::Bndbuffer => BNDBUFFER,
            Bench::Philosopher => PHILOSOPHER,
            Bench::Barber => BARBER,
            Bench::Cigsmok => CIGSMOK,
            Bench::Logmap => LOGMAP,
            Bench::Banking => BANKING,
        }
    }

    /// The parameter called `name`, if this benchmark has one.
    ///
    /// ```
    /// use suite_contract::Bench;
    /// assert_eq!(Bench::Pingpong.param("pings").map(|p| p.quick), Some(100_000));
    /// assert!(Bench::Pingpong.param("pongs").is_none());
    /// ```
    pub fn param(self, name: &str) -> Option<&'static Param> {
        self.params().iter().find(|p| p.name == name)
    }

    /// What the benchmark stresses, in one line.
    ///
    /// ```
    /// assert!(suite_contract::Bench::Bang.stresses().contains("one receiver"));
    /// ```
    pub fn stresses(self) -> &'static str {
        match self {
            Bench::Threadring => {
                "one token hopping between actors: message latency, context switches"
            }
            Bench::Chameneos => "contention on one actor (the meeting place) and fairness",
            Bench::Big => "many-to-many ping/pong among many actors",
            Bench::Fannkuch => "parallel computation with little messaging (fannkuch-redux)",
            Bench::Fibtree => "actor creation and request/reply, one actor per call",
            Bench::Skynet => "creating a tree of actors that sum their leaf numbers",
            Bench::Spreading => "actor creation: a binary tree of actors",
            Bench::Mixed => "rings passing tokens, actors created and ended, and CPU work",
            Bench::Bang => "many senders flooding one receiver",
            Bench::Serialmsg => "message proxying through one dispatcher",
            Bench::Pingpong => "request/reply latency between two actors",
            Bench::Counting => "one producer, one counter actor, then one query",
            Bench::Fjthrput => "one sender, many receivers each doing a little work per message",
            Bench::Fjcreate => "creating many actors that each handle one message and end",
            Bench::Concdict => "clients waiting on one dictionary actor, reads and writes",
            Bench::Concsll => "clients waiting on one sorted-list actor: inserts, lookups, sizes",
            Bench::Bndbuffer => "producers and consumers through one manager with a bounded buffer",
            Bench::Philosopher => "dining philosophers asking one arbitrator, retrying when denied",
            Bench::Barber => "sleeping barber: factory, waiting room, barber and customer actors",
            Bench::Cigsmok => "cigarette smokers: one arbiter choosing a smoker each round",
            Bench::Logmap => "logistic-map series computed through rate actors, request and reply",
            Bench::Banking => "a teller's transfers between account actors: debit, credit, reply",
        }
    }

    /// The parameters the seed documents measured, with their sources.
    ///
    /// ```
    /// assert!(suite_contract::Bench::Skynet.seed().contains("size=1000000 div=10"));
    /// ```
    pub fn seed(self) -> &'static str {
        match self {
            Bench::Threadring => "hops 500 to 50,000,000 (SALSA Lite, Fig. 4; CLBG thread-ring)",
            Bench::Chameneos => {
                "creatures 7, 70, 700, 7000, 70000 with meetings=8000000 (Encore thesis, \
                 Tables 4-7); creatures 3 and 10 with meetings=6000000 (SALSA Lite, Fig. 6-7)"
            }
            Bench::Big => "workers 500 to 8000 with pings=16000 (Encore thesis, Tables 1-3)",
            Bench::Fannkuch => "n 10, 11, 12 (Encore thesis, Tables 8-10)",
            Bench::Fibtree => "n 25 and 30 (SALSA Lite, Fig. 8-9)",
            Bench::Skynet => "size=1000000 div=10 (skynet); size=100000 (Boost.Fiber table 1.2)",
            Bench::Spreading => "depth=19 (libcppa, 524,288 leaves)",
            Bench::Mixed => {
                "rings=20 ring_size=50 token=10000 reps=5 (2012 post); \
                 rings=100 ring_size=50 token=1000 reps=5 (its 2013 update)"
            }
            Bench::Bang => "senders=440 messages=440 (Panini, 4.5.2)",
            Bench::Serialmsg => "pairs=120 (Panini, 4.5.4)",
            Bench::Pingpong => "pings=40000 (Savina default)",
            Bench::Counting => "count=1000000 (Savina default)",
            Bench::Fjthrput => "actors=60 messages=10000 (Savina default)",
            Bench::Fjcreate => "actors=40000 (Savina default)",
            Bench::Concdict => "workers=20 messages=10000 write_pct=10 (Savina default)",
            Bench::Concsll => "workers=20 messages=8000 write_pct=10 size_pct=1 (Savina default)",
            Bench::Bndbuffer => {
                "buffer=50 producers=40 consumers=40 items=1000 cost=25 (Savina default)"
            }
            Bench::Philosopher => "philosophers=20 rounds=10000 (Savina default)",
            Bench::Barber => "haircuts=5000 room=1000 arrival=1000 cut=1000 (Savina default)",
            Bench::Cigsmok => "rounds=1000 smokers=200 (Savina default)",
            Bench::Logmap => "terms=25000 series=10 rate=34600 increment=25 (Savina default)",
            Bench::Banking => "accounts=1000 transactions=50000 (Savina default)",
        }
    }

    /// What a correct run prints as its check, in terms of the parameters. The program
    /// must arrive at it by counting or summing what its actors did, never print it.
    ///
    /// ```
    /// assert_eq!(suite_contract::Bench::Spreading.check(), "2^depth (leaves counted at the root)");
    /// ```
    pub fn check(self) -> &'static str {
        match self {
            Bench::Threadring => "(hops mod actors) + 1 (id of the actor that gets token 0)",
            Bench::Chameneos => "2*meetings, the sum of counts (meetings per creature)",
            Bench::Big => "workers*pings (pongs received, summed by the sink)",
            Bench::Fannkuch => "CHECKSUM:MAXFLIPS (n=10: 73196:38, n=12: 3968050:65)",
            Bench::Fibtree => "fib(n), with fib(0)=0 and fib(1)=fib(2)=1 (sum at the root)",
            Bench::Skynet => "size*(size-1)/2 (sum at the root)",
            Bench::Spreading => "2^depth (leaves counted at the root)",
            Bench::Mixed => "rings*reps (verified factorisations at the collector)",
            Bench::Bang => "senders*messages (messages received)",
            Bench::Serialmsg => "pairs*messages (messages delivered to receivers)",
            Bench::Pingpong => "pings (pongs received)",
            Bench::Counting => "count (the counter's answer)",
            Bench::Fjthrput => "HANDLED:DIGEST (messages handled; sum of step(v) over them)",
            Bench::Fjcreate => "HANDLED:DIGEST (reports of the created actors; sum of step(k))",
            Bench::Concdict => {
                "ANSWERS:SIZE:CONTENTS:READSUM (answers; final dictionary; read answers)"
            }
            Bench::Concsll => "ANSWERS:SIZE:CONTENTS:HITS (answers; final list; lookups found)",
            Bench::Bndbuffer => "CONSUMED:SUM (items consumed; sum of work(item, cost))",
            Bench::Philosopher => "MEALS (meals counted by the arbitrator)",
            Bench::Barber => "HAIRCUTS:DIGEST (customers done; arrival and haircut work)",
            Bench::Cigsmok => "WEIGHTED:DIGEST (sum of (id+1)*smokes; smoking work)",
            Bench::Logmap => "SUM (sum over every series' terms of floor(term * 2^32))",
            Bench::Banking => "TRANSFERS:BALANCES (replies; sum of (k+1)*final balance)",
        }
    }

    /// The benchmark names joined by `", "`, as the error messages list them.
    ///
    /// ```
    /// assert!(suite_contract::Bench::known_list().starts_with("threadring, chameneos, big"));
    /// ```
    pub fn known_list() -> String {
        Bench::ALL.map(Bench::name).join(", ")
    }
}

/// One million, the unit most ranges are written in.
const M: u64 = 1_000_000;

const THREADRING: &[Param] = &[
    Param::new("actors", 503, 1, M),
    Param::new("hops", M, 0, 1000 * M),
];
const CHAMENEOS: &[Param] = &[
    Param::new("creatures", 70, 2, M),
    Param::new("meetings", 200_000, 0, 100 * M),
];
const BIG: &[Param] = &[
    Param::new("workers", 500, 1, M),
    Param::new("pings", 2000, 0, 100 * M),
    Param::new("hood", 1000, 1, M),
];
const FANNKUCH: &[Param] = &[Param::new("n", 10, 3, 12)];
const FIBTREE: &[Param] = &[Param::new("n", 20, 0, 40)];
const SKYNET: &[Param] = &[
    Param::new("size", 100_000, 1, 100 * M),
    Param::new("div", 10, 2, 1000),
];
const SPREADING: &[Param] = &[Param::new("depth", 16, 0, 24)];
const MIXED: &[Param] = &[
    Param::new("rings", 4, 1, 10_000),
    Param::new("ring_size", 50, 2, 100_000),
    Param::new("token", 100, 0, 100 * M),
    Param::new("reps", 2, 1, 1000),
];
const BANG: &[Param] = &[
    Param::new("senders", 100, 1, M),
    Param::new("messages", 1000, 0, 100 * M),
];
const SERIALMSG: &[Param] = &[
    Param::new("pairs", 40, 1, 100_000),
    Param::new("messages", 1000, 0, 100 * M),
];
const PINGPONG: &[Param] = &[Param::new("pings", 100_000, 0, 1000 * M)];
const COUNTING: &[Param] = &[Param::new("count", M, 0, 1000 * M)];
const FJTHRPUT: &[Param] = &[
    Param::new("actors", 60, 1, 100_000),
    Param::new("messages", 2000, 0, 100 * M),
];
const FJCREATE: &[Param] = &[Param::new("actors", 20_000, 1, 10 * M)];
const CONCDICT: &[Param] = &[
    Param::new("workers", 20, 1, 10_000),
    Param::new("messages", 5000, 0, 100 * M),
    Param::new("write_pct", 10, 0, 100),
];
const CONCSLL: &[Param] = &[
    Param::new("workers", 20, 1, 10_000),
    Param::new("messages", 1000, 0, 100 * M),
    Param::new("write_pct", 10, 0, 100),
    Param::new("size_pct", 1, 0, 100),
];
const BNDBUFFER: &[Param] = &[
    Param::new("buffer", 50, 1, M),
    Param::new("producers", 40, 1, 10_000),
    Param::new("consumers", 40, 1, 10_000),
    Param::new("items", 500, 0, 100 * M),
    Param::new("cost", 25, 0, M),
];
const PHILOSOPHER: &[Param] = &[
    Param::new("philosophers", 20, 1, 10_000),
    Param::new("rounds", 5000, 0, 100 * M),
];
const BARBER: &[Param] = &[
    Param::new("haircuts", 1000, 0, 10 * M),
    Param::new("room", 1000, 1, M),
    Param::new("arrival", 1000, 0, M),
    Param::new("cut", 1000, 0, M),
];
const CIGSMOK: &[Param] = &[
    Param::new("rounds", 1000, 0, 100 * M),
    Param::new("smokers", 200, 1, 100_000),
];
const LOGMAP: &[Param] = &[
    Param::new("terms", 10_000, 0, 100 * M),
    Param::new("series", 10, 1, 100),
    Param::new("rate", 34_600, 0, 36_000),
    Param::new("increment", 25, 0, 40),
];
const BANKING: &[Param] = &[
    Param::new("accounts", 1000, 2, M),
    Param::new("transactions", 30_000, 0, 100 * M),
];

impl fmt::Display for Bench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a benchmark name: the name is not one of the suite's.
///
/// ```
/// let err = "foo".parse::<suite_contract::Bench>().unwrap_err();
/// assert_eq!(err.name, "foo");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownBench {
    /// The name that was given.
    pub name: String,
}

impl fmt::Display for UnknownBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown benchmark '{}'", self.name)
    }
}

impl std::error::Error for UnknownBench {}

impl FromStr for Bench {
    type Err = UnknownBench;

    fn from_str(s: &str) -> Result<Bench, UnknownBench> {
        Bench::from_name(s).ok_or_else(|| UnknownBench { name: s.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for bench in Bench::ALL {
            assert_eq!(Bench::from_name(bench.name()), Some(bench));
        }
        let mut names = Bench::ALL.map(Bench::name).to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 22);
    }

    #[test]
    fn quick_defaults_lie_in_their_ranges() {
        for bench in Bench::ALL {
            for p in bench.params() {
                assert!(p.min <= p.max, "{bench} {}", p.name);
                assert!(p.contains(p.quick), "{bench} {}", p.name);
            }
        }
    }

    #[test]
    fn ranges_match_the_contract_table() {
        let table: &[(&str, &str, u64, u64, u64)] = &[
            ("threadring", "actors", 503, 1, 1_000_000),
            ("threadring", "hops", 1_000_000, 0, 1_000_000_000),
            ("chameneos", "creatures", 70, 2, 1_000_000),
            ("chameneos", "meetings", 200_000, 0, 100_000_000),
            ("big", "workers", 500, 1, 1_000_000),
            ("big", "pings", 2000, 0, 100_000_000),
            ("big", "hood", 1000, 1, 1_000_000),
            ("fannkuch", "n", 10, 3, 12),
            ("fibtree", "n", 20, 0, 40),
            ("skynet", "size", 100_000, 1, 100_000_000),
            ("skynet", "div", 10, 2, 1000),
            ("spreading", "depth", 16, 0, 24),
            ("mixed", "rings", 4, 1, 10_000),
            ("mixed", "ring_size", 50, 2, 100_000),
            ("mixed", "token", 100, 0, 100_000_000),
            ("mixed", "reps", 2, 1, 1000),
            ("bang", "senders", 100, 1, 1_000_000),
            ("bang", "messages", 1000, 0, 100_000_000),
            ("serialmsg", "pairs", 40, 1, 100_000),
            ("serialmsg", "messages", 1000, 0, 100_000_000),
            ("pingpong", "pings", 100_000, 0, 1_000_000_000),
            ("counting", "count", 1_000_000, 0, 1_000_000_000),
            ("fjthrput", "actors", 60, 1, 100_000),
            ("fjthrput", "messages", 2000, 0, 100_000_000),
            ("fjcreate", "actors", 20_000, 1, 10_000_000),
            ("concdict", "workers", 20, 1, 10_000),
            ("concdict", "messages", 5000, 0, 100_000_000),
            ("concdict", "write_pct", 10, 0, 100),
            ("concsll", "workers", 20, 1, 10_000),
            ("concsll", "messages", 1000, 0, 100_000_000),
            ("concsll", "write_pct", 10, 0, 100),
            ("concsll", "size_pct", 1, 0, 100),
            ("bndbuffer", "buffer", 50, 1, 1_000_000),
            ("bndbuffer", "producers", 40, 1, 10_000),
            ("bndbuffer", "consumers", 40, 1, 10_000),
            ("bndbuffer", "items", 500, 0, 100_000_000),
            ("bndbuffer", "cost", 25, 0, 1_000_000),
            ("philosopher", "philosophers", 20, 1, 10_000),
            ("philosopher", "rounds", 5000, 0, 100_000_000),
            ("barber", "haircuts", 1000, 0, 10_000_000),
            ("barber", "room", 1000, 1, 1_000_000),
            ("barber", "arrival", 1000, 0, 1_000_000),
            ("barber", "cut", 1000, 0, 1_000_000),
            ("cigsmok", "rounds", 1000, 0, 100_000_000),
            ("cigsmok", "smokers", 200, 1, 100_000),
            ("logmap", "terms", 10_000, 0, 100_000_000),
            ("logmap", "series", 10, 1, 100),
            ("logmap", "rate", 34_600, 0, 36_000),
            ("logmap", "increment", 25, 0, 40),
            ("banking", "accounts", 1000, 2, 1_000_000),
            ("banking", "transactions", 30_000, 0, 100_000_000),
        ];
        let total: usize = Bench::ALL.iter().map(|b| b.params().len()).sum();
        assert_eq!(total, table.len());
        for &(bench, name, quick, min, max) in table {
            let p = Bench::from_name(bench).unwrap().param(name).unwrap();
            assert_eq!((p.quick, p.min, p.max), (quick, min, max), "{bench} {name}");
        }
    }
}
