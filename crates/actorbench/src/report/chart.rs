//! Drawing one chart as SVG with plotters: lines with min-max error bars, failure marks,
//! an optional ideal line, and box plots.
//!
//! An axis goes logarithmic (plotters' own log scale) when its values span more than 30x
//! (decades), as the thesis's time-against-parameter figures do; its ticks are labelled at
//! 1, 2 and 5 times a power of ten.
//! Text is plain SVG `<text>` in a generic sans-serif family, so no font files are
//! needed to draw (plotters is built without its `ttf` feature).
//!
//! Failures are never dropped: a point whose runs all failed is drawn as a red cross at
//! the top of the chart at its x, a point with some failed runs gets a small red cross
//! above its error bar, and the legend says what the cross means.

use anyhow::{Result, anyhow};
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// Chart size in pixels.
pub const SIZE: (u32, u32) = (640, 400);

/// The palette: colour-blind-safe (Okabe-Ito), footlights first.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(213, 94, 0),
    RGBColor(0, 114, 178),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 94, 240),
    RGBColor(60, 60, 60),
];

/// The colour of the `i`th implementation.
pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// One plotted value with its spread; `y` NaN means no run succeeded.
#[derive(Debug, Clone, Copy)]
pub struct Point {
    /// Position.
    pub x: f64,
    /// Median.
    pub y: f64,
    /// Smallest.
    pub lo: f64,
    /// Largest.
    pub hi: f64,
    /// Runs that failed at this point.
    pub failed: usize,
}

/// One line.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Colour.
    pub color: RGBColor,
    /// Thick (main) or thin (secondary) line.
    pub bold: bool,
    /// Points in x order.
    pub points: Vec<Point>,
}

/// A line chart.
#[derive(Debug, Clone, Default)]
pub struct LineChart {
    /// Title.
    pub title: String,
    /// X axis description.
    pub x_label: String,
    /// Y axis description.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
    /// A reference line (`ideal`), drawn dashed grey.
    pub ideal: Option<(String, Vec<(f64, f64)>)>,
    /// X values are small integers (core counts): integer ticks, linear.
    pub integer_x: bool,
    /// Formats a y value for tick labels.
    pub y_unit: Unit,
    /// Start the y axis at zero (when linear).
    pub y_from_zero: bool,
    /// Points to ring in red, with a legend line (change points in a history).
    pub marks: Option<(String, Vec<(f64, f64)>)>,
}

/// How to print y tick labels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Unit {
    /// Plain number.
    #[default]
    Plain,
    /// Seconds.
    Seconds,
    /// Bytes.
    Bytes,
    /// A fraction shown as percent.
    Percent,
}

impl Unit {
    fn format(self, v: f64) -> String {
        if v == 0.0 {
            return "0".into();
        }
        match self {
            Unit::Plain => short(v),
            Unit::Seconds if v >= 1.0 => format!("{} s", trim(v)),
            Unit::Seconds if v >= 1e-3 => format!("{} ms", trim(v * 1e3)),
            Unit::Seconds => format!("{} µs", trim(v * 1e6)),
            Unit::Bytes => crate::output::units::bytes(v),
            Unit::Percent => format!("{:.0}%", v * 100.0),
        }
    }
}

/// A compact number: `0.5`, `12`, `3.2k`, `1M`.
pub fn short(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e4 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

fn trim(v: f64) -> String {
    let s = if v.abs() >= 100.0 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Whether values spanning `lo..hi` deserve a log axis.
fn wants_log(lo: f64, hi: f64) -> bool {
    lo > 0.0 && hi / lo > 30.0
}

fn plot_err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing failed: {e:?}")
}

/// On a log axis, the ticks worth a label: 1, 2 and 5 times a power of ten.
fn log_label(v: f64) -> bool {
    let m = v / 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().any(|x| (m - x).abs() < 1e-6)
}

/// The project's mesh look: light grid, sans-serif labels.
fn house_style<'m, 'a, 'b, X, Y, DB>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    DB: DrawingBackend,
{
    mesh.light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(215, 215, 215))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
}

/// The power of ten at or below `v` (a log axis starts on a labelled decade).
fn decade_below(v: f64) -> f64 {
    10f64.powf(v.log10().floor())
}

/// The power of ten at or above `v`.
fn decade_above(v: f64) -> f64 {
    10f64.powf(v.log10().ceil())
}

/// One axis: its range in values, whether it is logarithmic, how many ticks it wants.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    ticks: usize,
}

/// Draws `c` and returns the SVG text.
pub fn line_chart(c: &LineChart) -> Result<String> {
    let xs: Vec<f64> = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.x))
        .collect();
    let ys: Vec<f64> = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().flat_map(|p| [p.lo, p.hi, p.y]))
        .chain(c.ideal.iter().flat_map(|(_, pts)| pts.iter().map(|p| p.1)))
        .filter(|v| v.is_finite())
        .collect();
    let (xmin, xmax) = (crate::stats::min(&xs), crate::stats::max(&xs));
    let (ymin, ymax) = if ys.is_empty() {
        (0.0, 1.0)
    } else {
        (crate::stats::min(&ys), crate::stats::max(&ys))
    };
    let xlog = !c.integer_x && wants_log(xmin, xmax);
    let ylog = wants_log(ymin, ymax);
    let x = if c.integer_x {
        Axis {
            lo: xmin - 0.3,
            hi: xmax + 0.3,
            log: false,
            ticks: ((xmax - xmin).round() as usize + 1).clamp(2, 16),
        }
    } else if xlog {
        Axis {
            lo: decade_below(xmin),
            hi: decade_above(xmax),
            log: true,
            ticks: 12,
        }
    } else {
        let (lo, hi) = if xmin == xmax {
            (xmin - 1.0, xmax + 1.0)
        } else {
            pad(xmin, xmax, 0.05)
        };
        Axis {
            lo,
            hi,
            log: false,
            ticks: 8,
        }
    };
    let y = if ylog {
        Axis {
            lo: decade_below(ymin),
            hi: decade_above(ymax),
            log: true,
            ticks: 12,
        }
    } else {
        let lo = if c.y_from_zero {
            0.0f64.min(ymin)
        } else {
            ymin
        };
        let (a, b) = pad(lo, ymax.max(lo + 1e-9), 0.08);
        Axis {
            lo: if c.y_from_zero { a.max(0.0).min(lo) } else { a },
            hi: b,
            log: false,
            ticks: 7,
        }
    };

    let mut legend: Vec<(String, Key)> = Vec::new();
    if let Some((label, _)) = &c.ideal {
        legend.push((label.clone(), Key::Dashed(RGBColor(130, 130, 130))));
    }
    for s in &c.series {
        let all_failed = s.points.iter().all(|p| !p.y.is_finite());
        let label = if all_failed {
            format!("{} (all failed)", s.label)
        } else {
            s.label.clone()
        };
        legend.push((label, Key::Line(s.color, if s.bold { 3 } else { 1 })));
    }
    if c.series
        .iter()
        .any(|s| s.points.iter().any(|p| p.failed > 0))
    {
        legend.push(("failed runs".into(), Key::Cross));
    }
    if let Some((label, _)) = c.marks.as_ref().filter(|(_, m)| !m.is_empty()) {
        legend.push((label.clone(), Key::Ring));
    }
    let lw = legend_width(&legend.iter().map(|(l, _)| l.clone()).collect::<Vec<_>>());
    let mut svg = String::new();
    {
        let height = SIZE.1.max(60 + 22 * legend.len() as u32);
        let root = SVGBackend::with_string(&mut svg, (SIZE.0 + lw, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (plot_area, legend_area) = root.split_horizontally(SIZE.0);
        draw_legend(&legend_area, &legend)?;
        // plotters' own log scale where an axis spans decades; each combination of axis
        // kinds is its own coordinate type, so the plotting is generic over them.
        let (xr, yr) = (x.lo..x.hi, y.lo..y.hi);
        match (x.log, y.log) {
            (false, false) => plot(&plot_area, c, &x, &y, xr, yr)?,
            (true, false) => plot(&plot_area, c, &x, &y, xr.log_scale(), yr)?,
            (false, true) => plot(&plot_area, c, &x, &y, xr, yr.log_scale())?,
            (true, true) => plot(&plot_area, c, &x, &y, xr.log_scale(), yr.log_scale())?,
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// Draws the axes, the ideal line, the series with their bars, the failure crosses and the
/// marks of `c` on `area`, with `xs` and `ys` as the axes' coordinate specs.
fn plot<DB, XS, YS>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    c: &LineChart,
    x: &Axis,
    y: &Axis,
    xs: XS,
    ys: YS,
) -> Result<()>
where
    DB: DrawingBackend,
    XS: AsRangedCoord<Value = f64>,
    YS: AsRangedCoord<Value = f64>,
    XS::CoordDescType: ValueFormatter<f64>,
    YS::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .caption(&c.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(78)
        .build_cartesian_2d(xs, ys)
        .map_err(plot_err)?;
    let xfmt = |v: &f64| {
        if c.integer_x {
            if (v - v.round()).abs() < 1e-9 {
                format!("{}", v.round())
            } else {
                String::new()
            }
        } else if x.log && !log_label(*v) {
            String::new()
        } else {
            short(*v)
        }
    };
    let yfmt = |v: &f64| {
        if y.log && !log_label(*v) {
            String::new()
        } else {
            c.y_unit.format(*v)
        }
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(&c.x_label)
        .y_desc(&c.y_label)
        .x_labels(x.ticks)
        .y_labels(y.ticks)
        .x_label_formatter(&xfmt)
        .y_label_formatter(&yfmt);
    house_style(&mut mesh).draw().map_err(plot_err)?;

    if let Some((_, pts)) = &c.ideal {
        let grey = RGBColor(130, 130, 130);
        chart
            .draw_series(DashedLineSeries::new(
                pts.iter().copied(),
                6,
                4,
                grey.stroke_width(2),
            ))
            .map_err(plot_err)?;
    }
    let n_series = c.series.len().max(1) as f64;
    for (si, s) in c.series.iter().enumerate() {
        let color = s.color;
        let width = if s.bold { 3 } else { 1 };
        let ok: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|p| p.y.is_finite())
            .map(|p| (p.x, p.y))
            .collect();
        chart
            .draw_series(LineSeries::new(ok.clone(), color.stroke_width(width)))
            .map_err(plot_err)?;
        chart
            .draw_series(
                ok.iter()
                    .map(|&(x, y)| Circle::new((x, y), if s.bold { 4 } else { 3 }, color.filled())),
            )
            .map_err(plot_err)?;
        chart
            .draw_series(
                s.points.iter().filter(|p| p.y.is_finite()).map(|p| {
                    ErrorBar::new_vertical(p.x, p.lo, p.y, p.hi, color.stroke_width(1), 8)
                }),
            )
            .map_err(plot_err)?;
        // Failed runs: a small cross above a point that also has successes; when nothing
        // succeeded, a cross in a ring of the series' colour at the top of the chart,
        // nudged sideways per series so that several failing series stay apart.
        for p in s.points.iter().filter(|p| p.failed > 0) {
            if p.y.is_finite() {
                let at = EmptyElement::at((p.x, p.hi));
                chart
                    .draw_series(std::iter::once(
                        at + Cross::new((0, -10), 4, RED.stroke_width(3)),
                    ))
                    .map_err(plot_err)?;
            } else {
                let nudge = if n_series > 1.0 {
                    ((si as f64 / (n_series - 1.0) - 0.5) * 36.0) as i32
                } else {
                    0
                };
                let at = EmptyElement::at((p.x, y.hi));
                chart
                    .draw_series(std::iter::once(
                        at + Circle::new((nudge, 12), 9, color.stroke_width(2))
                            + Cross::new((nudge, 12), 5, RED.stroke_width(3)),
                    ))
                    .map_err(plot_err)?;
            }
        }
    }
    if let Some((_, marks)) = &c.marks {
        chart
            .draw_series(
                marks
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), 9, RED.stroke_width(3))),
            )
            .map_err(plot_err)?;
    }
    Ok(())
}

/// One legend line.
enum Key {
    Line(RGBColor, u32),
    Dashed(RGBColor),
    Cross,
    Ring,
    Swatch(RGBColor),
}

/// Width of a legend column that fits `labels`.
fn legend_width(labels: &[String]) -> u32 {
    let chars = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    (chars * 7 + 44).clamp(100, 260)
}

/// Draws a legend, one entry per line, into its own area right of the plot.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(String, Key)],
) -> Result<()> {
    for (i, (label, key)) in entries.iter().enumerate() {
        let y = 48 + 22 * i as i32;
        let (x0, x1) = (6, 28);
        match key {
            Key::Line(c, w) => {
                area.draw(&PathElement::new(
                    vec![(x0, y), (x1, y)],
                    c.stroke_width(*w),
                ))
                .map_err(plot_err)?;
                area.draw(&Circle::new(((x0 + x1) / 2, y), 3, c.filled()))
                    .map_err(plot_err)?;
            }
            Key::Dashed(c) => {
                area.draw(&PathElement::new(
                    vec![(x0, y), (x0 + 8, y)],
                    c.stroke_width(2),
                ))
                .map_err(plot_err)?;
                area.draw(&PathElement::new(
                    vec![(x0 + 13, y), (x1, y)],
                    c.stroke_width(2),
                ))
                .map_err(plot_err)?;
            }
            Key::Cross => area
                .draw(&Cross::new(((x0 + x1) / 2, y), 5, RED.stroke_width(3)))
                .map_err(plot_err)?,
            Key::Ring => area
                .draw(&Circle::new(((x0 + x1) / 2, y), 7, RED.stroke_width(3)))
                .map_err(plot_err)?,
            Key::Swatch(c) => {
                area.draw(&Rectangle::new(
                    [(x0 + 4, y - 6), (x1 - 4, y + 6)],
                    c.mix(0.3).filled(),
                ))
                .map_err(plot_err)?;
                area.draw(&Rectangle::new(
                    [(x0 + 4, y - 6), (x1 - 4, y + 6)],
                    c.stroke_width(2),
                ))
                .map_err(plot_err)?;
            }
        }
        area.draw(&Text::new(
            label.clone(),
            (x1 + 8, y - 7),
            ("sans-serif", 15).into_font().color(&BLACK),
        ))
        .map_err(plot_err)?;
    }
    Ok(())
}

fn pad(lo: f64, hi: f64, frac: f64) -> (f64, f64) {
    let span = (hi - lo).abs().max(1e-9);
    (lo - span * frac, hi + span * frac)
}

/// One box of a box plot.
#[derive(Debug, Clone)]
pub struct BoxData {
    /// Label under the box.
    pub label: String,
    /// Colour.
    pub color: RGBColor,
    /// The values (NaN-free); empty: nothing succeeded (marked as failed).
    pub values: Vec<f64>,
}

/// Draws box plots (quartile box, median bar, whiskers to min and max) side by side,
/// with an optional horizontal reference line.
///
/// The boxes are drawn from rectangles and paths rather than with plotters' `Boxplot`:
/// that element takes its whiskers from `Quartiles`, which puts them at Tukey's fences
/// (1.5 times the interquartile range beyond the quartiles) whether or not any value lies
/// there, so for meetings per creature it would draw whiskers past the smallest and
/// largest count (even below zero); the figure's caption promises min and max.
pub fn box_chart(
    title: &str,
    y_label: &str,
    boxes: &[BoxData],
    reference: Option<(String, f64)>,
) -> Result<String> {
    let all: Vec<f64> = boxes
        .iter()
        .flat_map(|b| b.values.iter().copied())
        .chain(reference.iter().map(|r| r.1))
        .collect();
    let (lo, hi) = if all.is_empty() {
        (0.0, 1.0)
    } else {
        (crate::stats::min(&all), crate::stats::max(&all))
    };
    let (y0, y1) = pad(lo.min(hi - 1.0).max(0.0).min(lo), hi.max(lo + 1.0), 0.1);
    let n = boxes.len().max(1);
    let mut legend: Vec<(String, Key)> = Vec::new();
    if let Some((label, _)) = &reference {
        legend.push((label.clone(), Key::Dashed(RGBColor(130, 130, 130))));
    }
    for b in boxes {
        let name = b.label.split(" ×").next().unwrap_or(&b.label).to_string();
        if !legend.iter().any(|(l, _)| *l == name) {
            legend.push((name, Key::Swatch(b.color)));
        }
    }
    if boxes.iter().any(|b| b.values.is_empty()) {
        legend.push(("no successful run".into(), Key::Cross));
    }
    let lw = legend_width(&legend.iter().map(|(l, _)| l.clone()).collect::<Vec<_>>());
    let mut svg = String::new();
    {
        let width = (SIZE.0).max(120 + 90 * n as u32);
        let height = SIZE.1.max(60 + 22 * legend.len() as u32);
        let root = SVGBackend::with_string(&mut svg, (width + lw, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (plot_area, legend_area) = root.split_horizontally(width);
        draw_legend(&legend_area, &legend)?;
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(56)
            .y_label_area_size(78)
            .build_cartesian_2d(-0.6..(n as f64 - 0.4), y0..y1)
            .map_err(plot_err)?;
        let labels: Vec<String> = boxes.iter().map(|b| b.label.clone()).collect();
        let xfmt = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-9 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        let yfmt = |v: &f64| short(*v);
        let mut mesh = chart.configure_mesh();
        mesh.disable_x_mesh()
            .x_labels(n + 1)
            .x_label_formatter(&xfmt)
            .y_label_formatter(&yfmt)
            .y_desc(y_label);
        house_style(&mut mesh).draw().map_err(plot_err)?;
        if let Some((_, v)) = &reference {
            let grey = RGBColor(130, 130, 130);
            let line = vec![(-0.6, *v), (n as f64 - 0.4, *v)];
            chart
                .draw_series(DashedLineSeries::new(line, 6, 4, grey.stroke_width(2)))
                .map_err(plot_err)?;
        }
        for (i, b) in boxes.iter().enumerate() {
            let x = i as f64;
            if b.values.is_empty() {
                chart
                    .draw_series(std::iter::once(
                        EmptyElement::at((x, y1)) + Cross::new((0, 10), 8, RED.stroke_width(3)),
                    ))
                    .map_err(plot_err)?;
                continue;
            }
            let q = |f: f64| crate::stats::quantile(&b.values, f);
            let (mn, q1, med, q3, mx) = (q(0.0), q(0.25), q(0.5), q(0.75), q(1.0));
            let c = b.color;
            chart
                .draw_series([
                    Rectangle::new([(x - 0.3, q1), (x + 0.3, q3)], c.mix(0.25).filled()),
                    Rectangle::new([(x - 0.3, q1), (x + 0.3, q3)], c.stroke_width(2)),
                ])
                .map_err(plot_err)?;
            chart
                .draw_series([
                    PathElement::new(vec![(x - 0.3, med), (x + 0.3, med)], c.stroke_width(3)),
                    PathElement::new(vec![(x, q3), (x, mx)], c.stroke_width(1)),
                    PathElement::new(vec![(x, q1), (x, mn)], c.stroke_width(1)),
                    PathElement::new(vec![(x - 0.12, mx), (x + 0.12, mx)], c.stroke_width(1)),
                    PathElement::new(vec![(x - 0.12, mn), (x + 0.12, mn)], c.stroke_width(1)),
                ])
                .map_err(plot_err)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}
