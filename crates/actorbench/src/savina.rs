//! The expected checks of the ten Savina benchmarks, simulated sequentially.
//!
//! docs/benchmarks.md ("The Savina ten") makes every check independent of how actors
//! interleave: each drawing actor has its own SplitMix64 generator, and every digest is a
//! wrapping sum. So a plain loop over the drawing actors, with the same draws in the same
//! order and no actors at all, arrives at the check every correct run prints. This is the
//! harness's own copy of that simulation (the project's other one is `scripts/oracle`, in
//! Python); the test vectors in `docs/vectors.tsv` hold both to the same answers.
//!
//! ```
//! use actorbench::savina::{expected, Gen};
//!
//! assert_eq!(Gen::new(0).next(), 16294208416658607535);
//! assert_eq!(expected("banking", &[2, 0]).as_deref(), Some("0:3000000"));
//! ```

use std::collections::{HashMap, HashSet};

/// SplitMix64's increment.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One unit of the contract's CPU work: `mix(x + GAMMA)`.
pub fn step(x: u64) -> u64 {
    mix(x.wrapping_add(GAMMA))
}

/// `step` applied `n` times to `x`.
///
/// ```
/// assert_eq!(actorbench::savina::work(0, 2), 12035550249420947055);
/// assert_eq!(actorbench::savina::work(7, 0), 7);
/// ```
pub fn work(mut x: u64, n: u64) -> u64 {
    for _ in 0..n {
        x = step(x);
    }
    x
}

/// The contract's generator: SplitMix64 with the given seed.
#[derive(Clone, Debug)]
pub struct Gen {
    state: u64,
}

impl Gen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Gen {
        Gen { state: seed }
    }

    /// The next draw.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// The next draw modulo `n` (`n >= 1`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The check of Savina benchmark `bench` with its parameters in the contract's order, or
/// `None` if `bench` is not one of the ten (or the parameters are too few).
pub fn expected(bench: &str, p: &[u64]) -> Option<String> {
    let arg = |i: usize| p.get(i).copied();
    Some(match bench {
        "fjthrput" => fjthrput(arg(0)?, arg(1)?),
        "fjcreate" => fjcreate(arg(0)?),
        "concdict" => concdict(arg(0)?, arg(1)?, arg(2)?),
        "concsll" => concsll(arg(0)?, arg(1)?, arg(2)?, arg(3)?),
        "bndbuffer" => bndbuffer(arg(1)?, arg(3)?, arg(4)?),
        "philosopher" => (u128::from(arg(0)?) * u128::from(arg(1)?)).to_string(),
        "barber" => barber(arg(0)?, arg(2)?, arg(3)?),
        "cigsmok" => cigsmok(arg(0)?, arg(1)?),
        "logmap" => logmap(arg(0)?, arg(1)?, arg(2)?, arg(3)?),
        "banking" => banking(arg(0)?, arg(1)?),
        _ => return None,
    })
}

fn fjthrput(actors: u64, messages: u64) -> String {
    let total = actors * messages;
    let digest = (0..total).fold(0u64, |d, v| d.wrapping_add(step(v)));
    format!("{total}:{digest}")
}

fn fjcreate(actors: u64) -> String {
    let digest = (0..actors).fold(0u64, |d, k| d.wrapping_add(step(k)));
    format!("{actors}:{digest}")
}

fn concdict(workers: u64, messages: u64, write_pct: u64) -> String {
    let mut table: HashMap<u64, u64> = HashMap::new();
    let (mut answers, mut readsum) = (0u64, 0u64);
    for w in 0..workers {
        let mut g = Gen::new(w);
        for _ in 0..messages {
            let r = g.below(100);
            let key = w * 1024 + g.below(1024);
            if r < write_pct {
                table.insert(key, g.next() >> 32);
            } else {
                readsum = readsum.wrapping_add(table.get(&key).copied().unwrap_or(0));
            }
            answers += 1;
        }
    }
    let contents = table
        .iter()
        .fold(0u64, |c, (k, v)| c.wrapping_add((k + 1).wrapping_mul(*v)));
    format!("{answers}:{}:{contents}:{readsum}", table.len())
}

fn concsll(workers: u64, messages: u64, write_pct: u64, size_pct: u64) -> String {
    let mut list = Vec::new();
    let (mut answers, mut hits) = (0u64, 0u64);
    for w in 0..workers {
        let mut g = Gen::new(w);
        let mut mine = HashSet::new();
        for _ in 0..messages {
            let r = g.below(100);
            if r < size_pct {
                // A size query: answered, but what it says depends on timing.
            } else if r < size_pct + write_pct {
                let v = g.below(1024) * workers + w;
                list.push(v);
                mine.insert(v);
            } else {
                let v = g.below(1024) * workers + w;
                hits += u64::from(mine.contains(&v));
            }
            answers += 1;
        }
    }
    list.sort_unstable();
    let contents = list
        .iter()
        .zip(1u64..)
        .fold(0u64, |c, (v, pos)| c.wrapping_add(pos.wrapping_mul(*v)));
    format!("{answers}:{}:{contents}:{hits}", list.len())
}

fn bndbuffer(producers: u64, items: u64, cost: u64) -> String {
    let mut sum = 0u64;
    for p in 0..producers {
        let mut g = Gen::new(p);
        for _ in 0..items {
            let item = work(g.next(), cost);
            sum = sum.wrapping_add(work(item, cost));
        }
    }
    format!("{}:{sum}", producers * items)
}

fn barber(haircuts: u64, arrival: u64, cut: u64) -> String {
    let mut g = Gen::new(0);
    let mut digest = 0u64;
    for k in 0..haircuts {
        let a = g.below(arrival + 1);
        let c = g.below(cut + 1);
        digest = digest.wrapping_add(work(k, a)).wrapping_add(work(k, c));
    }
    format!("{haircuts}:{digest}")
}

fn cigsmok(rounds: u64, smokers: u64) -> String {
    let mut g = Gen::new(0);
    let mut counts = vec![0u64; smokers as usize];
    let mut digest = 0u64;
    for round in 0..rounds {
        let s = g.below(smokers);
        let t = g.below(1000);
        counts[s as usize] += 1;
        digest = digest.wrapping_add(work(round, t));
    }
    let weighted = counts
        .iter()
        .zip(1u64..)
        .fold(0u64, |w, (c, id)| w.wrapping_add(id.wrapping_mul(*c)));
    format!("{weighted}:{digest}")
}

fn logmap(terms: u64, series: u64, rate: u64, increment: u64) -> String {
    let big_r = rate as f64 / 10000.0;
    let d = increment as f64 / 10000.0;
    let mut sum = 0u64;
    for i in 0..series {
        let step = i as f64 * d;
        let r = big_r + step;
        let mut x = (i + 1) as f64 / (series + 1) as f64;
        for _ in 0..terms {
            x = (r * x) * (1.0 - x);
            sum = sum.wrapping_add((x * 4_294_967_296.0).floor() as u64);
        }
    }
    sum.to_string()
}

fn banking(accounts: u64, transactions: u64) -> String {
    let mut g = Gen::new(0);
    let mut balance = vec![1_000_000u64; accounts as usize];
    for _ in 0..transactions {
        let src = g.below(accounts);
        let dst = (src + 1 + g.below(accounts - 1)) % accounts;
        let amount = g.below(1000) + 1;
        balance[src as usize] = balance[src as usize].wrapping_sub(amount);
        balance[dst as usize] = balance[dst as usize].wrapping_add(amount);
    }
    let checksum = balance
        .iter()
        .zip(1u64..)
        .fold(0u64, |c, (b, k)| c.wrapping_add(k.wrapping_mul(*b)));
    format!("{transactions}:{checksum}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_gives_the_contracts_known_values() {
        let mut g = Gen::new(0);
        assert_eq!(
            [g.next(), g.next(), g.next()],
            [
                16294208416658607535,
                7960286522194355700,
                487617019471545679
            ]
        );
        let mut g = Gen::new(1);
        assert_eq!(
            [g.next(), g.next(), g.next()],
            [
                10451216379200822465,
                13757245211066428519,
                17911839290282890590
            ]
        );
        assert_eq!(step(0), 16294208416658607535);
        assert_eq!(work(5, 1000), 2513630078224190977);
    }

    #[test]
    fn the_vectors_of_the_ten_agree() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/vectors.tsv"),
        )
        .unwrap();
        let mut seen = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split('\t').collect();
            let values: Vec<u64> = fields[1]
                .split_whitespace()
                .map(|kv| kv.split_once('=').unwrap().1.parse().unwrap())
                .collect();
            if let Some(check) = expected(fields[0], &values) {
                assert_eq!(check, fields[2], "{line}");
                seen += 1;
            }
        }
        assert!(seen >= 40, "only {seen} Savina vectors");
    }
}
