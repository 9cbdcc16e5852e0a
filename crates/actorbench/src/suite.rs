//! The suite file, `suite.toml`: which implementations exist and how to build, run and
//! check each, and which benchmarks run with which parameters.
//!
//! ```toml
//! [[implementation]]
//! name = "footlights"                     # unique, [a-z0-9_-]
//! language = "Rust"
//! build = "cargo build --release -p footlights-suite"   # run by `sh -c`, once per session
//! run = "target/release/footlights-suite {bench} {params}"  # exec'd directly, no shell
//! threads_env = "FOOTLIGHTS_THREADS"      # and/or {threads} in `run` or in `env` values
//! env = { RUST_BACKTRACE = "0" }          # optional extra environment, {threads} allowed
//! available = "cargo --version"           # `sh -c`, exit 0 = available
//! version = "rustc --version"             # `sh -c`, first line of output is recorded
//! install_hint = "install Rust (rustup.rs)"
//! apt = ["erlang-base"]                   # optional Debian packages it needs (see peers)
//! install = ["cargo fetch"]               # optional steps for `actorbench peers install`
//!
//! [[implementation]]
//! name = "footlights-share"               # a configuration variant of footlights:
//! variant_of = "footlights"               # the same program, another environment
//! language = "Rust"
//! build = "cargo build --release -p footlights-suite"
//! run = "target/release/footlights-suite {bench} {params}"
//! threads_env = "FOOTLIGHTS_THREADS"
//! env = { FOOTLIGHTS_SCHEDULER = "share" }
//!
//! [[benchmark]]
//! name = "threadring"                     # a benchmark of the contract
//! quick = { actors = 503, hops = 1000000 } # every parameter, the quick profile
//! seed = { hops = 50000000 }              # overrides of quick for the seed profile
//! savina = { actors = 100, hops = 100000 } # optional: overrides for the savina profile
//! sweep = { param = "hops", quick = [1000, 1000000], seed = [500, 50000000] }  # optional
//! ```
//!
//! Parsing is in two steps: serde (through the `toml` crate) builds the raw tables with
//! their byte spans, then validation turns them into [`Suite`], reporting every problem as
//! `FILE:LINE:COLUMN: message` so the user can go straight to it. Every error here is a
//! [`UsageError`]. Commands run from the directory that holds the suite file.
//!
//! Variants: an implementation with `variant_of = "NAME"` is another configuration of
//! implementation NAME (typically the same build run with a different `env`). NAME must be
//! an implementation of the file (before or after it) that is not itself a variant, so a
//! variant is always one step from its base. Variants are measured and verified only when
//! named with `--impl`: the default selection ([`Suite::select_implementations`] with no
//! names) is every implementation that is not a variant, so adding a variant does not
//! change what a plain `actorbench run` or `verify` does.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::contract::{self, BenchSpec};
use crate::error::UsageError;
use crate::params::Params;
use crate::template;

/// The parameter profile a session runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Profile {
    /// Small parameters: one run of footlights well under a second.
    Quick,
    /// The parameters the seed documents measured.
    Seed,
    /// Savina's default parameters, for the benchmarks that have a Savina counterpart
    /// (those with a `savina` table); the others are left out of the session.
    Savina,
}

impl Profile {
    /// `quick` or `seed`.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Quick => "quick",
            Profile::Seed => "seed",
            Profile::Savina => "savina",
        }
    }
}

/// A validated suite file.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The suite file.
    pub path: PathBuf,
    /// The directory commands run in (the suite file's directory).
    pub dir: PathBuf,
    /// The implementations, in file order.
    pub implementations: Vec<Implementation>,
    /// The benchmarks, in file order.
    pub benchmarks: Vec<Benchmark>,
}

/// One implementation of the suite: a program and how to build, run and check it.
#[derive(Debug, Clone)]
pub struct Implementation {
    /// Unique name (`footlights`, `erlang`, ...).
    pub name: String,
    /// The implementation this one is a configuration variant of (`variant_of`), if any;
    /// always an implementation of the same suite that is not a variant itself.
    pub variant_of: Option<String>,
    /// The language it is written in.
    pub language: String,
    /// Build command, run by `sh -c` once per session before measuring.
    pub build: Option<String>,
    /// The run template as written.
    pub run_template: String,
    /// The run template split into words.
    pub run: Vec<String>,
    /// Environment variable that carries the thread count.
    pub threads_env: Option<String>,
    /// Extra environment (values may use `{threads}`).
    pub env: Vec<(String, String)>,
    /// Availability check, run by `sh -c`; exit 0 means available.
    pub available: Option<String>,
    /// Version command, run by `sh -c`; its first line of output is recorded.
    pub version: Option<String>,
    /// What to tell a user whose toolchain is missing.
    pub install_hint: Option<String>,
    /// Debian packages `actorbench peers install` installs before the steps (`apt-get`
    /// run directly, non-interactively, after an `apt-get update`).
    pub apt: Vec<String>,
    /// Install steps for `actorbench peers install`, each run by `sh -c`.
    pub install: Vec<String>,
}

impl Implementation {
    /// Whether it is a configuration variant of another implementation.
    pub fn is_variant(&self) -> bool {
        self.variant_of.is_some()
    }

    /// Its extra environment as written, `K=V` words (values shell-quoted), or empty.
    pub fn env_words(&self) -> String {
        self.env
            .iter()
            .map(|(k, v)| format!("{k}={}", crate::host::quote(v)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The argv and extra environment for one run of `bench` with `params` on `threads`.
    pub fn command(
        &self,
        bench: &str,
        params: &Params,
        threads: usize,
    ) -> (Vec<String>, Vec<(String, String)>) {
        self.command_words(bench, &params.words(), threads)
    }

    /// Like [`Implementation::command`], with the parameter words given as they are (the
    /// bad-input checks of `verify` pass words that are not valid parameters).
    pub fn command_words(
        &self,
        bench: &str,
        words: &[String],
        threads: usize,
    ) -> (Vec<String>, Vec<(String, String)>) {
        let argv = template::expand(&self.run, bench, words, threads);
        let mut env: Vec<(String, String)> = self
            .env
            .iter()
            .map(|(k, v)| (k.clone(), template::fill(v, bench, threads)))
            .collect();
        if let Some(var) = &self.threads_env {
            env.push((var.clone(), threads.to_string()));
        }
        (argv, env)
    }

    /// The line that says this implementation is missing, with its install hint.
    pub fn missing_line(&self, why: &str) -> String {
        let hint = self
            .install_hint
            .as_deref()
            .unwrap_or("no install hint given in suite.toml");
        format!(
            "{} ({}) is not available: {why}; install: {hint}",
            self.name, self.language
        )
    }
}

/// One benchmark and its parameter sets.
#[derive(Debug, Clone)]
pub struct Benchmark {
    /// The benchmark's name in the contract.
    pub name: String,
    /// The contract's description of it.
    pub spec: &'static BenchSpec,
    /// The quick profile's parameters.
    pub quick: Params,
    /// The seed profile's parameters.
    pub seed: Params,
    /// The savina profile's parameters, for a benchmark with a Savina counterpart.
    pub savina: Option<Params>,
    /// An optional sweep of one parameter.
    pub sweep: Option<Sweep>,
}

/// A sweep: one parameter varied over a list of values, per profile.
#[derive(Debug, Clone)]
pub struct Sweep {
    /// The swept parameter.
    pub param: String,
    /// Its values in the quick profile.
    pub quick: Vec<u64>,
    /// Its values in the seed profile.
    pub seed: Vec<u64>,
}

impl Benchmark {
    /// The parameters of `profile` (for the savina profile and a benchmark without a
    /// Savina counterpart, which that profile leaves out, the quick ones).
    pub fn params(&self, profile: Profile) -> &Params {
        match profile {
            Profile::Quick => &self.quick,
            Profile::Seed => &self.seed,
            Profile::Savina => self.savina.as_ref().unwrap_or(&self.quick),
        }
    }

    /// Whether `profile` runs this benchmark: every profile but savina runs them all.
    pub fn in_profile(&self, profile: Profile) -> bool {
        profile != Profile::Savina || self.savina.is_some()
    }

    /// The parameter sets of `profile`: the sweep's points when `sweep` is asked for and
    /// the benchmark has one, else the profile's one set.
    pub fn points(&self, profile: Profile, sweep: bool) -> Vec<Params> {
        let base = self.params(profile).clone();
        let values = match (&self.sweep, sweep, profile) {
            (Some(s), true, Profile::Quick) => Some((&s.param, &s.quick)),
            (Some(s), true, Profile::Seed) => Some((&s.param, &s.seed)),
            // The savina profile has no sweeps: one point, Savina's default.
            _ => None,
        };
        match values {
            Some((param, values)) => values
                .iter()
                .map(|v| {
                    let mut p = base.clone();
                    p.set(param, *v);
                    p
                })
                .collect(),
            None => vec![base],
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSuite {
    #[serde(default)]
    implementation: Vec<Spanned<RawImplementation>>,
    #[serde(default)]
    benchmark: Vec<Spanned<RawBenchmark>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawImplementation {
    name: Spanned<String>,
    variant_of: Option<Spanned<String>>,
    language: String,
    build: Option<String>,
    run: Spanned<String>,
    threads_env: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, Spanned<String>>,
    available: Option<String>,
    version: Option<String>,
    install_hint: Option<String>,
    #[serde(default)]
    apt: Vec<Spanned<String>>,
    #[serde(default)]
    install: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBenchmark {
    name: Spanned<String>,
    quick: Spanned<BTreeMap<String, Spanned<u64>>>,
    #[serde(default)]
    seed: BTreeMap<String, Spanned<u64>>,
    savina: Option<BTreeMap<String, Spanned<u64>>>,
    sweep: Option<Spanned<RawSweep>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSweep {
    param: String,
    quick: Vec<u64>,
    seed: Vec<u64>,
}

/// The name of the suite file looked for by default.
pub const FILE_NAME: &str = "suite.toml";

/// The suite file to use when none is given: `suite.toml` in the current directory or the
/// nearest ancestor that has one (as cargo finds `Cargo.toml`).
pub fn find_default() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// Resolves `--suite`: the given file, or the default one; an error when there is none.
pub fn locate(given: Option<&Path>) -> Result<PathBuf, UsageError> {
    match given {
        Some(p) if p.is_file() => Ok(p.to_path_buf()),
        Some(p) if p.is_dir() => Err(UsageError::new(format!(
            "--suite {}: is a directory; give the suite file (e.g. {})",
            p.display(),
            p.join(FILE_NAME).display()
        ))),
        Some(p) if p.exists() => Err(UsageError::new(format!(
            "--suite {}: is not a regular file",
            p.display()
        ))),
        Some(p) => Err(UsageError::new(format!(
            "suite file {} does not exist",
            p.display()
        ))),
        None => find_default().ok_or_else(|| {
            UsageError::new(format!(
                "no {FILE_NAME} in the current directory or any parent; give one with --suite FILE"
            ))
        }),
    }
}

/// Reads and validates a suite file.
pub fn load(path: &Path) -> Result<Suite, UsageError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| UsageError::new(format!("cannot read suite file {}: {e}", path.display())))?;
    parse(path, &text)
}

/// Validates suite text that was read from `path`.
pub fn parse(path: &Path, text: &str) -> Result<Suite, UsageError> {
    let at = |span: Range<usize>, msg: String| {
        let (line, col) = line_col(text, span.start);
        UsageError::new(format!("{}:{line}:{col}: {msg}", path.display()))
    };
    let raw: RawSuite = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().to_string();
        match e.span() {
            Some(span) => at(span, format!("malformed suite file: {msg}")),
            None => UsageError::new(format!("{}: malformed suite file: {msg}", path.display())),
        }
    })?;
    let dir = path
        .canonicalize()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("."));

    let mut implementations: Vec<Implementation> = Vec::new();
    // (variant, its variant_of as written): checked once every name is known.
    let mut variants: Vec<(String, Spanned<String>)> = Vec::new();
    for entry in raw.implementation {
        let span = entry.span();
        let r = entry.into_inner();
        let name = r.name.get_ref().clone();
        if !valid_name(&name) {
            return Err(at(
                r.name.span(),
                format!("implementation name '{name}' must be non-empty [a-z0-9_-]"),
            ));
        }
        if implementations.iter().any(|i| i.name == name) {
            return Err(at(
                r.name.span(),
                format!("implementation '{name}' is defined twice"),
            ));
        }
        let run = template::split(r.run.get_ref())
            .and_then(|w| template::check_words(&w).map(|_| w))
            .map_err(|e| {
                at(
                    r.run.span(),
                    format!("implementation '{name}': run template: {e}"),
                )
            })?;
        for needed in ["{bench}", "{params}"] {
            if !run.iter().any(|w| w.contains(needed)) {
                return Err(at(
                    r.run.span(),
                    format!("implementation '{name}': run template lacks {needed}"),
                ));
            }
        }
        let mut env = Vec::new();
        for (k, v) in r.env {
            template::check_placeholders(v.get_ref())
                .map_err(|e| at(v.span(), format!("implementation '{name}': env {k}: {e}")))?;
            env.push((k, v.into_inner()));
        }
        let threads_in_template = run.iter().any(|w| w.contains("{threads}"))
            || env.iter().any(|(_, v)| v.contains("{threads}"));
        if r.threads_env.is_none() && !threads_in_template {
            return Err(at(
                span,
                format!(
                    "implementation '{name}': say how it gets its thread count: threads_env = \"VAR\", or {{threads}} in run or env"
                ),
            ));
        }
        if let Some(base) = r.variant_of {
            variants.push((name.clone(), base));
        }
        let mut apt = Vec::new();
        for p in r.apt {
            let span = p.span();
            let pkg = p.into_inner();
            // Debian package names: lower case letters, digits, `+ - .`; at least two.
            let ok = pkg.len() >= 2
                && pkg.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
                && pkg
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"+-.".contains(&b));
            if !ok {
                return Err(at(
                    span,
                    format!("implementation '{name}': apt: '{pkg}' is not a Debian package name"),
                ));
            }
            apt.push(pkg);
        }
        implementations.push(Implementation {
            variant_of: None,
            apt,
            name,
            language: r.language,
            build: r.build.filter(|b| !b.trim().is_empty()),
            run_template: r.run.into_inner(),
            run,
            threads_env: r.threads_env,
            env,
            available: r.available.filter(|b| !b.trim().is_empty()),
            version: r.version.filter(|b| !b.trim().is_empty()),
            install_hint: r.install_hint,
            install: r.install,
        });
    }

    for (name, base) in &variants {
        let target = base.get_ref();
        let problem = if target == name {
            Some(format!(
                "implementation '{name}': variant_of names itself; name the implementation it is a variant of"
            ))
        } else if !implementations.iter().any(|i| i.name == *target) {
            Some(format!(
                "implementation '{name}': variant_of '{target}' is not an implementation of this file (known: {})",
                names_of(&implementations)
            ))
        } else if let Some((_, grand)) = variants.iter().find(|(v, _)| v == target) {
            Some(format!(
                "implementation '{name}': variant_of '{target}' is itself a variant (of '{}'); name a base implementation",
                grand.get_ref()
            ))
        } else {
            None
        };
        if let Some(msg) = problem {
            return Err(at(base.span(), msg));
        }
    }
    for (name, base) in variants {
        if let Some(i) = implementations.iter_mut().find(|i| i.name == name) {
            i.variant_of = Some(base.into_inner());
        }
    }

    let mut benchmarks: Vec<Benchmark> = Vec::new();
    for entry in raw.benchmark {
        let r = entry.into_inner();
        let name = r.name.get_ref().clone();
        let spec = contract::find(&name).ok_or_else(|| {
            at(
                r.name.span(),
                format!(
                    "unknown benchmark '{name}' (known: {})",
                    contract::known_names()
                ),
            )
        })?;
        if benchmarks.iter().any(|b| b.name == name) {
            return Err(at(
                r.name.span(),
                format!("benchmark '{name}' is defined twice"),
            ));
        }
        let quick_span = r.quick.span();
        let quick = table_params(spec, r.quick.into_inner(), &at)?;
        spec.validate(&quick)
            .map_err(|e| at(quick_span.clone(), format!("quick: {e}")))?;
        let mut seed = quick.clone();
        let seed_span = r
            .seed
            .values()
            .next()
            .map(|v| v.span())
            .unwrap_or(quick_span.clone());
        for (k, v) in table_params(spec, r.seed, &at)?.iter() {
            seed.set(k, v);
        }
        spec.validate(&seed)
            .map_err(|e| at(seed_span, format!("seed: {e}")))?;
        let savina = match r.savina {
            None => None,
            Some(table) => {
                let span = table
                    .values()
                    .next()
                    .map(|v| v.span())
                    .unwrap_or(quick_span);
                let mut savina = quick.clone();
                for (k, v) in table_params(spec, table, &at)?.iter() {
                    savina.set(k, v);
                }
                spec.validate(&savina)
                    .map_err(|e| at(span, format!("savina: {e}")))?;
                Some(savina)
            }
        };
        let sweep = match r.sweep {
            None => None,
            Some(s) => {
                let span = s.span();
                let s = s.into_inner();
                if spec.param(&s.param).is_none() {
                    return Err(at(
                        span,
                        format!(
                            "sweep: {name} has no parameter '{}' (known: {})",
                            s.param,
                            spec.known_params()
                        ),
                    ));
                }
                for (profile, base, values) in
                    [("quick", &quick, &s.quick), ("seed", &seed, &s.seed)]
                {
                    if values.is_empty() {
                        return Err(at(
                            span.clone(),
                            format!("sweep: the {profile} list is empty"),
                        ));
                    }
                    for v in values {
                        let mut p = base.clone();
                        p.set(&s.param, *v);
                        spec.validate(&p)
                            .map_err(|e| at(span.clone(), format!("sweep ({profile}): {e}")))?;
                    }
                }
                Some(Sweep {
                    param: s.param,
                    quick: s.quick,
                    seed: s.seed,
                })
            }
        };
        benchmarks.push(Benchmark {
            name,
            spec,
            quick,
            seed,
            savina,
            sweep,
        });
    }
    if implementations.is_empty() {
        return Err(UsageError::new(format!(
            "{}: no [[implementation]] defined",
            path.display()
        )));
    }
    if benchmarks.is_empty() {
        return Err(UsageError::new(format!(
            "{}: no [[benchmark]] defined",
            path.display()
        )));
    }
    Ok(Suite {
        path: path.to_path_buf(),
        dir,
        implementations,
        benchmarks,
    })
}

fn table_params(
    spec: &BenchSpec,
    table: BTreeMap<String, Spanned<u64>>,
    at: &impl Fn(Range<usize>, String) -> UsageError,
) -> Result<Params, UsageError> {
    let mut params = Params::new();
    for (k, v) in table {
        if spec.param(&k).is_none() {
            return Err(at(
                v.span(),
                format!(
                    "{}: unknown parameter {k}={} (known: {})",
                    spec.name,
                    v.get_ref(),
                    spec.known_params()
                ),
            ));
        }
        params.set(&k, *v.get_ref());
    }
    let order: Vec<&str> = spec.params.iter().map(|p| p.name).collect();
    Ok(params.in_order_of(&order))
}

fn names_of(implementations: &[Implementation]) -> String {
    implementations
        .iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl Suite {
    /// The implementation called `name`.
    pub fn implementation(&self, name: &str) -> Option<&Implementation> {
        self.implementations.iter().find(|i| i.name == name)
    }

    /// The benchmark called `name`.
    pub fn benchmark(&self, name: &str) -> Option<&Benchmark> {
        self.benchmarks.iter().find(|b| b.name == name)
    }

    /// Implementation names, comma-separated.
    pub fn implementation_names(&self) -> String {
        names_of(&self.implementations)
    }

    /// The configuration variants, in file order: they run only when named with `--impl`.
    pub fn variants(&self) -> Vec<&Implementation> {
        self.implementations
            .iter()
            .filter(|i| i.is_variant())
            .collect()
    }

    /// The variants as `name (of base)`, comma-separated, for the line that says they
    /// were left out of a default selection; empty when there are none.
    pub fn variants_line(&self) -> String {
        self.variants()
            .iter()
            .map(|v| format!("{} (of {})", v.name, v.variant_of.as_deref().unwrap_or("?")))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Benchmark names, comma-separated.
    pub fn benchmark_names(&self) -> String {
        self.benchmarks
            .iter()
            .map(|b| b.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Resolves `--impl a,b` to implementations, in the order given (each once). With no
    /// names: every implementation that is not a variant, in file order; a variant runs
    /// only when it is named.
    pub fn select_implementations(
        &self,
        names: &[String],
    ) -> Result<Vec<&Implementation>, UsageError> {
        if names.is_empty() {
            return Ok(self
                .implementations
                .iter()
                .filter(|i| !i.is_variant())
                .collect());
        }
        let mut out: Vec<&Implementation> = Vec::new();
        for n in names {
            let i = self.implementation(n).ok_or_else(|| {
                UsageError::new(format!(
                    "unknown implementation '{n}' (known: {})",
                    self.implementation_names()
                ))
            })?;
            if !out.iter().any(|o| o.name == i.name) {
                out.push(i);
            }
        }
        Ok(out)
    }

    /// Resolves `--bench x,y` (empty: all) to benchmarks, in suite order.
    pub fn select_benchmarks(&self, names: &[String]) -> Result<Vec<&Benchmark>, UsageError> {
        for n in names {
            if self.benchmark(n).is_none() {
                return Err(UsageError::new(format!(
                    "unknown benchmark '{n}' (known: {})",
                    self.benchmark_names()
                )));
            }
        }
        Ok(self
            .benchmarks
            .iter()
            .filter(|b| names.is_empty() || names.contains(&b.name))
            .collect())
    }

    /// The benchmarks named (all when `names` is empty) that `profile` runs; naming one
    /// that the profile does not run (savina, a benchmark with no Savina counterpart) is an
    /// error that says so.
    pub fn select_benchmarks_in(
        &self,
        names: &[String],
        profile: Profile,
    ) -> Result<Vec<&Benchmark>, UsageError> {
        let all = self.select_benchmarks(names)?;
        if let Some(b) = all
            .iter()
            .find(|b| !names.is_empty() && !b.in_profile(profile))
        {
            return Err(UsageError::new(format!(
                "benchmark '{}' is not in the {} profile (it has no `{}` table in the suite file)",
                b.name,
                profile.name(),
                profile.name()
            )));
        }
        let chosen: Vec<&Benchmark> = all.into_iter().filter(|b| b.in_profile(profile)).collect();
        if chosen.is_empty() {
            return Err(UsageError::new(format!(
                "no benchmark of the suite file is in the {} profile",
                profile.name()
            )));
        }
        Ok(chosen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
[[implementation]]
name = "fake"
language = "sh"
run = "./fake.sh {bench} {params}"
threads_env = "FAKE_THREADS"

[[benchmark]]
name = "threadring"
quick = { actors = 3, hops = 10 }
seed = { hops = 100 }
sweep = { param = "hops", quick = [1, 2], seed = [3] }
"#;

    #[test]
    fn the_savina_profile_runs_only_benchmarks_with_a_savina_table() {
        let text = format!(
            "{GOOD}\n[[benchmark]]\nname = \"banking\"\n\
             quick = {{ accounts = 10, transactions = 5 }}\n\
             savina = {{ accounts = 1000, transactions = 50000 }}\n"
        );
        let s = parse(Path::new("suite.toml"), &text).unwrap();
        let chosen = s.select_benchmarks_in(&[], Profile::Savina).unwrap();
        let names: Vec<&str> = chosen.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["banking"]);
        let banking = chosen[0];
        assert_eq!(
            banking.points(Profile::Savina, true)[0].to_string(),
            "accounts=1000 transactions=50000"
        );
        assert_eq!(
            s.select_benchmarks_in(&[], Profile::Quick).unwrap().len(),
            2
        );
        let err = s
            .select_benchmarks_in(&["threadring".into()], Profile::Savina)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("threadring") && err.contains("savina"),
            "{err}"
        );
        let bad = text.replace("transactions = 50000", "transactions = 1000000000");
        let err = parse(Path::new("suite.toml"), &bad)
            .unwrap_err()
            .to_string();
        assert!(err.contains("savina: banking: transactions="), "{err}");
    }

    /// The repository's own suite file: it loads, has every benchmark of the contract,
    /// and its savina profile holds the sixteen with a Savina counterpart.
    #[test]
    fn the_repositorys_suite_file_has_every_benchmark_and_the_savina_sixteen() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../suite.toml");
        let suite = load(&path).unwrap();
        let names: Vec<&str> = suite.benchmarks.iter().map(|b| b.name.as_str()).collect();
        let contract: Vec<&str> = contract::BENCHMARKS.iter().map(|b| b.name).collect();
        assert_eq!(names, contract);
        let savina: Vec<&str> = suite
            .select_benchmarks_in(&[], Profile::Savina)
            .unwrap()
            .iter()
            .map(|b| b.name.as_str())
            .collect();
        assert_eq!(
            savina,
            [
                "threadring",
                "chameneos",
                "big",
                "fibtree",
                "pingpong",
                "counting",
                "fjthrput",
                "fjcreate",
                "concdict",
                "concsll",
                "bndbuffer",
                "philosopher",
                "barber",
                "cigsmok",
                "logmap",
                "banking"
            ]
        );
    }

    #[test]
    fn parses_a_good_suite() {
        let s = parse(Path::new("suite.toml"), GOOD).unwrap();
        let b = &s.benchmarks[0];
        assert_eq!(b.quick.to_string(), "actors=3 hops=10");
        assert_eq!(b.seed.to_string(), "actors=3 hops=100");
        assert_eq!(b.points(Profile::Quick, true).len(), 2);
        let (argv, env) = s.implementations[0].command("threadring", &b.quick, 2);
        assert_eq!(argv, ["./fake.sh", "threadring", "actors=3", "hops=10"]);
        assert_eq!(env, [("FAKE_THREADS".to_string(), "2".to_string())]);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let bad = GOOD.replace("hops = 10", "hopz = 10");
        let e = parse(Path::new("suite.toml"), &bad).unwrap_err().0;
        assert!(e.starts_with("suite.toml:10:") && e.contains("hopz"), "{e}");
        let e = parse(Path::new("suite.toml"), "[[implementation]\nname=")
            .unwrap_err()
            .0;
        assert!(
            e.starts_with("suite.toml:1:") && e.contains("malformed"),
            "{e}"
        );
        let e = parse(
            Path::new("suite.toml"),
            &GOOD.replace("threads_env = \"FAKE_THREADS\"", ""),
        )
        .unwrap_err()
        .0;
        assert!(e.contains("thread count"), "{e}");
        let e = parse(Path::new("suite.toml"), &GOOD.replace("language", "lang"))
            .unwrap_err()
            .0;
        assert!(e.starts_with("suite.toml:"), "{e}");
    }

    /// GOOD with a base `fake` and, before it, a variant `fake-fast` of it.
    fn with_variant(variant_of: &str) -> String {
        let variant = format!(
            "[[implementation]]\nname = \"fake-fast\"\nvariant_of = \"{variant_of}\"\nlanguage = \"sh\"\n\
             run = \"./fake.sh {{bench}} {{params}}\"\nthreads_env = \"FAKE_THREADS\"\nenv = {{ FAKE_MODE = \"fast\" }}\n"
        );
        format!("{variant}{GOOD}")
    }

    #[test]
    fn variants_parse_and_stay_out_of_the_default_selection() {
        // The variant comes first: variant_of may name an implementation defined later.
        let s = parse(Path::new("suite.toml"), &with_variant("fake")).unwrap();
        let v = s.implementation("fake-fast").unwrap();
        assert_eq!(v.variant_of.as_deref(), Some("fake"));
        assert!(v.is_variant() && !s.implementation("fake").unwrap().is_variant());
        assert_eq!(v.env_words(), "FAKE_MODE=fast");
        let (_, env) = v.command("threadring", &s.benchmarks[0].quick, 1);
        assert_eq!(
            env,
            [
                ("FAKE_MODE".to_string(), "fast".to_string()),
                ("FAKE_THREADS".to_string(), "1".to_string())
            ]
        );
        let names = |sel: Vec<&Implementation>| -> Vec<String> {
            sel.iter().map(|i| i.name.clone()).collect()
        };
        assert_eq!(names(s.select_implementations(&[]).unwrap()), ["fake"]);
        let asked = ["fake-fast".to_string(), "fake".to_string()];
        assert_eq!(
            names(s.select_implementations(&asked).unwrap()),
            ["fake-fast", "fake"]
        );
        assert_eq!(names(s.variants()), ["fake-fast"]);
        assert_eq!(s.variants_line(), "fake-fast (of fake)");
        let plain = parse(Path::new("suite.toml"), GOOD).unwrap();
        assert!(plain.variants().is_empty() && plain.variants_line().is_empty());
    }

    #[test]
    fn variant_of_must_name_a_base_implementation() {
        let err = |text: &str| parse(Path::new("suite.toml"), text).unwrap_err().0;
        // Line 3, column 14: the value of variant_of in the first block.
        let e = err(&with_variant("nosuch"));
        assert!(
            e.starts_with("suite.toml:3:14: ") && e.contains("'nosuch' is not an implementation"),
            "{e}"
        );
        let e = err(&with_variant("fake-fast"));
        assert!(
            e.starts_with("suite.toml:3:14: ") && e.contains("names itself"),
            "{e}"
        );
        // A variant of a variant: fake-slow varies fake-fast, which varies fake.
        let chain = format!(
            "{}\n[[implementation]]\nname = \"fake-slow\"\nvariant_of = \"fake-fast\"\nlanguage = \"sh\"\n\
             run = \"./fake.sh {{bench}} {{params}}\"\nthreads_env = \"FAKE_THREADS\"\n",
            with_variant("fake")
        );
        let e = err(&chain);
        let line = chain
            .lines()
            .position(|l| l == "variant_of = \"fake-fast\"")
            .unwrap()
            + 1;
        assert!(
            e.starts_with(&format!("suite.toml:{line}:14: "))
                && e.contains("'fake-fast' is itself a variant (of 'fake')"),
            "{e}"
        );
        let e = err(&with_variant("fake").replace("variant_of = \"fake\"", "variant_of = 3"));
        assert!(
            e.starts_with("suite.toml:3:") && e.contains("malformed"),
            "{e}"
        );
    }
}
