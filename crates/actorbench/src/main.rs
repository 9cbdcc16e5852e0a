//! `actorbench`: the command-line shell over the harness library. Each subcommand parses
//! its flags and calls one library function; errors print as one line, with the exit
//! status of [`actorbench::error`]: 1 a failed check, 2 bad input, 3 a store or I/O error.

use std::path::PathBuf;
use std::process::ExitCode;

use actorbench::compare::{self, CompareFormat};
use actorbench::error::exit_status;
use actorbench::export::Format;
use actorbench::metric::Metric;
use actorbench::one_run::OneRunOptions;
use actorbench::plan::{Order, Settle};
use actorbench::session::{self, RunOptions};
use actorbench::suite::Profile;
use actorbench::summary::View;
use actorbench::{commands, peers, verify};
use clap::{Parser, Subcommand};

/// Runs, pins, measures, checks and stores actor benchmark runs across runtimes.
#[derive(Parser)]
#[command(name = "actorbench", version, about, long_about = None)]
struct Cli {
    /// The suite file (default: suite.toml here or in the nearest parent directory).
    #[arg(long, global = true, value_name = "FILE")]
    suite: Option<PathBuf>,
    /// The results database: an SQLite file or a postgres:// URL (default:
    /// results/actorbench.sqlite beside the suite file). A URL needs no password: it comes
    /// from PGPASSWORD or ~/.pgpass (PGPASSFILE) when the URL has none.
    #[arg(
        long,
        global = true,
        value_name = "PATH|URL",
        env = "ACTORBENCH_DB",
        hide_env_values = true
    )]
    db: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build, run, measure and check every chosen benchmark; store and print the results.
    Run(Box<RunArgs>),
    /// List the stored sessions.
    List,
    /// Print a stored session's tables again.
    Show {
        /// Session number, or `latest` (the default).
        session: Option<String>,
        #[command(flatten)]
        view: ViewArgs,
    },
    /// Export a stored session.
    Export {
        /// Session number, or `latest` (the default).
        session: Option<String>,
        /// Output format.
        #[arg(long, value_enum)]
        format: Format,
        /// Output file (default: standard output).
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
        #[command(flatten)]
        view: ViewArgs,
    },
    /// Run every test vector (and the bad-input cases) against implementations.
    Verify {
        /// Implementations to verify (default: every available one that is not a variant).
        #[arg(long = "impl", value_delimiter = ',', value_name = "A,B")]
        implementations: Vec<String>,
        /// Thread counts to verify at (default: 1 and 2, as far as the machine has CPUs).
        #[arg(long, value_delimiter = ',', value_name = "1,2")]
        threads: Vec<usize>,
        /// The vectors file (default: docs/vectors.tsv beside the suite file).
        #[arg(long, value_name = "FILE")]
        vectors: Option<PathBuf>,
        /// Seconds each process may take.
        #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
        timeout: f64,
        /// Do not run the build commands; use the programs as they are.
        #[arg(long)]
        no_build: bool,
        /// Resident-memory limit of each process's group: a size (4GiB, 512MiB) or
        /// `off` (default: 3/4 of the memory available at the start).
        #[arg(long, value_name = "SIZE|off")]
        memory_limit: Option<String>,
    },
    /// Write the HTML report (figures as SVG) of a stored session.
    Report {
        /// Session number, or `latest` (the default).
        session: Option<String>,
        /// Output directory (default: report/ beside the database).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        #[command(flatten)]
        view: ViewArgs,
    },
    /// Compare two stored sessions cell by cell as a CI gate: exit 0 when no cell fails
    /// (a regression, a broken or missing cell, too few runs), 1 when one does.
    Compare {
        /// The baseline session (number or `latest`).
        a: String,
        /// The session to judge.
        b: String,
        /// Smallest change, in percent, that counts as a regression or improvement.
        #[arg(long, default_value_t = 5.0, value_name = "PCT")]
        threshold: f64,
        /// Significance level, after Holm's correction over every tested cell.
        #[arg(long, default_value_t = 0.05)]
        alpha: f64,
        /// The test of each cell: Welch's t-test on log times, or Mann-Whitney U.
        #[arg(long, value_enum, default_value_t = compare::Test::Welch)]
        test: compare::Test,
        /// Compare sessions measured on different hosts, with different profiles or
        /// toolchain versions (refused otherwise); each difference is printed.
        #[arg(long)]
        allow_mismatch: bool,
        /// Compare a session that did not finish (interrupted or abandoned); refused
        /// otherwise, as its unmeasured cells would pass.
        #[arg(long)]
        allow_incomplete: bool,
        /// Compare (and correct for many cells over) only these implementations' cells.
        #[arg(long = "impl", value_delimiter = ',', value_name = "A,B")]
        implementations: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
        format: CompareFormat,
        /// The same as --format json: one JSON object, for CI bots.
        #[arg(long, conflicts_with = "format")]
        json: bool,
        #[command(flatten)]
        view: ViewArgs,
    },
    /// Copy the sessions of another store (an SQLite file) into this one (`--db`, e.g. a
    /// postgres:// URL): all or nothing, skipping sessions it already has.
    Import {
        /// The store to copy from.
        source: PathBuf,
    },
    /// One cell's figure across every stored session and commit, with change points
    /// (E-divisive means).
    History {
        /// Benchmark.
        bench: String,
        /// Implementation.
        #[arg(long = "impl", value_name = "IMPL")]
        implementation: String,
        /// Parameters, `key=value ...` (default: the newest session's last set).
        #[arg(long, value_name = "PARAMS")]
        params: Option<String>,
        /// Cores (default: the newest session's highest count).
        #[arg(long, value_name = "K")]
        cores: Option<i64>,
        /// The time or event counter shown (default: work; wall for sessions without
        /// work times).
        #[arg(long, value_enum, value_name = "METRIC")]
        metric: Option<Metric>,
        /// Also write the time series as an SVG file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Only sessions run on this host (default: the host running this command).
        #[arg(long, value_name = "NAME", conflicts_with = "all_hosts")]
        host: Option<String>,
        /// Sessions of every host.
        #[arg(long)]
        all_hosts: bool,
        /// Only sessions of this profile.
        #[arg(long, value_name = "NAME")]
        profile: Option<String>,
        /// Also interrupted, abandoned and running sessions (marked).
        #[arg(long)]
        include_incomplete: bool,
    },
    /// Count the instructions per unit of work (hop, message, actor) of a native
    /// implementation under callgrind, at two sizes; stored as a session of kind `count`.
    Count(Box<InstrumentArgs>),
    /// Record one run with `perf record -g` and write its flame graph (SVG).
    Profile {
        #[command(flatten)]
        args: Box<InstrumentArgs>,
        /// The SVG file (default: profiles/BENCH-IMPL-Kc.svg in the report directory).
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// List every implementation with its availability and toolchain version, or install.
    Peers {
        #[command(subcommand)]
        action: Option<PeersAction>,
    },
}

#[derive(Subcommand)]
enum PeersAction {
    /// Run the install steps of each missing implementation (default: every one that is
    /// not a variant), report each, and fail only if an install failed.
    Install {
        /// Implementations to install.
        names: Vec<String>,
        /// Run the install steps even for implementations that are available.
        #[arg(long)]
        force: bool,
        /// Seconds each install command (apt-get update, apt-get install, each step) may
        /// take before it is killed.
        #[arg(long, default_value_t = 1800.0, value_name = "SECONDS")]
        timeout: f64,
    },
}

/// The flags of `count` and `profile`: one implementation on one benchmark.
#[derive(clap::Args)]
struct InstrumentArgs {
    /// Benchmark.
    bench: String,
    /// Implementation.
    #[arg(long = "impl", value_name = "IMPL")]
    implementation: String,
    /// Parameter profile (for `count`, the smaller of the two sizes).
    #[arg(long, value_enum, default_value_t = Profile::Quick)]
    profile: Profile,
    /// Override a parameter: `key=value`. Repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// CPUs to pin to and threads to ask for.
    #[arg(long, default_value_t = 1, value_name = "K")]
    cores: usize,
    /// Seconds the run may take (it runs far slower under callgrind).
    #[arg(long, default_value_t = 600.0, value_name = "SECONDS")]
    timeout: f64,
    /// Do not run the build command; use the program as it is.
    #[arg(long)]
    no_build: bool,
}

impl InstrumentArgs {
    /// The library's options for the one run these flags choose, in the suite and store
    /// the global flags name.
    fn one_run(self, suite: Option<PathBuf>, db: Option<PathBuf>) -> OneRunOptions {
        OneRunOptions {
            suite,
            db,
            bench: self.bench,
            implementation: self.implementation,
            profile: self.profile,
            params: self.params,
            cores: self.cores,
            timeout: self.timeout,
            no_build: self.no_build,
        }
    }
}

#[derive(clap::Args)]
struct RunArgs {
    /// Implementations to run (default: every available one that is not a variant).
    #[arg(long = "impl", value_delimiter = ',', value_name = "A,B")]
    implementations: Vec<String>,
    /// Benchmarks to run (default: all in the suite).
    #[arg(long = "bench", value_delimiter = ',', value_name = "X,Y")]
    benches: Vec<String>,
    /// Parameter profile.
    #[arg(long, value_enum, default_value_t = Profile::Quick)]
    profile: Profile,
    /// Override a parameter: `key=value` (every chosen benchmark with that parameter) or
    /// `bench.key=value`. Repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Run each benchmark's sweep (its values for the profile) instead of one point.
    #[arg(long)]
    sweep: bool,
    /// Core counts (default: every count from 1 to the number of CPUs).
    #[arg(long, value_delimiter = ',', value_name = "1,2")]
    cores: Vec<usize>,
    /// Measured runs per cell, fixed (otherwise adaptive: see --min-reps, --max-reps,
    /// --target-ci). Not cut short by the quick profile's default budget.
    #[arg(long, value_name = "N")]
    reps: Option<u32>,
    /// Adaptive: fewest measured runs per cell [default: 3].
    #[arg(long, value_name = "N")]
    min_reps: Option<u32>,
    /// Adaptive: most measured runs per cell [default: 10].
    #[arg(long, value_name = "N")]
    max_reps: Option<u32>,
    /// Adaptive: stop a cell once the 95% interval of its median is within ±P% of it
    /// [default: 2].
    #[arg(long, value_name = "P")]
    target_ci: Option<f64>,
    /// Warmup runs per cell (kept, not counted).
    #[arg(long, default_value_t = 1)]
    warmup: u32,
    /// Seconds each run may take before its process group is killed.
    #[arg(long, default_value_t = 120.0, value_name = "SECONDS")]
    timeout: f64,
    /// Resident-memory limit of each run's process group: a size (4GiB, 512MiB) or `off`
    /// (default: 3/4 of the memory available at the start). A run over it is killed and
    /// stored as failed (`memory-limit`).
    #[arg(long, value_name = "SIZE|off")]
    memory_limit: Option<String>,
    /// Time budget in seconds: after each round, stop when the next round would not fit;
    /// at least one measured round always runs. The quick profile with adaptive
    /// repetitions defaults to 600 (the main job fits in about 10 minutes); an explicit
    /// --reps gets no default budget; 0 means no budget.
    #[arg(long, value_name = "SECONDS")]
    budget: Option<f64>,
    /// Run order.
    #[arg(long, value_enum, default_value_t = Order::Interleaved)]
    order: Order,
    /// Interleaved order: which measured runs get one more warmup run of their own cell
    /// first, since the first run after a change can pay for it: the first of a benchmark
    /// point and core count after another's (group), every one after another cell's (cell,
    /// up to twice the runs), or none (off). Other orders do not settle.
    #[arg(long, value_enum, default_value_t = Settle::Group)]
    settle: Settle,
    /// Seed of the random order (default: from the clock; stored with the session).
    #[arg(long, value_name = "N")]
    shuffle_seed: Option<u64>,
    /// Also write the session as JSON.
    #[arg(long, value_name = "FILE")]
    export_json: Option<PathBuf>,
    /// Also write the session's runs as CSV.
    #[arg(long, value_name = "FILE")]
    export_csv: Option<PathBuf>,
    /// Also write the session's tables as Markdown.
    #[arg(long, value_name = "FILE")]
    export_markdown: Option<PathBuf>,
    /// Do not write the HTML report.
    #[arg(long)]
    no_report: bool,
    /// Do not run the build commands; use the programs as they are.
    #[arg(long)]
    no_build: bool,
    /// Run the install steps (suite.toml's `install`) of each chosen implementation that
    /// is missing, before the session; without it a missing one is skipped with its hint.
    #[arg(long)]
    install_missing: bool,
    /// Let the runtime knobs of this shell's environment (FOOTLIGHTS_*, GOGC, GOMAXPROCS,
    /// JAVA_TOOL_OPTIONS, ERL_FLAGS, MIMALLOC_*, TOKIO_*, CAF_*, ...) reach the runs; by
    /// default they are removed. Either way the session records them.
    #[arg(long)]
    inherit_env: bool,
    /// Where to write the report (default: report/ beside the database).
    #[arg(long, value_name = "DIR")]
    report_dir: Option<PathBuf>,
    #[command(flatten)]
    view: ViewArgs,
}

/// How the figures are seen: the flags shared by `run`, `show`, `export`, `report` and
/// `compare`.
#[derive(clap::Args)]
struct ViewArgs {
    /// The time ratios, geometric means and the gate use: the program's work time
    /// (seconds=, start-up left out), the process's wall time, its CPU time, or an
    /// event counter (page-faults, context-switches, ...). Default: work (wall for a
    /// session stored before work times were recorded).
    #[arg(long, value_enum, value_name = "METRIC")]
    metric: Option<Metric>,
    /// Give ratios against this implementation's cell at the same core count instead of
    /// against the fastest cell.
    #[arg(long, value_name = "IMPL")]
    baseline: Option<String>,
}

impl ViewArgs {
    fn view(&self) -> View {
        View {
            metric: self.metric,
            baseline: self.baseline.clone(),
        }
    }
}

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`actorbench show | head`) instead of panicking.
    // SAFETY: setting a signal disposition to its default before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(a) => session::run(&RunOptions {
            suite: cli.suite,
            implementations: a.implementations,
            benches: a.benches,
            profile: a.profile,
            params: a.params,
            sweep: a.sweep,
            cores: a.cores,
            reps: a.reps,
            min_reps: a.min_reps,
            max_reps: a.max_reps,
            target_ci: a.target_ci,
            warmup: a.warmup,
            timeout: a.timeout,
            memory_limit: a.memory_limit,
            order: a.order,
            settle: a.settle,
            budget: a.budget,
            seed: a.shuffle_seed,
            db: cli.db,
            export_json: a.export_json,
            export_csv: a.export_csv,
            export_markdown: a.export_markdown,
            no_report: a.no_report,
            no_build: a.no_build,
            install_missing: a.install_missing,
            inherit_env: a.inherit_env,
            report_dir: a.report_dir,
            view: a.view.view(),
        }),
        Command::List => commands::open_db(cli.db.as_deref(), cli.suite.as_deref())
            .and_then(|s| commands::list(&s)),
        Command::Show { session, view } => {
            commands::open_db(cli.db.as_deref(), cli.suite.as_deref())
                .and_then(|s| commands::show(&s, session.as_deref(), &view.view()))
        }
        Command::Export {
            session,
            format,
            out,
            view,
        } => commands::open_db(cli.db.as_deref(), cli.suite.as_deref())
            .and_then(|s| commands::export(&s, session.as_deref(), format, out, &view.view())),
        Command::Verify {
            implementations,
            threads,
            vectors,
            timeout,
            no_build,
            memory_limit,
        } => verify::run(&verify::VerifyOptions {
            suite: cli.suite,
            implementations,
            threads,
            vectors,
            timeout,
            no_build,
            memory_limit,
        }),
        Command::Report { session, out, view } => {
            commands::open_db(cli.db.as_deref(), cli.suite.as_deref())
                .and_then(|s| commands::report(&s, session.as_deref(), out, &view.view()))
        }
        Command::Compare {
            a,
            b,
            threshold,
            alpha,
            test,
            allow_mismatch,
            allow_incomplete,
            implementations,
            format,
            json,
            view,
        } => {
            let opts = compare::Options {
                metric: view.metric,
                threshold_pct: threshold,
                alpha,
                test,
                allow_mismatch,
                allow_incomplete,
                implementations,
                format: if json { CompareFormat::Json } else { format },
            };
            commands::open_db(cli.db.as_deref(), cli.suite.as_deref())
                .and_then(|s| compare::run(&s, &a, &b, &opts))
        }
        Command::Import { source } => {
            commands::import(cli.db.as_deref(), cli.suite.as_deref(), &source)
        }
        Command::History {
            bench,
            implementation,
            params,
            cores,
            metric,
            svg,
            host,
            all_hosts,
            profile,
            include_incomplete,
        } => {
            let q = actorbench::history::Query {
                bench,
                implementation,
                params,
                cores,
                metric,
                up_to: None,
                hosts: match (host, all_hosts) {
                    (_, true) => actorbench::history::Hosts::All,
                    (Some(h), false) => actorbench::history::Hosts::Named(h),
                    (None, false) => actorbench::history::Hosts::This,
                },
                profile,
                include_incomplete,
            };
            commands::open_db(cli.db.as_deref(), cli.suite.as_deref())
                .and_then(|s| actorbench::commands::history(&s, &q, svg.as_deref()))
        }
        Command::Count(a) => actorbench::count::run(&a.one_run(cli.suite, cli.db)),
        Command::Profile { args: a, out } => {
            actorbench::profile::run(&actorbench::profile::ProfileOptions {
                run: a.one_run(cli.suite, cli.db),
                out,
            })
        }
        Command::Peers { action: None } => peers::list(cli.suite.as_deref()),
        Command::Peers {
            action:
                Some(PeersAction::Install {
                    names,
                    force,
                    timeout,
                }),
        } => {
            if timeout.is_finite() && timeout > 0.0 {
                peers::install(
                    cli.suite.as_deref(),
                    &names,
                    force,
                    std::time::Duration::from_secs_f64(timeout),
                )
            } else {
                Err(actorbench::UsageError::new(format!(
                    "--timeout {timeout}: give a positive number of seconds"
                ))
                .into())
            }
        }
    };
    match result {
        Ok(code) => ExitCode::from(code.clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(exit_status(&e) as u8)
        }
    }
}
