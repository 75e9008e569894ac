//! Reports: Markdown a person reads, with SVG charts beside it.
//!
//! Games build the text and the chart data; this module renders charts and knows where
//! report files go (`reports/<job>.md`, charts in `reports/<job>/`).

use plotters::prelude::*;

use crate::job::JobMeta;

/// A report: Markdown plus charts, each `(file name, SVG text)`. The Markdown refers to a
/// chart as `<job>/<file name>`.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub markdown: String,
    pub charts: Vec<(String, String)>,
    /// Two or three lines of the main results, which `pipeline run` prints when it ends.
    pub headline: Vec<String>,
}

/// The opening of every report: the title with the job's name, its description, and
/// the start of the sentence that says which job file wrote it —
/// ``Written by `pipeline run PATH` (kind `KIND`)`` — which the game continues.
pub fn header(title: &str, meta: &JobMeta) -> String {
    let mut md = format!("# {title}: `{}`\n\n", meta.name);
    if !meta.description.is_empty() {
        md.push_str(&format!("{}\n\n", plain_markdown(&meta.description)));
    }
    md.push_str(&format!(
        "Written by `pipeline run {}` (kind `{}`)",
        meta.job_file, meta.kind
    ));
    md
}

/// A user's one line of text (a job description) as Markdown that shows it as written:
/// a `<` that could open an HTML tag, comment or autolink (followed by a letter, `/`, `!`
/// or `?`) becomes `&lt;`, so `<script>` is shown, never run or swallowed; `<=` stays.
pub fn plain_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let opens_tag = c == '<'
            && chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?'));
        if opens_tag {
            out.push_str("&lt;");
        } else {
            out.push(c);
        }
    }
    out
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

/// The "Conventions" section that follows every report's opening: the sentences every
/// report shares (the sign of EV, what "±" means, how numbers print), then the game's own
/// lines — how its ties and split pots count, what its pots and stakes are, and its rule set
/// in words with every default — so that no reader has to guess a convention.
pub fn conventions(game: &[String]) -> String {
    let mut md = String::from(
        "\n## Conventions\n\n\
         - **EV** is the expected result of the side a figure is about (our hand; the banker \
         where a column says banker), in the unit stated beside it, positive when that side \
         gains. A house edge, where one is shown, is the player's −EV.\n\
         - **±** is one standard error of a Monte Carlo estimate, and such a figure is printed \
         to the digits its standard error supports. A figure without ± is exact (counted or \
         computed, not sampled), rounded only for print.\n\
         - **Probabilities and equities** are fractions of 1; a figure marked % is a \
         percentage.\n",
    );
    for line in game {
        md.push_str(&format!("- {line}\n"));
    }
    md
}

/// Decimals that print a Monte Carlo estimate to its standard error: two significant
/// digits of the standard error (none for a zero or non-finite error, which is never a
/// sampled figure's).
pub fn error_decimals(std_error: f64) -> usize {
    if !(std_error.is_finite() && std_error > 0.0) {
        return 0;
    }
    (1 - std_error.log10().floor() as i32).max(0) as usize
}

/// `mean ± s.e.` with both printed to the standard error's second significant digit (the
/// mean with a sign when `signed`).
pub fn with_error(mean: f64, std_error: f64, signed: bool) -> String {
    let d = error_decimals(std_error);
    if signed {
        format!("{mean:+.d$} ± {std_error:.d$}")
    } else {
        format!("{mean:.d$} ± {std_error:.d$}")
    }
}

/// A sampled figure whose standard error may be unknown: [`with_error`] where it is known,
/// else the mean to `decimals` followed by `(s.e. unknown: {why})`, so that a figure
/// without ± never reads as exact.
pub fn sampled(mean: f64, std_error: f64, decimals: usize, why: &str) -> String {
    if std_error.is_finite() {
        with_error(mean, std_error, false)
    } else {
        format!("{mean:.decimals$} (s.e. unknown: {why})")
    }
}

/// A figure a report holds up against a published value.
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// What the figure is, e.g. "AA against one random hand".
    pub what: String,
    /// Our value, from this run's tables.
    pub ours: f64,
    /// The published value, as published.
    pub published: f64,
    /// Decimals the published value has (in the unit printed); the figures agree when they
    /// differ by at most half a unit of its last place.
    pub decimals: usize,
    /// The largest gap accepted instead, where the publisher computes the figure by
    /// another convention (which `what` or `source` names): printed beside the published
    /// value, so the box says how close it claims.
    pub tolerance: Option<f64>,
    /// Where it is published.
    pub source: &'static str,
}

/// The "matches published figures" section: each figure beside its published value and
/// source. An error, which fails the run, when a figure is further from its published value
/// than half a unit of the published value's last place (so a table that drifts cannot
/// go out with the box still claiming agreement).
pub fn published_box(figures: &[Published]) -> anyhow::Result<String> {
    let mut rows = Vec::new();
    for f in figures {
        let half_unit = 0.5 * 10f64.powi(-(f.decimals as i32));
        let allowed = f.tolerance.unwrap_or(half_unit);
        let gap = (f.ours - f.published).abs();
        if gap.is_nan() || gap > allowed * (1.0 + 1e-9) {
            anyhow::bail!(
                "{}: this run gives {}, {gap:.3e} from the published {} ({}): more than the {allowed:e} {}",
                f.what,
                f.ours,
                f.published,
                f.source,
                if f.tolerance.is_some() {
                    "its tolerance allows"
                } else {
                    "the published rounding allows"
                }
            );
        }
        let ours = if f.decimals == 0 {
            format!("{:.0}", f.ours)
        } else {
            format!("{:.*}", f.decimals + 2, f.ours)
        };
        rows.push(vec![
            f.what.clone(),
            ours,
            match f.tolerance {
                None => format!("{:.*}", f.decimals, f.published),
                Some(t) => format!("{:.*} (± {t})", f.decimals, f.published),
            },
            f.source.to_string(),
        ]);
    }
    let intro = if figures.iter().any(|f| f.tolerance.is_some()) {
        "\n## Matches published figures\n\nComputed from this run's tables and checked on \
         every run: the run fails if a figure is further from its published value than the \
         published rounding allows (half a unit of its last place), or, where the publisher \
         computes it by another convention, than the tolerance in brackets.\n\n"
    } else {
        "\n## Matches published figures\n\nComputed from this run's tables and checked on \
         every run: the run fails if a figure is further from its published value than the \
         published rounding allows (half a unit of its last place).\n\n"
    };
    // One source for every row: said once, under the table.
    match figures.first().map(|f| f.source) {
        Some(source) if figures.iter().all(|f| f.source == source) => {
            for row in &mut rows {
                row.pop();
            }
            Ok(format!(
                "{intro}{}\nSource: {source}.\n",
                markdown_table(&["figure", "this run", "published"], &rows)
            ))
        }
        _ => {
            // Several sources: each numbered once, in order of first use, listed under
            // the table, so a long source is not repeated on every row it backs.
            let mut sources: Vec<&str> = Vec::new();
            for (row, f) in rows.iter_mut().zip(figures) {
                let n = match sources.iter().position(|&s| s == f.source) {
                    Some(i) => i + 1,
                    None => {
                        sources.push(f.source);
                        sources.len()
                    }
                };
                if let Some(cell) = row.last_mut() {
                    *cell = format!("[{n}]");
                }
            }
            let list: String = sources
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{}. {s}.\n", i + 1))
                .collect();
            Ok(format!(
                "{intro}{}\nSources:\n\n{list}",
                markdown_table(&["figure", "this run", "published", "source"], &rows)
            ))
        }
    }
}

/// A vertical bar chart as SVG text. On a linear axis bars start at zero and may be
/// negative; `log_scale` plots values on a log10 axis (values must then be positive).
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
        let bottom = heights.iter().cloned().fold(f64::MAX, f64::min).min(0.0);
        let span = (top.max(0.0) - bottom).max(f64::MIN_POSITIVE);
        (
            if bottom < 0.0 {
                bottom - 0.05 * span
            } else {
                0.0
            },
            top.max(0.0) + 0.05 * span,
        )
    };
    // Bars grow from zero on a linear axis, from the bottom on a log axis.
    let base = if log_scale { low } else { 0.0 };
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
                        (SegmentValue::Exact(i), base),
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

/// Line colours, colour-blind safe (the Okabe–Ito palette): blue, vermillion, bluish
/// green, reddish purple, orange, sky blue, black.
const LINE_COLOURS: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x00, 0x00),
];

/// One named series of a line chart. Lines that belong together (an exact curve and its
/// rule of thumb, one hand under two models) share a colour and differ by stroke.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Index into the chart palette (wraps around).
    pub colour: usize,
    /// Dashed rather than solid: the approximation or the comparison model.
    pub dashed: bool,
}

impl Line {
    /// A solid line.
    pub fn solid(name: impl Into<String>, points: Vec<(f64, f64)>, colour: usize) -> Line {
        Line {
            name: name.into(),
            points,
            colour,
            dashed: false,
        }
    }

    /// A dashed line.
    pub fn dashed(name: impl Into<String>, points: Vec<(f64, f64)>, colour: usize) -> Line {
        Line {
            dashed: true,
            ..Line::solid(name, points, colour)
        }
    }
}

/// A labelled point drawn on a line chart (an optimum, a crossover).
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub label: String,
    pub x: f64,
    pub y: f64,
    pub colour: usize,
}

/// A line chart of named lines as SVG text, with a legend and labelled marks.
pub fn line_chart_svg(
    title: &str,
    x_label: &str,
    y_label: &str,
    lines: &[Line],
    marks: &[Mark],
) -> anyhow::Result<String> {
    let points = || {
        lines
            .iter()
            .flat_map(|l| l.points.iter().copied())
            .chain(marks.iter().map(|m| (m.x, m.y)))
    };
    let (x0, x1) = points().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    let (y0, y1) = points().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    let pad = ((y1 - y0) * 0.05).max(1e-9);
    let colour = |i: usize| LINE_COLOURS[i % LINE_COLOURS.len()];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))
            .map_err(chart_error)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .draw()
            .map_err(chart_error)?;
        for line in lines {
            let style = colour(line.colour).stroke_width(2);
            let data = line.points.iter().copied();
            if line.dashed {
                chart
                    .draw_series(DashedLineSeries::new(data, 8, 5, style))
                    .map_err(chart_error)?
                    .label(line.name.as_str())
                    .legend(move |(x, y)| {
                        plotters::element::DashedPathElement::new(
                            vec![(x, y), (x + 20, y)],
                            5,
                            3,
                            style,
                        )
                    });
            } else {
                chart
                    .draw_series(LineSeries::new(data, style))
                    .map_err(chart_error)?
                    .label(line.name.as_str())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
            }
        }
        for m in marks {
            let c = colour(m.colour);
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((m.x, m.y))
                        + Circle::new((0, 0), 5, c.filled())
                        + Text::new(
                            m.label.clone(),
                            (8, -18),
                            ("sans-serif", 14).into_font().color(&c),
                        ),
                ))
                .map_err(chart_error)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(chart_error)?;
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

/// A starting-hand grid as a Markdown table: one row and one column per rank (highest
/// first), pairs on the diagonal, suited hands above it and offsuit hands below.
/// `cell(high, low, suited)` gives each cell's text; ranks are card-id ranks (0 = 2).
pub fn rank_grid(ranks_high_first: &[u8], cell: impl Fn(u8, u8, bool) -> String) -> String {
    let label = |r: u8| cardtables::card::RANK_CHARS[usize::from(r)].to_string();
    let mut header = vec![String::new()];
    header.extend(ranks_high_first.iter().map(|&r| label(r)));
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let rows: Vec<Vec<String>> = ranks_high_first
        .iter()
        .map(|&r1| {
            let mut row = vec![format!("**{}**", label(r1))];
            for &r2 in ranks_high_first {
                row.push(if r1 > r2 {
                    cell(r1, r2, true)
                } else {
                    cell(r2, r1, false)
                });
            }
            row
        })
        .collect();
    markdown_table(&header, &rows)
}

/// A 13×13 starting-hand grid as an SVG heatmap: pairs on the diagonal, suited hands above
/// it, offsuit below (rows and columns high rank first), each cell coloured on the
/// [`viridis`] scale between `low` and `high` and labelled with `label`, with a colour bar
/// titled `legend` beside the grid.
pub fn rank_grid_svg(
    title: &str,
    legend: &str,
    value: impl Fn(u8, u8, bool) -> f64,
    low: f64,
    high: f64,
    label: impl Fn(f64) -> String,
) -> String {
    rank_grid_svg_cells(
        title,
        legend,
        |hi, lo, suited| {
            let v = value(hi, lo, suited);
            (v, label(v))
        },
        low,
        high,
    )
}

/// As [`rank_grid_svg`], with each cell's label given beside its value (for labels that
/// say more than the value, such as marks on some hands).
pub fn rank_grid_svg_cells(
    title: &str,
    legend: &str,
    cell_of: impl Fn(u8, u8, bool) -> (f64, String),
    low: f64,
    high: f64,
) -> String {
    let (cell, left, top) = (46usize, 24usize, 44usize);
    // The grid, then the colour bar and its labels.
    let (bar_x, bar_width) = (left + 13 * cell + 16, 18usize);
    let size = bar_x + bar_width + 70;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n\
         <text x=\"{left}\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{title}</text>\n",
        top + 13 * cell + 10
    );
    let name = |r: u8| cardtables::card::RANK_CHARS[usize::from(r)];
    for k in 0..13u8 {
        let r = 12 - k;
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>\n",
            left + usize::from(k) * cell + cell / 2,
            top - 6,
            name(r),
            left / 2,
            top + usize::from(k) * cell + cell / 2 + 4,
            name(r)
        ));
    }
    for i in 0..13u8 {
        for j in 0..13u8 {
            let (r1, r2) = (12 - i, 12 - j);
            let (hi, lo, suited) = if r1 > r2 {
                (r1, r2, true)
            } else {
                (r2, r1, false)
            };
            let (v, cell_label) = cell_of(hi, lo, suited && hi != lo);
            let t = ((v - low) / (high - low)).clamp(0.0, 1.0);
            let [r, g, b] = viridis(t);
            let ink = ink_on([r, g, b]);
            let text = if hi == lo {
                format!("{}{}", name(hi), name(lo))
            } else {
                format!("{}{}{}", name(hi), name(lo), if suited { "s" } else { "o" })
            };
            let (x, y) = (left + usize::from(j) * cell, top + usize::from(i) * cell);
            svg.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"rgb({r},{g},{b})\" stroke=\"#999\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"{ink}\">{text}</text><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>\n",
                x + cell / 2,
                y + 18,
                x + cell / 2,
                y + 34,
                cell_label
            ));
        }
    }
    // The colour bar: high at the top, in 26 bands, with the two ends and the middle
    // labelled.
    let bands = 26;
    let band = 13 * cell / bands;
    for k in 0..bands {
        let t = 1.0 - (k as f64 + 0.5) / bands as f64;
        let [r, g, b] = viridis(t);
        svg.push_str(&format!(
            "<rect x=\"{bar_x}\" y=\"{}\" width=\"{bar_width}\" height=\"{band}\" fill=\"rgb({r},{g},{b})\"/>\n",
            top + k * band
        ));
    }
    let scale = |v: f64| {
        let spread = (high - low).abs();
        if spread >= 10.0 {
            format!("{v:.0}")
        } else if spread >= 1.5 {
            format!("{v:.1}")
        } else {
            format!("{v:.2}")
        }
    };
    for (y, v) in [
        (top + 4, high),
        (top + 13 * cell / 2 + 4, (low + high) / 2.0),
        (top + bands * band, low),
    ] {
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{y}\">{}</text>\n",
            bar_x + bar_width + 4,
            scale(v)
        ));
    }
    svg.push_str(&format!(
        "<text x=\"{bar_x}\" y=\"{}\" font-weight=\"bold\">{legend}</text>\n",
        top - 6
    ));
    svg.push_str("</svg>\n");
    svg
}

/// A heat map of a table of values as SVG text: one row per `rows` label, one column per
/// `columns` label, each cell coloured on the viridis scale from `low` to `high` (with a
/// colour bar) and labelled with `label(value)`.
pub fn heat_grid_svg(
    title: &str,
    rows: &[String],
    columns: &[String],
    values: &[Vec<f64>],
    (low, high): (f64, f64),
    legend: &str,
    label: impl Fn(f64) -> String,
) -> String {
    let (cell_w, cell_h, left, top) = (64usize, 26usize, 110usize, 60usize);
    let (bar_x, bar_w) = (left + columns.len() * cell_w + 20, 16usize);
    let height = top + rows.len() * cell_h + 16;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n\
         <text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{title}</text>\n",
        bar_x + bar_w + 150
    );
    for (j, name) in columns.iter().enumerate() {
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{name}</text>\n",
            left + j * cell_w + cell_w / 2,
            top - 8
        ));
    }
    for (i, name) in rows.iter().enumerate() {
        let y = top + i * cell_h;
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-weight=\"bold\">{name}</text>\n",
            left - 8,
            y + cell_h / 2 + 4
        ));
        for (j, &v) in values[i].iter().enumerate() {
            let t = if high > low {
                ((v - low) / (high - low)).clamp(0.0, 1.0)
            } else {
                0.5
            };
            let [r, g, b] = viridis(t);
            let ink = ink_on([r, g, b]);
            let x = left + j * cell_w;
            svg.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell_w}\" height=\"{cell_h}\" fill=\"rgb({r},{g},{b})\" stroke=\"#999\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>\n",
                x + cell_w / 2,
                y + cell_h / 2 + 4,
                label(v)
            ));
        }
    }
    let span = rows.len() * cell_h;
    let bands = 20;
    for k in 0..bands {
        let t = 1.0 - (k as f64 + 0.5) / bands as f64;
        let [r, g, b] = viridis(t);
        svg.push_str(&format!(
            "<rect x=\"{bar_x}\" y=\"{}\" width=\"{bar_w}\" height=\"{}\" fill=\"rgb({r},{g},{b})\"/>\n",
            top + k * span / bands,
            span / bands + 1
        ));
    }
    for (y, v) in [(top + 8, high), (top + span, low)] {
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{y}\">{}</text>\n",
            bar_x + bar_w + 4,
            label(v)
        ));
    }
    svg.push_str(&format!(
        "<text x=\"{bar_x}\" y=\"{}\" font-weight=\"bold\">{legend}</text>\n</svg>\n",
        top - 8
    ));
    svg
}

/// The viridis colour scale (perceptually uniform, readable with every common form of
/// colour blindness and in grey): `t` in [0, 1] from dark purple through teal to yellow,
/// interpolated between ten published anchor colours.
pub fn viridis(t: f64) -> [u8; 3] {
    const ANCHORS: [[f64; 3]; 10] = [
        [68.0, 1.0, 84.0],
        [72.0, 40.0, 120.0],
        [62.0, 74.0, 137.0],
        [49.0, 104.0, 142.0],
        [38.0, 130.0, 142.0],
        [31.0, 158.0, 137.0],
        [53.0, 183.0, 121.0],
        [109.0, 205.0, 89.0],
        [180.0, 222.0, 44.0],
        [253.0, 231.0, 37.0],
    ];
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * 9.0;
    let i = (x.floor() as usize).min(8);
    let u = x - i as f64;
    std::array::from_fn(|c| (ANCHORS[i][c] + (ANCHORS[i + 1][c] - ANCHORS[i][c]) * u).round() as u8)
}

/// Black or white, whichever reads better on a background colour (by relative luminance).
fn ink_on([r, g, b]: [u8; 3]) -> &'static str {
    let luminance = 0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b);
    if luminance > 140.0 {
        "#000000"
    } else {
        "#ffffff"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_job_file_as_given() {
        let mut meta = JobMeta::named("n", "niuniu.hands");
        meta.job_file = "../elsewhere/n.toml".into();
        assert_eq!(
            header("Niuniu", &meta),
            "# Niuniu: `n`\n\nWritten by `pipeline run ../elsewhere/n.toml` (kind `niuniu.hands`)"
        );
        meta.description = "one line".into();
        assert_eq!(
            plain_markdown("<script>alert(1)</script> s.e. <= 1e-4, a<b, <!-- x"),
            "&lt;script>alert(1)&lt;/script> s.e. <= 1e-4, a&lt;b, &lt;!-- x"
        );
        assert!(header("Niuniu", &meta).contains("`n`\n\none line\n\nWritten by"));
    }

    #[test]
    fn monte_carlo_figures_print_to_their_standard_error() {
        assert_eq!(with_error(-0.391_8, 0.025_8, true), "-0.392 ± 0.026");
        assert_eq!(with_error(-0.399_9, 0.005_2, true), "-0.3999 ± 0.0052");
        assert_eq!(with_error(0.721_63, 1.0e-4, false), "0.72163 ± 0.00010");
        assert_eq!(with_error(12.34, 3.1, false), "12.3 ± 3.1");
        assert_eq!(with_error(1234.0, 31.0, false), "1234 ± 31");
        assert_eq!(error_decimals(0.0), 0);
        assert_eq!(error_decimals(f64::NAN), 0);
    }

    #[test]
    fn every_report_shares_the_convention_sentences_and_adds_its_own() {
        let md = conventions(&["Ties split the pot.".to_string()]);
        assert!(md.starts_with("\n## Conventions\n\n- **EV**"));
        assert!(md.contains("A house edge, where one is shown, is the player's −EV."));
        assert!(md.contains("one standard error"));
        assert!(md.ends_with("- Ties split the pot.\n"));
    }

    #[test]
    fn the_heatmap_scale_runs_dark_to_light_with_readable_ink() {
        assert_eq!(viridis(0.0), [68, 1, 84]);
        assert_eq!(viridis(1.0), [253, 231, 37]);
        assert_eq!(viridis(-3.0), viridis(0.0));
        assert_eq!(viridis(f64::NAN), viridis(0.0));
        // Lightness rises along the scale, so it reads in grey too.
        let light = |t: f64| {
            let [r, g, b] = viridis(t);
            0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b)
        };
        let steps: Vec<f64> = (0..=100).map(|k| light(f64::from(k) / 100.0)).collect();
        assert!(steps.windows(2).all(|w| w[1] >= w[0] - 0.5), "{steps:?}");
        assert_eq!(ink_on(viridis(0.0)), "#ffffff");
        assert_eq!(ink_on(viridis(1.0)), "#000000");
        let svg = rank_grid_svg("t", "equity", |_, _, _| 0.5, 0.0, 1.0, |v| format!("{v}"));
        assert!(svg.contains(">equity</text>") && svg.contains(">1.00</text>"));
    }

    #[test]
    fn the_published_box_passes_within_the_published_rounding_and_fails_beyond() {
        let figure = |ours: f64| Published {
            what: "AA against one random hand".into(),
            ours,
            published: 0.852,
            decimals: 3,
            tolerance: None,
            source: "calculators",
        };
        let md = published_box(&[figure(0.85204)]).unwrap();
        assert!(
            md.contains("| AA against one random hand | 0.85204 | 0.852 |\n"),
            "{md}"
        );
        assert!(md.contains("Source: calculators."), "{md}");
        assert!(published_box(&[figure(0.8525)]).is_ok());
        let e = published_box(&[figure(0.8526)]).unwrap_err().to_string();
        assert!(
            e.contains("AA against one random hand") && e.contains("0.852"),
            "{e}"
        );
        // Counts published exactly must match exactly.
        let count = |ours: f64| Published {
            what: "flushes".into(),
            ours,
            published: 5108.0,
            decimals: 0,
            tolerance: None,
            source: "textbook",
        };
        // A figure computed by another convention is held to its stated tolerance.
        let other = |ours: f64| Published {
            what: "house edge".into(),
            ours,
            published: 0.1839,
            decimals: 4,
            tolerance: Some(0.001),
            source: "appendix",
        };
        let md = published_box(&[other(0.1831)]).unwrap();
        assert!(
            md.contains("| house edge | 0.183100 | 0.1839 (± 0.001) |"),
            "{md}"
        );
        assert!(md.contains("than the tolerance in brackets"), "{md}");
        assert!(published_box(&[other(0.1828)]).is_err());
        // Several sources are numbered once each, in order of first use.
        let md = published_box(&[other(0.1831), figure(0.852), other(0.1835)]).unwrap();
        assert!(
            md.contains("| house edge | 0.183100 | 0.1839 (± 0.001) | [1] |"),
            "{md}"
        );
        assert!(
            md.contains("| AA against one random hand | 0.85200 | 0.852 | [2] |"),
            "{md}"
        );
        assert!(
            md.contains("| house edge | 0.183500 | 0.1839 (± 0.001) | [1] |"),
            "{md}"
        );
        assert!(
            md.ends_with("Sources:\n\n1. appendix.\n2. calculators.\n"),
            "{md}"
        );
        assert!(published_box(&[count(5108.0)]).is_ok());
        assert!(published_box(&[count(5109.0)]).is_err());
        assert!(published_box(&[count(f64::NAN)]).is_err());
    }

    #[test]
    fn markdown_tables_right_align_every_column_but_the_first() {
        let table = markdown_table(
            &["hand", "equity"],
            &[
                vec!["AA".into(), "0.85".into()],
                vec!["72o".into(), "0.35".into()],
            ],
        );
        assert_eq!(
            table,
            "| hand | equity |\n|---|---:|\n| AA | 0.85 |\n| 72o | 0.35 |\n"
        );
    }

    #[test]
    fn rank_grids_put_suited_hands_above_the_diagonal() {
        // Ranks A (12) and K (11): AKs above the diagonal, AKo below it.
        let grid = rank_grid(&[12, 11], |hi, lo, suited| {
            format!("{hi}{lo}{}", if suited { "s" } else { "o" })
        });
        let rows: Vec<&str> = grid.lines().collect();
        assert_eq!(rows[0], "|  | A | K |");
        assert_eq!(rows[2], "| **A** | 1212o | 1211s |");
        assert_eq!(rows[3], "| **K** | 1211o | 1111o |");
    }

    #[test]
    fn charts_are_svg_with_their_labels_as_text() {
        let labels = vec!["pair".to_string(), "flush".to_string()];
        let svg = bar_chart_svg("Categories", &labels, &[0.4, 0.002], "probability", true).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        for text in ["Categories", "pair", "flush"] {
            assert!(svg.contains(text), "{text} missing");
        }
        let lines = vec![
            Line::solid("exact", vec![(1.0, 0.1), (2.0, 0.2)], 0),
            Line::dashed("rule", vec![(1.0, 0.12), (2.0, 0.18)], 0),
        ];
        let marks = vec![Mark {
            label: "best 1.5".into(),
            x: 1.5,
            y: 0.15,
            colour: 0,
        }];
        let svg = line_chart_svg("Hits", "outs", "p", &lines, &marks).unwrap();
        assert!(svg.contains("exact") && svg.contains("Hits") && svg.contains("best 1.5"));
        // Both lines in the first colour, the rule of thumb dashed: one solid polyline,
        // dashes drawn as many short segments, and the mark a filled circle.
        let blue_lines = svg
            .split("<polyline")
            .skip(1)
            .filter(|p| p.contains("stroke=\"#0072B2\""))
            .count();
        // Solid: the line and its legend sample; dashed: several dashes each.
        assert!(blue_lines > 4, "{blue_lines} blue polylines");
        assert!(svg.contains("fill=\"#0072B2\"") && svg.contains("<circle"));
        assert!(!svg.contains("#D55E00"), "a second colour");
    }

    #[test]
    fn linear_bars_grow_from_zero_either_way() {
        let labels = vec!["win".to_string(), "lose".to_string()];
        let svg = bar_chart_svg("EV", &labels, &[0.5, -0.5], "EV", false).unwrap();
        // The bars: (y, height) of each blue rectangle.
        let bars: Vec<(i64, i64)> = svg
            .split("<rect ")
            .filter(|r| r.contains("#0000FF"))
            .map(|r| {
                let attr = |name: &str| -> i64 {
                    let at = r.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                    r[at..].split('"').next().unwrap().parse().unwrap()
                };
                (attr("y"), attr("height"))
            })
            .collect();
        assert_eq!(bars.len(), 2, "{svg}");
        let ((y_up, h_up), (y_down, h_down)) = (bars[0], bars[1]);
        // Equal and opposite values: equal heights, meeting at the zero line.
        assert!((h_up - h_down).abs() <= 1 && h_up > 50, "{bars:?}");
        assert!((y_up + h_up - y_down).abs() <= 1, "{bars:?}");
    }
}
