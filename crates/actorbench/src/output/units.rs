//! Human-friendly units for times, sizes, ratios and counts.

/// Seconds as `812 µs`, `12.3 ms`, `1.234 s` or `2m 05s`; `-` for NaN.
pub fn seconds(s: f64) -> String {
    if !s.is_finite() {
        "-".into()
    } else if s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else if s < 100.0 {
        format!("{s:.3} s")
    } else {
        let total = s.round();
        let m = (total / 60.0).floor();
        format!("{m:.0}m {:02.0}s", total - m * 60.0)
    }
}

/// Bytes as `512 KiB`, `3.1 MiB`, `1.20 GiB`; `-` for NaN.
pub fn bytes(b: f64) -> String {
    if !b.is_finite() {
        "-".into()
    } else if b < 1024.0 * 1024.0 {
        format!("{:.0} KiB", b / 1024.0)
    } else if b < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    } else {
        format!("{:.2} GiB", b / (1024.0 * 1024.0 * 1024.0))
    }
}

/// A count as `950`, `12.3k`, `4.5M`; `-` for NaN.
pub fn count(c: f64) -> String {
    if !c.is_finite() {
        "-".into()
    } else if c < 10_000.0 {
        format!("{c:.0}")
    } else if c < 10_000_000.0 {
        format!("{:.1}k", c / 1e3)
    } else {
        format!("{:.1}M", c / 1e6)
    }
}

/// A ratio as `1.00x`; `-` for NaN.
pub fn ratio(r: f64) -> String {
    if r.is_finite() {
        format!("{r:.2}x")
    } else {
        "-".into()
    }
}

/// A utilisation (1.0 = one core) as a percentage, `187%`; `-` for NaN.
pub fn percent(u: f64) -> String {
    if u.is_finite() {
        format!("{:.0}%", u * 100.0)
    } else {
        "-".into()
    }
}

/// A share as a percentage with one decimal, `2.1%`; `-` for NaN.
pub fn percent1(u: f64) -> String {
    if u.is_finite() {
        format!("{:.1}%", u * 100.0)
    } else {
        "-".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_units() {
        assert_eq!(seconds(119.6), "2m 00s");
        assert_eq!(seconds(125.0), "2m 05s");
        assert_eq!(seconds(0.0123), "12.3 ms");
        assert_eq!(seconds(f64::NAN), "-");
        assert_eq!(bytes(3.0 * 1024.0 * 1024.0), "3.0 MiB");
        assert_eq!(count(12_345.0), "12.3k");
        assert_eq!(ratio(1.0), "1.00x");
        assert_eq!(percent(1.87), "187%");
    }
}
