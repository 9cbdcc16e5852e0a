//! What the store keeps: one record type per table, as every command reads and writes it.

use serde::Serialize;

/// A session as stored.
#[derive(Debug, Clone, Serialize, Default)]
pub struct SessionRecord {
    /// Row id, the session's number.
    pub id: i64,
    /// RFC 3339 UTC start time.
    pub started_at: String,
    /// RFC 3339 UTC end time, once ended.
    pub ended_at: Option<String>,
    /// `running`, `complete` or `interrupted`.
    pub status: String,
    /// `git rev-parse HEAD` of the suite's checkout (`-dirty` appended when modified).
    pub git_commit: String,
    /// CPU model name.
    pub host_cpu: String,
    /// CPUs the harness could use.
    pub host_cores: i64,
    /// Total memory in bytes.
    pub host_memory_bytes: i64,
    /// Kernel name and release.
    pub host_kernel: String,
    /// The harness's command line.
    pub command_line: String,
    /// `quick` or `seed`.
    pub profile: String,
    /// Reps, warmup, timeout, order, cores and sweep, as JSON.
    pub settings: String,
    /// The suite file used.
    pub suite_path: String,
    /// A unique id across stores (128 random bits, hex), so that `import` recognises a
    /// session it has copied before (schema 4).
    pub uid: String,
    /// The harness's own version: crate version and the git commit it was built from.
    pub harness_version: String,
    /// The harness process that runs the session: `host=H boot=B pid=P start=T` (see
    /// [`crate::owner`]), so a session left `running` by a dead harness can be told apart.
    pub owner: String,
    /// CPU frequency governor of the CPUs the runs use (`performance`, `powersave`, ...;
    /// `cpu0=a cpu1=b` when they differ; `none` without cpufreq).
    pub cpu_governor: String,
    /// Simultaneous multithreading: `/sys/devices/system/cpu/smt/control` and whether it
    /// is active, e.g. `on (active)`, `off`, `notsupported`.
    pub smt: String,
    /// Load averages (1, 5, 15 minutes) when the session started.
    pub load_before: String,
    /// Load averages when it ended.
    pub load_after: Option<String>,
    /// CPUs that other processes used on average while it ran (the machine's busy time
    /// on the harness's CPUs less the harness's and its children's own CPU time).
    pub others_cpu: Option<f64>,
    /// Why the session counts as run on a busy machine (see
    /// [`crate::environment::busy_note`]); empty when it does not.
    pub busy: String,
    /// Transparent huge pages: the bracketed choice of
    /// `/sys/kernel/mm/transparent_hugepage/enabled` (`always`, `madvise`, `never`), or
    /// `unknown` (schema 5).
    pub thp: String,
    /// CPU boost or turbo: `on`, `off` or `unknown` (see [`crate::machine`]) (schema 5).
    pub cpu_boost: String,
    /// The harness's cgroup CPU quota: `max` (none), `1.50 CPUs`, or `unknown` (schema 5).
    pub cgroup_cpu: String,
    /// How runtime knobs in the harness's environment reached the runs: `clean` (removed,
    /// the default) or `inherit` (`--inherit-env`); empty before schema 5.
    pub env_mode: String,
    /// The runtime knobs found in the harness's environment, `K=V` words (see
    /// [`crate::knobs`]); with `env_mode` `clean` none of them reached a run.
    pub env_knobs: String,
    /// What made it (schema 6): `run` (a measuring session), or `count` (instruction
    /// counts under callgrind, [`crate::count`]). Empty means `run` when inserted.
    pub kind: String,
}

/// An implementation as a session saw it.
#[derive(Debug, Clone, Serialize, Default)]
pub struct ImplRecord {
    /// Implementation name.
    pub name: String,
    /// Its language.
    pub language: String,
    /// Its toolchain version (first line of the version command), or empty.
    pub version: String,
    /// `available`, `missing` or `build-failed`.
    pub status: String,
    /// Why it is missing or failed to build.
    pub detail: String,
    /// Its run template.
    pub run_template: String,
    /// The implementation it is a configuration variant of, or empty.
    pub variant_of: String,
    /// Its extra environment as written in the suite, `K=V` words, or empty.
    pub env: String,
    /// SHA-256 of the files its runs executed: `path=HEX` words (the program, and any
    /// argument that names a file, such as a jar), or empty when it did not run (schema 5).
    pub binary_sha256: String,
}

/// One run as stored.
#[derive(Debug, Clone, Serialize, Default)]
pub struct RunRecord {
    /// Row id.
    pub id: i64,
    /// Session it belongs to.
    pub session_id: i64,
    /// Position in the session's order.
    pub seq: i64,
    /// Implementation name.
    pub implementation: String,
    /// Benchmark name.
    pub bench: String,
    /// Canonical parameters, `actors=503 hops=1000000`.
    pub params: String,
    /// CPUs it was pinned to, and its thread count.
    pub cores: i64,
    /// Repetition number within its phase (warmup or measured), from 0.
    pub rep: i64,
    /// A warmup run (kept, not counted in the statistics).
    pub warmup: bool,
    /// RFC 3339 UTC start time.
    pub started_at: String,
    /// The command that ran (argv joined, with the thread environment).
    pub command: String,
    /// `ok`, `wrong-answer`, `bad-output`, `exit`, `signal`, `timeout` or `spawn`.
    pub status: String,
    /// Exit status, when it exited.
    pub exit_code: Option<i64>,
    /// Signal number, when a signal ended it.
    pub signal: Option<i64>,
    /// Wall seconds of the whole process, measured by the harness.
    pub wall_s: f64,
    /// Work seconds the program printed (`seconds=`, its in-process time of the work);
    /// `None` when it printed no valid one.
    pub work_s: Option<f64>,
    /// User CPU seconds.
    pub user_s: f64,
    /// System CPU seconds.
    pub sys_s: f64,
    /// (user + sys) / wall.
    pub cpu_util: f64,
    /// Peak RSS in bytes.
    pub max_rss_bytes: i64,
    /// Voluntary context switches.
    pub voluntary_switches: i64,
    /// Involuntary context switches.
    pub involuntary_switches: i64,
    /// The check the harness expected.
    pub expected_check: Option<String>,
    /// The check the program printed.
    pub check_value: Option<String>,
    /// The result line as printed.
    pub result_line: Option<String>,
    /// Chameneos counts, comma-separated.
    pub counts: Option<String>,
    /// Chameneos: stddev of the counts.
    pub fairness_stddev: Option<f64>,
    /// Chameneos: coefficient of variation.
    pub fairness_cv: Option<f64>,
    /// Chameneos: Jain's index.
    pub fairness_jain: Option<f64>,
    /// Chameneos: smallest count.
    pub fairness_min: Option<i64>,
    /// Chameneos: largest count.
    pub fairness_max: Option<i64>,
    /// Chameneos: the ideal count 2M/C.
    pub fairness_ideal: Option<f64>,
    /// Bytes the program wrote to stdout.
    pub stdout_bytes: i64,
    /// Bytes the program wrote to stderr.
    pub stderr_bytes: i64,
    /// The last part of its stderr (failures only).
    pub stderr_tail: String,
    /// What went wrong, in words (failures only).
    pub detail: String,
    /// Event counts over its process tree, by name (table `run_counter`, schema 6): see
    /// [`crate::counters`]; a `count` session's runs hold `callgrind-ir`.
    pub counters: std::collections::BTreeMap<String, f64>,
}

impl RunRecord {
    /// Whether the run succeeded with the right answer.
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }
}

/// How many measured runs a cell got in a session, and why it stopped there.
#[derive(Debug, Clone, Serialize, Default, PartialEq, Eq)]
pub struct CellRecord {
    /// Implementation name.
    pub implementation: String,
    /// Benchmark name.
    pub bench: String,
    /// Canonical parameters.
    pub params: String,
    /// Cores.
    pub cores: i64,
    /// Measured runs it got (failed ones included).
    pub measured: i64,
    /// `reps`, `target-ci`, `max-reps`, `budget` or `interrupted`.
    pub stop: String,
}

/// A whole stored session: the session row, its implementations, its cells' stopping
/// records and every run.
#[derive(Debug, Clone, Serialize, Default)]
pub struct SessionData {
    /// The session.
    pub session: SessionRecord,
    /// Its implementations.
    pub implementations: Vec<ImplRecord>,
    /// Per cell: measured runs and why it stopped (empty for sessions before schema 3).
    pub cells: Vec<CellRecord>,
    /// Its runs, in run order.
    pub runs: Vec<RunRecord>,
}
