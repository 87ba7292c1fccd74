//! The demo's charts, as SVG (plotters' SVG backend, so no font files are needed): query times
//! of obbtree beside parry3d-f64, and clearances over a joint sweep.

use super::Error;
use plotters::prelude::*;
use std::path::Path;

/// One measured task: its label and the milliseconds obbtree and parry3d-f64 took.
pub struct Bar {
    pub label: String,
    pub obbtree_ms: f64,
    pub parry_ms: f64,
}

const OBBTREE: RGBColor = RGBColor(46, 134, 193);
const PARRY: RGBColor = RGBColor(230, 126, 34);

/// Writes the chart to `path`: per task, the time relative to parry3d-f64 (parry = 1), with the
/// milliseconds written above each bar.
pub fn write_svg(path: &Path, bars: &[Bar]) -> Result<(), Error> {
    let fail =
        |e: &dyn std::fmt::Display| Error::Message(format!("cannot write {}: {e}", path.display()));
    let width = 160 * bars.len().max(1) as u32 + 120;
    let root = SVGBackend::new(path, (width, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let top = bars
        .iter()
        .map(|b| b.obbtree_ms / b.parry_ms.max(f64::MIN_POSITIVE))
        .fold(1.0, f64::max)
        * 1.2;
    let n = bars.len() as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "time relative to parry3d-f64 (lower is faster)",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5..n - 0.5, 0.0..top)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(bars.len().max(1))
        .x_label_formatter(&|x| {
            let i = x.round();
            match bars.get(i as usize) {
                Some(b) if (x - i).abs() < 1e-9 && i >= 0.0 => b.label.clone(),
                _ => String::new(),
            }
        })
        .y_desc("× parry3d time")
        .draw()
        .map_err(|e| fail(&e))?;
    for (i, b) in bars.iter().enumerate() {
        let x = i as f64;
        let ratio = b.obbtree_ms / b.parry_ms.max(f64::MIN_POSITIVE);
        for (offset, value, ms, color) in [
            (-0.38, ratio, b.obbtree_ms, OBBTREE),
            (0.03, 1.0, b.parry_ms, PARRY),
        ] {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x + offset, 0.0), (x + offset + 0.35, value)],
                    color.filled(),
                )))
                .map_err(|e| fail(&e))?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{ms:.1} ms"),
                    (x + offset, value + top * 0.02),
                    ("sans-serif", 12),
                )))
                .map_err(|e| fail(&e))?;
        }
    }
    for (name, color) in [("obbtree", OBBTREE), ("parry3d-f64", PARRY)] {
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(|e| fail(&e))?
            .label(name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}

/// One line of the clearance plot: its label and a value per sweep step.
pub struct Curve {
    pub label: String,
    pub values: Vec<f64>,
}

/// Writes the clearance plot to `path`: each curve's distance (m) over the fold angle `xs`
/// (rad), 0 marking contact.
pub fn write_clearance_svg(path: &Path, xs: &[f64], curves: &[Curve]) -> Result<(), Error> {
    let fail =
        |e: &dyn std::fmt::Display| Error::Message(format!("cannot write {}: {e}", path.display()));
    let root = SVGBackend::new(path, (760, 440)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let top = curves
        .iter()
        .flat_map(|c| c.values.iter().copied())
        .fold(0.0, f64::max)
        .max(1e-3)
        * 1.1;
    let (x0, x1) = (
        xs.first().copied().unwrap_or(0.0),
        xs.last().copied().unwrap_or(1.0),
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "KUKA iiwa: clearance between links not joined by a joint",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, 0.0..top)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("fold angle s (rad): joints 2, 4, 6 at s, −s, s")
        .y_desc("distance (m)")
        .draw()
        .map_err(|e| fail(&e))?;
    for (k, curve) in curves.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        chart
            .draw_series(LineSeries::new(
                xs.iter().copied().zip(curve.values.iter().copied()),
                color.stroke_width(2),
            ))
            .map_err(|e| fail(&e))?
            .label(curve.label.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}
