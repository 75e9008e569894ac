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

/// A vertical bar chart as SVG text. `log_scale` plots values on a log10 axis (values
/// must then be positive).
pub fn bar_chart_svg(
    title: &str,
    labels: &[String],
    values: &[f64],
    y_label: &str,
    log_scale: bool,
) -> anyhow::Result<String> {
    // On a log axis the bars are drawn in log10 units and the tick labels say 1e-3 etc.
    let heights: Vec<f64> = if log_scale {
        values.iter().map(|v| v.log10()).collect()
    } else {
        values.to_vec()
    };
    let top = heights.iter().cloned().fold(f64::MIN, f64::max);
    let (low, high) = if log_scale {
        let bottom = heights.iter().cloned().fold(f64::MAX, f64::min);
        (bottom.floor() - 0.3, top.ceil())
    } else {
        (0.0, top.max(0.0) * 1.05)
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let n = labels.len();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(70)
            .y_label_area_size(80)
            .build_cartesian_2d((0usize..n.saturating_sub(1)).into_segmented(), low..high)
            .map_err(chart_error)?;
        let x_label = |v: &SegmentValue<usize>| match v {
            SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        };
        let y_tick = |v: &f64| {
            if log_scale {
                format!("1e{v:.0}")
            } else {
                format!("{v}")
            }
        };
        let mut mesh = chart.configure_mesh();
        mesh.disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&x_label)
            .x_label_style(("sans-serif", 13))
            .y_desc(y_label)
            .y_label_formatter(&y_tick);
        if log_scale {
            // One line per decade: evenly spaced minor lines would misread as linear.
            mesh.y_labels((high - low.ceil()) as usize + 1)
                .light_line_style(TRANSPARENT);
        }
        mesh.draw().map_err(chart_error)?;
        chart
            .draw_series(heights.iter().enumerate().map(|(i, &h)| {
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), low),
                        (SegmentValue::Exact(i + 1), h),
                    ],
                    BLUE.mix(0.7).filled(),
                );
                bar.set_margin(0, 0, 4, 4);
                bar
            }))
            .map_err(chart_error)?;
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

fn chart_error<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("cannot draw chart: {e}")
}
