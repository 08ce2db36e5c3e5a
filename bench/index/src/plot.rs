//! The PNG: insert rate against rows inserted, one row of panels per
//! database, a linear and a log-x panel in each (the log axis shows the
//! start of the run, where random keys still fit in the cache).

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;

use crate::bench::Size;
use crate::keys::KeyKind;
use crate::report::DbReport;

/// Registers the TrueType font every label is drawn with. plotters' ab_glyph
/// text renders from font bytes it is handed, so the PNG needs no
/// fontconfig, only this one file; it is read before the benchmark runs so
/// that a missing font fails at once rather than after the measurements.
pub fn load_font(path: &Path) -> Result<()> {
    let bytes = fs::read(path).with_context(|| {
        format!(
            "reading the plot's font {} (Debian package fonts-dejavu-core, or pass --font)",
            path.display()
        )
    })?;
    // plotters keeps registered fonts for the life of the process.
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
        .map_err(|_| anyhow!("{} is not a TrueType or OpenType font", path.display()))
}

/// A key type's insert rate along the run (see [`rate_curve`](crate::report::Summary::rate_curve)).
type Curve = (KeyKind, Vec<(f64, f64)>);

/// Height of the band at the top holding the title and the shared legend.
const HEADER: u32 = 90;

/// Draws every database's curves into the PNG at `path`.
pub fn draw(path: &Path, size: Size, reports: &[DbReport]) -> Result<()> {
    let root =
        BitMapBackend::new(path, (1600, HEADER + 560 * reports.len() as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let (header, body) = root.split_vertically(HEADER);
    let kinds: Vec<KeyKind> = reports
        .iter()
        .flat_map(|r| r.keys.iter().map(|s| s.kind))
        .fold(Vec::new(), |mut v, k| {
            if !v.contains(&k) {
                v.push(k);
            }
            v
        });
    let title = format!(
        "Insert rate along the run: {} rows per key type, {} per transaction, median of {} runs, smoothed",
        si(size.rows as f64),
        si(size.batch as f64),
        size.reps
    );
    legend(&header, &title, &kinds)?;
    for (report, row) in reports.iter().zip(body.split_evenly((reports.len(), 1))) {
        let curves: Vec<Curve> = report
            .keys
            .iter()
            .map(|s| (s.kind, s.rate_curve()))
            .collect();
        let points = || curves.iter().flat_map(|c| &c.1);
        let first = points().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let last = points().map(|p| p.0).fold(0.0, f64::max);
        let top = points().map(|p| p.1).fold(0.0, f64::max) * 1.05;
        let (linear, log) = row.split_horizontally(800);
        let caption = |scale| format!("{}: insert rate ({scale})", report.name);
        panel(&linear, &caption("linear"), &curves, 0.0..last * 1.02, top)?;
        panel(
            &log,
            &caption("log x"),
            &curves,
            (first * 0.8..last * 1.25).log_scale(),
            top,
        )?;
    }
    root.present()?;
    Ok(())
}

/// The title, and below it one legend for every panel, so that no legend
/// box hides a curve.
fn legend(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    title: &str,
    kinds: &[KeyKind],
) -> Result<()> {
    area.draw(&Text::new(title, (24, 14), ("sans-serif", 24)))?;
    let style = TextStyle::from(("sans-serif", 19));
    let mut x = 24;
    for &kind in kinds {
        let line = PathElement::new([(x, 66), (x + 36, 66)], color(kind).stroke_width(4));
        area.draw(&line)?;
        area.draw(&Text::new(kind.label(), (x + 44, 56), style.clone()))?;
        x += 60 + area.estimate_text_size(kind.label(), &style)?.0 as i32;
    }
    Ok(())
}

/// One panel over the x axis `x` (a linear or a log range of rows) and
/// rates up to `top`.
fn panel<X>(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    caption: &str,
    curves: &[Curve],
    x: X,
    top: f64,
) -> Result<()>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64> + Ranged<ValueType = f64>,
{
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 24))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(x, 0.0..top)?;
    chart
        .configure_mesh()
        .x_desc("rows inserted")
        .y_desc("rows per second")
        .x_label_formatter(&|v| si(*v))
        .y_label_formatter(&|v| si(*v))
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .x_labels(8)
        .light_line_style(WHITE)
        .draw()?;
    for (kind, points) in curves {
        chart.draw_series(LineSeries::new(
            points.iter().copied(),
            color(*kind).stroke_width(2),
        ))?;
    }
    Ok(())
}

/// Random keys warm, time-ordered ones cool, the sequence black.
fn color(kind: KeyKind) -> RGBColor {
    match kind {
        KeyKind::UuidV4 => RGBColor(214, 39, 40),
        KeyKind::UuidV7Random => RGBColor(255, 127, 14),
        KeyKind::UuidV7 => RGBColor(31, 119, 180),
        KeyKind::Ulid => RGBColor(44, 160, 44),
        KeyKind::Snowflake => RGBColor(148, 103, 189),
        KeyKind::Sequence => RGBColor(0, 0, 0),
    }
}

/// 1500 -> "1.5k", 2000000 -> "2M".
fn si(v: f64) -> String {
    let (scaled, unit) = match v.abs() {
        a if a >= 1e6 => (v / 1e6, "M"),
        a if a >= 1e3 => (v / 1e3, "k"),
        _ => (v, ""),
    };
    let text = format!("{scaled:.1}");
    format!("{}{unit}", text.strip_suffix(".0").unwrap_or(&text))
}

#[cfg(test)]
mod tests {
    use super::si;

    #[test]
    fn axis_labels_are_short() {
        assert_eq!(si(0.0), "0");
        assert_eq!(si(1500.0), "1.5k");
        assert_eq!(si(2e6), "2M");
        assert_eq!(si(250_000.0), "250k");
    }
}
