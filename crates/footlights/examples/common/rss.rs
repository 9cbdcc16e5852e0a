//! Resident memory, as Linux reports it for this process (shared by the examples that
//! measure memory).

/// A field of `/proc/self/status` (`"VmRSS:"`, the resident memory now; `"VmHWM:"`, its
/// peak), in MiB; 0 where there is none (not Linux).
pub fn status_mib(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<f64>()
                .ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}
