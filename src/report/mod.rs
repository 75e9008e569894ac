//! Reports: Markdown a person reads, with SVG charts beside it.
//!
//! Games build the text and the chart data; this module renders charts and knows where
//! report files go (`reports/<job>.md`, charts in `reports/<job>/`).

use plotters::prelude::*;

/// A report: Markdown plus charts, each `(file name, SVG text)`. The Markdown refers to a
/// chart as `<job>/<file name>`.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub markdown: String,
    pub charts: Vec<(String, String)>,
}

/// A Markdown table from a header row and data rows.
pub fn markdown_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n", header.join(" | "));
    out.push_str(&format!(
        "|{}\n",
        header
            .iter()
            .enumerate()
            .map(|(i, _)| if i == 0 { "---|" } else { "---:|" })
            .collect::<String>()
    ));
    for row in rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}

/// A vertical bar chart as SVG text. `log_scale` plots values on a log10 axis (all values
/// must then be positive).
pub fn bar_chart_svg(
    title: &str,
    labels: &[String],
    values: &[f64],
    y_label: &str,
    log_scale: bool,
) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let n = labels.len();
        let max = values.iter().cloned().fold(f64::MIN_POSITIVE, f64::max);
        let min = values
            .iter()
            .cloned()
            .filter(|v| *v > 0.0)
            .fold(max, f64::min);
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(70)
            .y_label_area_size(80);
        let labels_owned = labels.to_vec();
        let x_fmt = move |v: &SegmentValue<usize>| match v {
            SegmentValue::CenterOf(i) => labels_owned.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        };
        let bar = |i: usize, low: f64, high: f64| {
            let mut r = Rectangle::new(
                [
                    (SegmentValue::Exact(i), low),
                    (SegmentValue::Exact(i + 1), high),
                ],
                BLUE.mix(0.7).filled(),
            );
            r.set_margin(0, 0, 4, 4);
            r
        };
        if log_scale {
            let mut chart = builder
                .build_cartesian_2d(
                    (0usize..n.saturating_sub(1)).into_segmented(),
                    (min / 2.0..max * 2.0).log_scale(),
                )
                .map_err(chart_error)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(n)
                .x_label_formatter(&x_fmt)
                .x_label_style(("sans-serif", 13))
                .y_desc(y_label)
                .y_label_formatter(&|v| format!("{v:.0e}"))
                .draw()
                .map_err(chart_error)?;
            chart
                .draw_series(
                    values
                        .iter()
                        .enumerate()
                        .map(|(i, &v)| bar(i, min / 2.0, v)),
                )
                .map_err(chart_error)?;
        } else {
            let mut chart = builder
                .build_cartesian_2d(
                    (0usize..n.saturating_sub(1)).into_segmented(),
                    0.0..max * 1.05,
                )
                .map_err(chart_error)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(n)
                .x_label_formatter(&x_fmt)
                .x_label_style(("sans-serif", 13))
                .y_desc(y_label)
                .draw()
                .map_err(chart_error)?;
            chart
                .draw_series(values.iter().enumerate().map(|(i, &v)| bar(i, 0.0, v)))
                .map_err(chart_error)?;
        }
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

fn chart_error<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("cannot draw chart: {e}")
}
