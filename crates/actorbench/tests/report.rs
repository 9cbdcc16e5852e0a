//! `actorbench report` and the report written by `run`: files, figures with data,
//! failures marked, bad input; and, when Debian's `chromium` is installed, the page
//! rendered in headless Chromium (no console errors, a non-blank screenshot, every
//! figure present with data). Without chromium that check is skipped with a message on
//! stderr; set `ACTORBENCH_REQUIRE_CHROMIUM=1` (as CI should) to make a missing chromium a
//! failure instead; `ACTORBENCH_CHROMIUM=PATH` names another browser binary.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use common::{Fixture, text};

fn chameneos() -> &'static str {
    "[[benchmark]]\nname = \"chameneos\"\nquick = { creatures = 7, meetings = 700 }\nseed = { meetings = 800 }\n\
     sweep = { param = \"creatures\", quick = [3, 7], seed = [3] }\n"
}

/// Every `<figure data-figure=…>` in the page holds an SVG with plotted marks.
fn check_figures(html: &str, dir: &Path) -> usize {
    let mut n = 0;
    for part in html.split("<figure").skip(1) {
        let body = &part[..part.find("</figure>").expect("closed figure")];
        let name = body
            .split("data-figure=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .expect("named figure");
        assert!(body.contains("<svg"), "figure {name} has no svg");
        let marks = body.matches("<circle").count()
            + body.matches("<rect").count()
            + body.matches("<polyline").count();
        assert!(marks > 3, "figure {name} has no data ({marks} marks)");
        let file = std::fs::read_to_string(dir.join(format!("{name}.svg"))).expect("figure file");
        assert!(file.contains("<svg"));
        n += 1;
    }
    n
}

#[test]
fn run_writes_a_report_with_every_figure() {
    let fx = Fixture::with(&["right", "slow", "wrong"], chameneos());
    let out = fx.run(&[
        "run", "--cores", "1,2", "--reps", "2", "--warmup", "0", "--sweep",
    ]);
    let (_, stderr) = text(&out);
    let cores2 = actorbench::exec::allowed_cpus().len() >= 2;
    if !cores2 {
        eprintln!("SKIPPED: this machine has one CPU; the 2-core report test needs two");
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let dir = fx.path().join("report");
    assert!(
        stderr.contains(&format!("report: {}", dir.join("index.html").display())),
        "{stderr}"
    );
    // The template engine escapes '/' as &#x2f; in text (the browser shows '/').
    let html = std::fs::read_to_string(dir.join("index.html"))
        .unwrap()
        .replace("&#x2f;", "/");
    // threadring and chameneos: time, speedup, efficiency, cpu, memory; chameneos: 2 box
    // plots; the session's start-up figure.
    assert_eq!(check_figures(&html, &dir), 13);
    for needle in [
        "Summary",
        "geometric mean of ratios",
        "Fairness (thesis Table 7)",
        "How this was measured",
        "fake 1.0",
        "./fake.sh right threadring",
        "wrong 1 core, 2 runs",
        "hops",
        "Start-up per implementation and core count",
        "median start-up",
        "Median work time at the highest core count",
        "with its 95% bootstrap interval under it",
        "bars are the order-statistic interval of the median",
        "CI95 ±",
    ] {
        assert!(html.contains(needle), "report lacks {needle}");
    }
    // Self-contained: no script, no external resource.
    assert!(
        !html.contains("<script") && !html.contains("src=\"http") && !html.contains("href=\"http")
    );
    // The x axis of the sweep is labelled with the swept parameter.
    let time = std::fs::read_to_string(dir.join("threadring-time.svg")).unwrap();
    let squeezed: String = time.split_whitespace().collect();
    assert!(
        squeezed.contains(">hops</text>"),
        "time figure lacks its hops axis"
    );
    browser_check(&dir);
}

#[test]
fn report_command_and_bad_input() {
    let fx = Fixture::new(&["wrong", "hang"]);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "1",
        "--warmup",
        "0",
        "--timeout",
        "1",
        "--no-report",
    ]);
    // Every run failed: the session is stored, and `run` says so with exit 1.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out).1);
    let dir = fx.path().join("custom");
    let out = fx.run(&["report", "1", "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        html.contains("Every run in this session failed"),
        "only-failure report must say so"
    );
    assert!(html.contains("hang 1 core rep 1: timeout"));
    for bad in [vec!["report", "42"], vec!["report", "nope"]] {
        let out = fx.run(&bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    let out = fx
        .cmd(&[])
        .args(["report"])
        .arg("--db")
        .arg(fx.path().join("missing.sqlite"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("no results database"));
    // An empty session: an interrupted one with no runs is made by hand.
    let store = actorbench::store::Store::open_existing(&fx.db()).unwrap();
    let id = store
        .begin_session(&actorbench::store::SessionRecord::default())
        .unwrap();
    let out = fx.run(&["report", &id.to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("has no runs"), "{}", text(&out).1);
}

/// Opens the report in headless Chromium; skipped (loudly) when chromium is missing.
fn browser_check(dir: &Path) {
    let named = std::env::var("ACTORBENCH_CHROMIUM").ok();
    let candidates: Vec<&str> = match &named {
        Some(n) => vec![n.as_str()],
        None => vec!["chromium", "chromium-browser"],
    };
    let chromium = candidates.into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    let Some(chromium) = chromium else {
        assert!(
            std::env::var_os("ACTORBENCH_REQUIRE_CHROMIUM").is_none(),
            "ACTORBENCH_REQUIRE_CHROMIUM is set but chromium is not installed (apt-get install -y chromium)"
        );
        // Written to the real stderr, past the test harness's capture, so it is seen.
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIPPED the report's browser check: chromium is not installed (apt-get install -y chromium) ***\n"
        );
        return;
    };
    let index = dir.join("index.html");
    let url = format!("file://{}", index.display());
    let shot = dir.join("screenshot.png");
    let base = |c: &mut Command| {
        c.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.join("chromium-profile").display()
        ));
    };
    let mut c = Command::new(chromium);
    base(&mut c);
    let out = c
        .arg("--window-size=1400,2400")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(shot.exists(), "no screenshot: {log}");
    let console: Vec<&str> = log
        .lines()
        .filter(|l| {
            l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("Failed to load resource")
        })
        .collect();
    assert!(console.is_empty(), "console errors: {console:?}");
    // Not blank: many distinct colours in the screenshot.
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bytes = &buf[..info.buffer_size()];
    let px = info.color_type.samples();
    let mut colours = std::collections::HashSet::new();
    for p in bytes.chunks(px).step_by(7) {
        colours.insert(p[..3.min(p.len())].to_vec());
    }
    assert!(
        colours.len() > 50,
        "screenshot looks blank ({} colours)",
        colours.len()
    );
    // The rendered DOM holds every figure with its data.
    let mut c = Command::new(chromium);
    base(&mut c);
    let dom = c.arg("--dump-dom").arg(&url).output().unwrap();
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert_eq!(check_figures(&dom, dir), 13, "figures in the rendered DOM");
    eprintln!("browser check passed: {}", shot.display());
}
