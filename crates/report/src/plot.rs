//! Cactus plots of solver races, and the wall-time prediction of `cube --estimate` (SVG).

use crate::Result;
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One solver's solved instances: the wall-clock seconds of each instance it solved
/// correctly (any order; unsolved and wrong answers are simply absent).
pub struct Series {
    /// Name shown in the legend.
    pub solver: String,
    /// Seconds taken on each correctly solved instance.
    pub solved_seconds: Vec<f64>,
}

const WIDTH: u32 = 800;
const HEIGHT: u32 = 500;

/// Colour-blind-friendly (Okabe–Ito) colours, so that solvers stay distinguishable for
/// most readers, colour-blind ones included; cycles when there are more solvers.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
];

const FONT: &str = "sans-serif";

/// Renders the cactus plot as an SVG document: x = number of instances solved, y = run
/// time in seconds on a logarithmic axis (each solver's solved runs sorted, the k-th point
/// at (k, t_k)), one line with markers per solver, a legend naming each solver with its
/// solved count, axis labels, a title `title`, and a dashed horizontal line at `timeout`
/// seconds labelled as the time limit. `total_instances` sets the x range
/// (0..=total_instances). Works with empty series (a solver that solved nothing still
/// appears in the legend) and with all-zero times.
///
/// Points are numbered from 1, so the point (k, t) reads "with a limit of t seconds this
/// solver solves k instances". Non-finite times are left out (they cannot be placed on
/// the axis), and times under a millisecond (the log axis has no 0) are drawn at one.
pub fn cactus_svg(
    series: &[Series],
    timeout: f64,
    total_instances: usize,
    title: &str,
) -> Result<String> {
    let sorted: Vec<Vec<f64>> = series
        .iter()
        .map(|s| {
            let mut times: Vec<f64> = s
                .solved_seconds
                .iter()
                .copied()
                .filter(|t| t.is_finite())
                .map(|t| t.max(0.0))
                .collect();
            times.sort_by(f64::total_cmp);
            times
        })
        .collect();

    // The x range must still hold every point if a caller passes a too-small total, and
    // must not be empty, since plotters cannot map onto a zero-width range.
    let x_max = sorted
        .iter()
        .map(Vec::len)
        .fold(total_instances, usize::max)
        .max(1);

    let show_timeout = timeout.is_finite() && timeout > 0.0;
    let max_time = sorted
        .iter()
        .filter_map(|t| t.last().copied())
        .fold(0.0_f64, f64::max);
    let top = if show_timeout {
        max_time.max(timeout)
    } else {
        max_time
    };
    // Run times span orders of magnitude (a millisecond to the limit), so the time axis is
    // logarithmic, as in the competitions' cactus plots; a log axis has no 0, so times
    // below FLOOR are drawn at FLOOR. Headroom keeps the timeout line and the top points
    // off the frame.
    const FLOOR: f64 = 1e-3;
    let y_max = top.max(FLOOR) * 1.5;
    let y_min = sorted
        .iter()
        .filter_map(|t| t.first().copied())
        .fold(y_max, f64::min)
        .max(FLOOR)
        / 1.5;
    let sorted: Vec<Vec<f64>> = (sorted.into_iter())
        .map(|t| t.into_iter().map(|x| x.max(FLOOR)).collect())
        .collect();

    picture(title, 65, |frame| {
        let mut chart = frame.build_cartesian_2d(0..x_max, (y_min..y_max).log_scale())?;

        mesh(
            &mut chart,
            "instances solved",
            "run time (s, log scale): the k-th fastest solved run",
        )
        .y_label_formatter(&|v| format_tick(*v, *v))
        .draw()?;

        if show_timeout {
            let limit_style = RGBColor(200, 0, 0).stroke_width(1);
            chart.draw_series(DashedLineSeries::new(
                [(0, timeout), (x_max, timeout)],
                8,
                5,
                limit_style,
            ))?;
            // Above the line at the left end: cactus curves are near the bottom there, so
            // no point can hide the label (the legend goes below the line).
            chart.draw_series(std::iter::once(
                EmptyElement::at((0, timeout))
                    + Text::new(
                        format!("time limit {}", format_seconds(timeout)),
                        (6, -3),
                        TextStyle::from((FONT, 14).into_font())
                            .color(&RGBColor(200, 0, 0))
                            .pos(Pos::new(HPos::Left, VPos::Bottom)),
                    ),
            ))?;
        }

        for (i, (s, times)) in series.iter().zip(&sorted).enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let points: Vec<(usize, f64)> =
                times.iter().enumerate().map(|(k, &t)| (k + 1, t)).collect();
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)).point_size(3))?
                .label(format!("{} ({} solved)", s.solver, times.len()))
                .legend(move |(x, y)| {
                    let style = color.stroke_width(2);
                    EmptyElement::at((x, y))
                        + PathElement::new([(0, 0), (20, 0)], style)
                        + Circle::new((10, 0), 3, style)
                });
        }

        if !series.is_empty() {
            // Cactus curves stay low until they rise steeply on the right, so the upper
            // left is usually empty; start just under the timeout line to keep it visible.
            let legend_top = if show_timeout {
                let line_y = chart.backend_coord(&(0, timeout)).1;
                let area_top = chart.plotting_area().get_base_pixel().1;
                (line_y - area_top + 8).max(5)
            } else {
                5
            };
            legend(&mut chart, SeriesLabelPosition::Coordinate(5, legend_top))?;
        }
        Ok(())
    })
}

/// One row of a wall-time prediction: workers, the predicted seconds and its interval.
pub struct Predicted {
    /// Workers solving cubes at once.
    pub workers: usize,
    /// The prediction.
    pub seconds: f64,
    /// The interval's ends.
    pub low: f64,
    /// See `low`.
    pub high: f64,
}

/// The picture of `cube --estimate`'s prediction `e` ([`estimate_svg`]), titled with the
/// cubes, the sample and the solver.
pub fn estimate_picture(e: &pq_engine::cube::estimate::Estimate) -> Result<String> {
    let points: Vec<Predicted> = (e.wall.iter())
        .map(|w| Predicted {
            workers: w.workers,
            seconds: w.seconds.estimate,
            low: w.seconds.low,
            high: w.seconds.high,
        })
        .collect();
    let title = format!(
        "{} cubes, sample of {} ({})",
        e.cubes,
        e.sample.len(),
        e.solver
    );
    estimate_svg(&points, e.total_cpu.estimate, &title)
}

/// Renders `cube --estimate`'s prediction as an SVG document: wall time against workers,
/// both on log scales, the prediction as a line with markers and its interval as a bar at
/// each point, and the perfect speed-up `total / workers` dashed for comparison (the gap is
/// what the cubes' unequal sizes cost). Times are drawn no lower than a millisecond (a log
/// axis has no 0).
pub fn estimate_svg(points: &[Predicted], total: f64, title: &str) -> Result<String> {
    const FLOOR: f64 = 1e-3;
    let at_least = |t: f64| if t.is_finite() { t.max(FLOOR) } else { FLOOR };
    let x_max = points.iter().map(|p| p.workers).max().unwrap_or(1).max(2) as f64 * 1.5;
    let y_top = points
        .iter()
        .map(|p| at_least(p.high))
        .fold(at_least(total), f64::max)
        * 2.0;
    let y_bottom = points
        .iter()
        .map(|p| at_least(p.low))
        .chain(points.iter().map(|p| at_least(total / p.workers as f64)))
        .fold(y_top, f64::min)
        / 2.0;
    picture(title, 75, |frame| {
        let x = (0.7..x_max).log_scale();
        let mut chart = frame.build_cartesian_2d(x, (y_bottom..y_top).log_scale())?;
        mesh(&mut chart, "workers", "predicted wall time (s)")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v}"))
            .draw()?;
        let ideal: Vec<(f64, f64)> = (points.iter())
            .map(|p| (p.workers as f64, at_least(total / p.workers as f64)))
            .collect();
        chart
            .draw_series(DashedLineSeries::new(ideal, 8, 5, BLACK.stroke_width(1)))?
            .label("perfect speed-up (total CPU / workers)")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.stroke_width(1)));
        let colour = PALETTE[0];
        for p in points {
            let x = p.workers as f64;
            chart.draw_series(std::iter::once(PathElement::new(
                [(x, at_least(p.low)), (x, at_least(p.high))],
                colour.stroke_width(2),
            )))?;
        }
        let line: Vec<(f64, f64)> = (points.iter())
            .map(|p| (p.workers as f64, at_least(p.seconds)))
            .collect();
        chart
            .draw_series(LineSeries::new(line, colour.stroke_width(2)).point_size(4))?
            .label("predicted (bars: 95% interval)")
            .legend(move |(x, y)| {
                let style = colour.stroke_width(2);
                EmptyElement::at((x, y))
                    + PathElement::new([(0, 0), (20, 0)], style)
                    + Circle::new((10, 0), 3, style)
            });
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}

/// An SVG document of the pictures' common size, background and title: `draw` builds its
/// chart from `frame` (margins and label areas set, `y_label_area` pixels for the y axis's
/// labels) and draws on it.
fn picture(
    title: &str,
    y_label_area: u32,
    draw: impl FnOnce(&mut ChartBuilder<'_, '_, SVGBackend<'_>>) -> Result<()>,
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut frame = ChartBuilder::on(&root);
        frame
            .caption(title, (FONT, 22))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(y_label_area);
        draw(&mut frame)?;
        root.present()?;
    }
    Ok(svg)
}

/// The grid and axes of `chart`, described as `x_desc` and `y_desc`, in the pictures'
/// fonts; the caller adds its tick labels and draws it.
fn mesh<'a, 'b, X, Y, XT, YT>(
    chart: &'b mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    x_desc: &str,
    y_desc: &str,
) -> MeshStyle<'a, 'b, X, Y, SVGBackend<'a>>
where
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
{
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style((FONT, 15))
        .label_style((FONT, 14))
        .light_line_style(RGBColor(235, 235, 235));
    mesh
}

/// The legend of the series drawn, at `position`, on a white ground that lets the lines
/// show through.
fn legend<'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
    position: SeriesLabelPosition,
) -> Result<()> {
    chart
        .configure_series_labels()
        .position(position)
        .margin(12)
        .label_font((FONT, 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Y tick labels with just enough decimals for the axis scale, so whole seconds are not
/// printed as "600.0" while sub-second ranges still read distinctly.
fn format_tick(v: f64, y_max: f64) -> String {
    // Ticks are about a tenth of the range apart; one extra decimal covers 2.5-style
    // steps, and trimming drops whatever turns out to be unneeded.
    let decimals = (2.0 - y_max.log10()).ceil().clamp(0.0, 9.0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Seconds without a pointless ".0" for whole numbers, as time limits usually are.
fn format_seconds(t: f64) -> String {
    if t.fract() == 0.0 && t.abs() < 1e15 {
        format!("{} s", t as i64)
    } else {
        format!("{t} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_io::output::WritePolicy;

    fn series(name: &str, times: &[f64]) -> Series {
        Series {
            solver: name.to_string(),
            solved_seconds: times.to_vec(),
        }
    }

    /// Parses `svg` and returns all its text content joined, panicking if it is not
    /// well-formed or not rooted at `<svg>`.
    fn parse_text(svg: &str) -> String {
        let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc.descendants()
            .filter(roxmltree::Node::is_text)
            .filter_map(|n| n.text())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn well_formed_with_legend_and_title() {
        let s = vec![
            series("kissat", &[3.5, 0.2, 120.0, 40.0]),
            series("cadical", &[1.0, 500.0]),
            series("minisat", &[]),
        ];
        let svg = cactus_svg(&s, 600.0, 10, "Race 7x7").unwrap();
        let text = parse_text(&svg);
        assert!(text.contains("Race 7x7"), "{text}");
        assert!(text.contains("kissat (4 solved)"), "{text}");
        assert!(text.contains("cadical (2 solved)"), "{text}");
        assert!(text.contains("minisat (0 solved)"), "{text}");
        assert!(text.contains("time limit 600 s"), "{text}");
        assert!(text.contains("instances solved"), "{text}");
        // Run times from 0.2 s to 500 s: the time axis is logarithmic, and says so.
        assert!(text.contains("run time (s, log scale)"), "{text}");
        for tick in ["1", "10", "100"] {
            assert!(text.lines().any(|l| l == tick), "tick {tick} in {text}");
        }
    }

    #[test]
    fn many_solvers_cycle_palette() {
        let s: Vec<Series> = (0..12)
            .map(|i| series(&format!("s{i}"), &[f64::from(i)]))
            .collect();
        let text = parse_text(&cactus_svg(&s, 10.0, 3, "t").unwrap());
        for i in 0..12 {
            assert!(text.contains(&format!("s{i} (1 solved)")), "{text}");
        }
    }

    #[test]
    fn names_are_escaped() {
        let name = r#"cadical -q <x> & "y""#;
        let svg = cactus_svg(&[series(name, &[1.0, 2.0])], 5.0, 4, "a < b & c").unwrap();
        let text = parse_text(&svg);
        assert!(text.contains(name), "{text}");
        assert!(text.contains("a < b & c"), "{text}");
    }

    #[test]
    fn degenerate_inputs() {
        parse_text(&cactus_svg(&[], 60.0, 0, "").unwrap());
        parse_text(&cactus_svg(&[], 0.0, 0, "nothing").unwrap());
        let text = parse_text(&cactus_svg(&[series("z", &[0.0, 0.0, 0.0])], 0.0, 3, "z").unwrap());
        assert!(text.contains("z (3 solved)"), "{text}");
        parse_text(&cactus_svg(&[series("z", &[0.0])], 30.0, 0, "z").unwrap());
        let weird = series("w", &[f64::NAN, f64::INFINITY, -1.0, 2.0]);
        let text = parse_text(&cactus_svg(&[weird], f64::NAN, 2, "w").unwrap());
        assert!(text.contains("w (2 solved)"), "{text}");
        // No line is drawn for a meaningless limit.
        assert_eq!(text.matches("time limit").count(), 0, "{text}");
    }

    fn dir_entries(dir: &std::path::Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn write_creates_only_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("race.svg");
        let s = [series("kissat", &[1.0, 2.0])];
        let svg = cactus_svg(&s, 10.0, 5, "race").unwrap();
        crate::files::write_svg(&path, &svg, WritePolicy::Keep).unwrap();
        assert_eq!(dir_entries(dir.path()), ["race.svg"]);
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(written, cactus_svg(&s, 10.0, 5, "race").unwrap());
        parse_text(&written);

        // Without --force the file stays; with it, it is replaced whole and nothing else is
        // left behind.
        let again = cactus_svg(&[], 10.0, 5, "again").unwrap();
        assert!(crate::files::write_svg(&path, &again, WritePolicy::Keep).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), svg);
        crate::files::write_svg(&path, &again, WritePolicy::Replace).unwrap();
        assert_eq!(dir_entries(dir.path()), ["race.svg"]);
        assert!(parse_text(&std::fs::read_to_string(&path).unwrap()).contains("again"));
    }

    #[cfg(unix)]
    #[test]
    fn written_file_is_not_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.svg");
        let svg = cactus_svg(&[], 1.0, 1, "p").unwrap();
        crate::files::write_svg(&path, &svg, WritePolicy::Keep).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        // The umask may take group/other write away, but never group/other read under
        // any usual umask; tempfile's default would be 0o600.
        assert_ne!(mode & 0o044, 0, "mode {mode:o}");
    }

    #[test]
    fn missing_directory_is_an_error_and_creates_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-dir");
        let path = missing.join("race.svg");
        let svg = cactus_svg(&[series("a", &[1.0])], 10.0, 1, "x").unwrap();
        assert!(crate::files::write_svg(&path, &svg, WritePolicy::Keep).is_err());
        assert!(!missing.exists());
        assert!(dir_entries(dir.path()).is_empty());
    }

    #[test]
    fn failed_rename_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // A non-empty directory at the target path makes the final rename fail.
        let path = dir.path().join("race.svg");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("keep"), "x").unwrap();
        let svg = cactus_svg(&[], 10.0, 1, "x").unwrap();
        assert!(crate::files::write_svg(&path, &svg, WritePolicy::Replace).is_err());
        assert_eq!(dir_entries(dir.path()), ["race.svg"]);
    }
}
