//! Machine settings that change how fast the same program runs, recorded with each
//! session: transparent huge pages, CPU boost (turbo), and the cgroup CPU quota.
//!
//! - **Transparent huge pages**: the bracketed choice in
//!   `/sys/kernel/mm/transparent_hugepage/enabled` (`always`, `madvise` or `never`). With
//!   `always`, a runtime with large heaps may get 2 MiB pages without asking, which
//!   changes its TLB misses and its page-fault counts.
//! - **CPU boost**: `/sys/devices/system/cpu/cpufreq/boost` (AMD and `acpi-cpufreq`:
//!   `1` is on) or `/sys/devices/system/cpu/intel_pstate/no_turbo` (Intel: `1` means
//!   turbo is off). Turbo lets a lightly loaded CPU run faster than a fully loaded one,
//!   which flatters the 1-core cells. `unknown` when neither file exists (most virtual
//!   machines).
//! - **cgroup CPU quota**: the harness's cgroup v2 `cpu.max` (`max 100000` is no quota;
//!   `150000 100000` is 1.5 CPUs) or v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`. A
//!   quota below the CPUs a run is pinned to throttles it in bursts.

use std::path::Path;

/// Transparent huge pages: `always`, `madvise`, `never`, or `unknown`.
pub fn thp() -> String {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
        .ok()
        .and_then(|s| bracketed(&s))
        .unwrap_or_else(|| "unknown".into())
}

/// The word between `[` and `]` in a sysfs choice list: `always [madvise] never`.
fn bracketed(text: &str) -> Option<String> {
    let start = text.find('[')?;
    let end = text[start..].find(']')? + start;
    Some(text[start + 1..end].to_string())
}

/// CPU boost or turbo: `on`, `off`, or `unknown` when the kernel does not say.
pub fn cpu_boost() -> String {
    boost_from(Path::new("/sys/devices/system/cpu"))
}

fn boost_from(cpu_dir: &Path) -> String {
    let read = |f: &str| {
        std::fs::read_to_string(cpu_dir.join(f))
            .ok()
            .map(|s| s.trim().to_string())
    };
    if let Some(b) = read("cpufreq/boost") {
        return if b == "1" { "on" } else { "off" }.into();
    }
    if let Some(no_turbo) = read("intel_pstate/no_turbo") {
        return if no_turbo == "1" { "off" } else { "on" }.into();
    }
    "unknown".into()
}

/// The harness's cgroup CPU quota: `max` (none), `1.50 CPUs`, or `unknown`.
pub fn cgroup_cpu() -> String {
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    cgroup_cpu_from(&cgroup, Path::new("/sys/fs/cgroup"))
}

/// Reads the quota of the cgroup named in `/proc/self/cgroup` text under `root`.
fn cgroup_cpu_from(proc_cgroup: &str, root: &Path) -> String {
    for line in proc_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let rel = path.trim_start_matches('/');
        if controllers.is_empty() {
            // cgroup v2: cpu.max in the group's directory ("max 100000" or "Q P").
            if let Ok(text) = std::fs::read_to_string(root.join(rel).join("cpu.max")) {
                return quota_text(&text);
            }
        } else if controllers.split(',').any(|c| c == "cpu") {
            for base in [root.join("cpu,cpuacct"), root.join("cpu")] {
                let read = |f: &str| {
                    std::fs::read_to_string(base.join(rel).join(f))
                        .ok()
                        .map(|s| s.trim().to_string())
                };
                if let (Some(q), Some(p)) = (read("cpu.cfs_quota_us"), read("cpu.cfs_period_us")) {
                    let q = if q == "-1" { "max".to_string() } else { q };
                    return quota_text(&format!("{q} {p}"));
                }
            }
        }
    }
    "unknown".into()
}

/// `max 100000` -> `max`; `150000 100000` -> `1.50 CPUs`.
fn quota_text(cpu_max: &str) -> String {
    let mut w = cpu_max.split_whitespace();
    match (w.next(), w.next().and_then(|p| p.parse::<f64>().ok())) {
        (Some("max"), _) => "max".into(),
        (Some(q), Some(p)) if p > 0.0 => match q.parse::<f64>() {
            Ok(q) => format!("{:.2} CPUs", q / p),
            Err(_) => "unknown".into(),
        },
        _ => "unknown".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_choices_boost_and_quotas() {
        assert_eq!(
            bracketed("always [madvise] never\n").as_deref(),
            Some("madvise")
        );
        assert_eq!(bracketed("nothing"), None);
        assert!(!thp().is_empty() && !cpu_boost().is_empty() && !cgroup_cpu().is_empty());
        assert_eq!(quota_text("max 100000\n"), "max");
        assert_eq!(quota_text("150000 100000"), "1.50 CPUs");
        assert_eq!(quota_text(""), "unknown");

        let dir = tempfile::tempdir().unwrap();
        assert_eq!(boost_from(dir.path()), "unknown");
        std::fs::create_dir_all(dir.path().join("intel_pstate")).unwrap();
        std::fs::write(dir.path().join("intel_pstate/no_turbo"), "1\n").unwrap();
        assert_eq!(boost_from(dir.path()), "off");
        std::fs::create_dir_all(dir.path().join("cpufreq")).unwrap();
        std::fs::write(dir.path().join("cpufreq/boost"), "1\n").unwrap();
        assert_eq!(boost_from(dir.path()), "on");

        let g = dir.path().join("v2/bench.slice");
        std::fs::create_dir_all(&g).unwrap();
        std::fs::write(g.join("cpu.max"), "50000 100000\n").unwrap();
        assert_eq!(
            cgroup_cpu_from("0::/bench.slice\n", &dir.path().join("v2")),
            "0.50 CPUs"
        );
        let g = dir.path().join("v1/cpu,cpuacct/docker/x");
        std::fs::create_dir_all(&g).unwrap();
        std::fs::write(g.join("cpu.cfs_quota_us"), "-1\n").unwrap();
        std::fs::write(g.join("cpu.cfs_period_us"), "100000\n").unwrap();
        assert_eq!(
            cgroup_cpu_from(
                "5:memory:/docker/x\n4:cpu,cpuacct:/docker/x\n",
                &dir.path().join("v1")
            ),
            "max"
        );
        assert_eq!(cgroup_cpu_from("", dir.path()), "unknown");
    }
}
