//! SVG pictures of boards: checkered squares, coordinates, pieces distinguishable by kind and by group.
//!
//! The XML is written by hand (no plotting crate). Row 1 is the top row and columns run
//! `a`, `b`, ... from left to right, as everywhere in pq-sat. Every square is one
//! `<rect class="square">` and every piece one `<g class="piece">` holding a `<title>`
//! tooltip (such as `white queen at c5`) and the piece's chess glyph as `<text>`.
//!
//! ```
//! use pq_board::placement::{Placement, Rules};
//! let rules = Rules::peaceable_queens(3);
//! let b = Placement::from_rows(&rules.layout, &["W..", "...", ".B."], &['W', 'B']).unwrap();
//! let picture = pq_board::svg::placement_svg(&rules, &b, Some("3x3, 1+1 queens"));
//! assert!(picture.contains("<svg"));
//! assert!(picture.contains("white queen at a1"));
//! ```

use crate::placement::{Group, Kind, Placement, Rules};
use crate::{column_label, square_name};
use std::fmt::Write;

/// The light and dark squares (the usual brown chess board).
const LIGHT_SQUARE: &str = "#f0d9b5";
const DARK_SQUARE: &str = "#b58863";
/// Background of the legend's swatches: between the two square colours.
const SWATCH: &str = "#d2b48c";
const LABEL_COLOUR: &str = "#404040";
const FONT_FAMILY: &str =
    "'DejaVu Sans', 'Noto Sans Symbols2', 'Segoe UI Symbol', 'Arial Unicode MS', sans-serif";

const WHITE_ISH: &str = "#f8f8f8";
const BLACK_ISH: &str = "#202020";
/// Fill and outline colours of groups 2, 3, ... (cycling): the Okabe–Ito palette, distinct
/// for most readers, outlined in white when the colour's relative luminance is below 0.35,
/// else in black.
const PALETTE: [(&str, &str); 6] = [
    ("#d55e00", WHITE_ISH),
    ("#0072b2", WHITE_ISH),
    ("#009e73", WHITE_ISH),
    ("#cc79a7", WHITE_ISH),
    ("#e69f00", BLACK_ISH),
    ("#56b4e9", BLACK_ISH),
];

/// The widest (and tallest) the board itself should get, so that the whole picture stays
/// within about 1000 px.
const BOARD_BUDGET: usize = 920;
const MAX_SQUARE: usize = 48;
const MIN_SQUARE: usize = 8;
/// Below this square size the glyphs are drawn without an outline.
const MIN_STROKED_SQUARE: usize = 12;

/// Escapes the five XML special characters for use in text and attribute values.
fn esc(s: &str) -> String {
    // `&` first, so that the entities written after it are not escaped again.
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// A number as SVG wants it: at most two decimals, no trailing zeros.
fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0" } else { s }.to_string()
}

/// The fill and outline colours of group `g`.
fn group_colours(g: usize) -> (&'static str, &'static str) {
    match g {
        0 => (WHITE_ISH, BLACK_ISH),
        1 => (BLACK_ISH, WHITE_ISH),
        _ => PALETTE[(g - 2) % PALETTE.len()],
    }
}

/// A rough width of `text` in px at `font` px (average glyph about 0.6 em).
fn text_width(text: &str, font: f64) -> f64 {
    text.chars().count() as f64 * font * 0.6
}

/// Draws `p` under `rules`: a checkered board with row numbers (1 at the top) on the left
/// and column letters above and below, each piece as its chess glyph in its group's colour
/// with a contrasting outline, a legend with one entry per group below the board, and
/// `title` (plus `(torus)` on a torus) above it.
///
/// Squares are 48 px for boards up to 12 squares wide (and high) and shrink for larger
/// boards, down to 8 px, so that the picture stays within about 1000 px.
pub fn placement_svg(rules: &Rules, p: &Placement, title: Option<&str>) -> String {
    let (rows, cols) = (p.rows, p.cols);
    let side = rows.max(cols).max(1);
    let sq = (BOARD_BUDGET / side).clamp(MIN_SQUARE, MAX_SQUARE);
    let s = sq as f64;

    // Groups: every group of the rules, plus a stand-in for any index the placement uses
    // beyond them (so that a mismatched pair still renders).
    let max_used = p.cells.iter().flatten().copied().max();
    let n_groups = rules.groups.len().max(max_used.map_or(0, |g| g + 1));
    let groups: Vec<Group> = (0..n_groups)
        .map(|g| {
            rules.groups.get(g).cloned().unwrap_or_else(|| Group {
                name: format!("group {}", g + 1),
                kind: Kind::Queen,
            })
        })
        .collect();

    // The title line.
    let torus = if rules.layout.torus { "(torus)" } else { "" };
    let title_text = [title.unwrap_or("").trim(), torus]
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let title_font = 16.0;
    let title_h = if title_text.is_empty() { 0.0 } else { 28.0 };

    // Coordinates.
    let label_font = (s * 0.42).clamp(7.0, 14.0);
    let row_digits = rows.max(1).to_string().len();
    let margin = 10.0;
    // Whole pixels, so that neighbouring squares meet without anti-aliased seams.
    let left = (margin + (row_digits as f64 * label_font * 0.62 + 6.0).max(12.0)).ceil();
    let top = (margin + title_h + label_font + 6.0).ceil();
    let board_w = cols as f64 * s;
    let board_h = rows as f64 * s;
    let bottom_labels = board_h + top + 6.0 + label_font;

    // The legend.
    let legend_font = 13.0;
    let legend_line = 24.0;
    let swatch = 20.0;
    let legend_top = bottom_labels + 14.0;
    let legend_texts: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let n = p.count(i);
            let plural = if n == 1 { "" } else { "s" };
            format!("{} ({}, {n} piece{plural})", g.name, g.kind.name())
        })
        .collect();
    let legend_w = legend_texts
        .iter()
        .map(|t| swatch + 8.0 + text_width(t, legend_font))
        .fold(0.0, f64::max);

    let width = (left + board_w + margin)
        .max(margin + legend_w + margin)
        .max(margin + text_width(&title_text, title_font) + margin)
        .ceil();
    let height = (legend_top + legend_texts.len() as f64 * legend_line + margin)
        .max(bottom_labels + margin)
        .ceil();

    let mut out = String::with_capacity(256 + rows * cols * 90);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"{font}\" role=\"img\">",
        w = num(width),
        h = num(height),
        font = esc(FONT_FAMILY),
    );
    let description = if title_text.is_empty() {
        format!("{rows}x{cols} board")
    } else {
        title_text.clone()
    };
    let _ = writeln!(out, "<title>{}</title>", esc(&description));
    let _ = writeln!(
        out,
        "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        num(width),
        num(height)
    );
    if !title_text.is_empty() {
        let _ = writeln!(
            out,
            "<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" \
             fill=\"#202020\">{}</text>",
            num(margin),
            num(margin + title_font),
            num(title_font),
            esc(&title_text)
        );
    }

    // Squares: a1 (top left) is light, as a8 is for White on a real board.
    out.push_str("<g class=\"board\">\n");
    for r in 0..rows {
        for c in 0..cols {
            let fill = [LIGHT_SQUARE, DARK_SQUARE][(r + c) % 2];
            let _ = writeln!(
                out,
                "<rect class=\"square\" x=\"{}\" y=\"{}\" width=\"{sq}\" height=\"{sq}\" fill=\"{fill}\"/>",
                num(left + c as f64 * s),
                num(top + r as f64 * s),
            );
        }
    }
    let _ = writeln!(
        out,
        "<rect class=\"border\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
         stroke=\"#404040\" stroke-width=\"1\"/>",
        num(left),
        num(top),
        num(board_w),
        num(board_h)
    );
    out.push_str("</g>\n");

    // Coordinates: rows down the left side, columns above and below.
    let _ = writeln!(
        out,
        "<g class=\"labels\" font-size=\"{}\" fill=\"{LABEL_COLOUR}\">",
        num(label_font)
    );
    for r in 0..rows {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" dominant-baseline=\"central\">{}</text>",
            num(left - 4.0),
            num(top + (r as f64 + 0.5) * s),
            r + 1
        );
    }
    for c in 0..cols {
        let x = num(left + (c as f64 + 0.5) * s);
        let label = esc(&column_label(c));
        for y in [top - 5.0, top + board_h + 4.0 + label_font] {
            let _ = writeln!(
                out,
                "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{label}</text>",
                num(y)
            );
        }
    }
    out.push_str("</g>\n");

    // Pieces.
    // Chess glyphs sit a little high for their "central" baseline: nudge them down.
    let glyph_font = s * 0.76;
    let glyph_dy = s * 0.05;
    let stroke_w = (sq >= MIN_STROKED_SQUARE).then(|| (s * 0.06).max(1.0));
    let _ = writeln!(
        out,
        "<g class=\"pieces\" font-size=\"{}\" text-anchor=\"middle\" dominant-baseline=\"central\">",
        num(glyph_font)
    );
    for r in 0..rows {
        for c in 0..cols {
            let Some(g) = p.get(r, c) else { continue };
            let group = &groups[g];
            let (fill, stroke) = group_colours(g);
            let name = square_name(r, c);
            let tooltip = format!("{} {} at {name}", group.name, group.kind.name());
            let paint = stroke_w.map_or(String::new(), |w| {
                format!(
                    " stroke=\"{stroke}\" stroke-width=\"{}\" stroke-linejoin=\"round\" \
                     paint-order=\"stroke\"",
                    num(w)
                )
            });
            let _ = writeln!(
                out,
                "<g class=\"piece\" data-group=\"{g}\" data-square=\"{sqname}\"><title>{}</title>\
                 <text x=\"{}\" y=\"{}\" fill=\"{fill}\"{paint}>{}</text></g>",
                esc(&tooltip),
                num(left + (c as f64 + 0.5) * s),
                num(top + (r as f64 + 0.5) * s + glyph_dy),
                group.kind.glyph(),
                sqname = esc(&name),
            );
        }
    }
    out.push_str("</g>\n");

    // The legend.
    let _ = writeln!(
        out,
        "<g class=\"legend\" font-size=\"{}\">",
        num(legend_font)
    );
    for (g, (group, text)) in groups.iter().zip(&legend_texts).enumerate() {
        let (fill, stroke) = group_colours(g);
        let y = legend_top + g as f64 * legend_line;
        let _ = writeln!(
            out,
            "<g class=\"legend-entry\" data-group=\"{g}\">\
             <rect x=\"{}\" y=\"{}\" width=\"{sw}\" height=\"{sw}\" fill=\"{SWATCH}\" \
             stroke=\"#808080\" stroke-width=\"0.5\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" \
             dominant-baseline=\"central\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1\" \
             stroke-linejoin=\"round\" paint-order=\"stroke\">{}</text>\
             <text x=\"{}\" y=\"{}\" dominant-baseline=\"central\" fill=\"#202020\">{}</text></g>",
            num(margin),
            num(y),
            num(margin + swatch / 2.0),
            num(y + swatch * 0.55),
            num(swatch * 0.9),
            group.kind.glyph(),
            num(margin + swatch + 8.0),
            num(y + swatch / 2.0),
            esc(text),
            sw = num(swatch),
        );
    }
    out.push_str("</g>\n");
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::Layout;

    /// White and black queens on `rows × cols`.
    fn queens(rows: usize, cols: usize, torus: bool) -> Rules {
        rules(
            rows,
            cols,
            torus,
            &[("white", Kind::Queen), ("black", Kind::Queen)],
        )
    }

    fn rules(rows: usize, cols: usize, torus: bool, groups: &[(&str, Kind)]) -> Rules {
        Rules {
            layout: Layout { rows, cols, torus },
            groups: groups
                .iter()
                .map(|&(name, kind)| Group {
                    name: name.to_string(),
                    kind,
                })
                .collect(),
            no_attack: vec![],
        }
    }

    fn has_class(n: &roxmltree::Node, class: &str) -> bool {
        n.attribute("class") == Some(class)
    }

    fn count_class(doc: &roxmltree::Document, tag: &str, class: &str) -> usize {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag) && has_class(n, class))
            .count()
    }

    /// Parses, checks the root, and returns the (width, height) from the viewBox.
    fn check_root(svg: &str) -> (f64, f64) {
        let doc = roxmltree::Document::parse(svg).expect("the SVG parses as XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        let vb: Vec<f64> = root
            .attribute("viewBox")
            .expect("a viewBox")
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(vb.len(), 4);
        assert_eq!(&vb[..2], &[0.0, 0.0]);
        let w: f64 = root.attribute("width").unwrap().parse().unwrap();
        let h: f64 = root.attribute("height").unwrap().parse().unwrap();
        assert_eq!((w, h), (vb[2], vb[3]));
        (w, h)
    }

    fn piece_titles(doc: &roxmltree::Document) -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name("g") && has_class(n, "piece"))
            .map(|n| {
                let t = n
                    .children()
                    .find(|c| c.has_tag_name("title"))
                    .expect("each piece has a <title>");
                t.text().unwrap_or("").to_string()
            })
            .collect()
    }

    /// The peaceable queens' 8×8 board with 9 + 9 queens, and its rules.
    fn peaceable_8x8() -> (Rules, Placement) {
        let rules = Rules::peaceable_queens(8);
        let rows = [
            ".B...BB.", "B.B..BB.", ".B......", "..B.....", "....W..W", "...W...W", "...WW...",
            "...WW..W",
        ];
        let p = Placement::from_rows(&rules.layout, &rows, &['W', 'B']).unwrap();
        (rules, p)
    }

    #[test]
    fn svg_parses_with_root_and_viewbox() {
        let r = queens(4, 4, false);
        let mut p = Placement::empty(&r.layout);
        p.set(0, 0, Some(0));
        p.set(3, 2, Some(1));
        let svg = placement_svg(&r, &p, Some("a 4x4 board"));
        let (w, h) = check_root(&svg);
        assert!(w > 4.0 * 48.0 && h > 4.0 * 48.0);
        assert!(svg.contains("a 4x4 board"));
    }

    #[test]
    fn svg_piece_count_and_tooltips() {
        let r = rules(
            6,
            6,
            false,
            &[
                ("white", Kind::Queen),
                ("black", Kind::Queen),
                ("rooks", Kind::Rook),
                ("bishops", Kind::Bishop),
                ("knights", Kind::Knight),
                ("kings", Kind::King),
            ],
        );
        let mut p = Placement::empty(&r.layout);
        let spots = [
            (0, 0),
            (0, 5),
            (1, 2),
            (2, 4),
            (3, 1),
            (4, 3),
            (5, 5),
            (4, 2),
        ];
        for (i, &(row, col)) in spots.iter().enumerate() {
            p.set(row, col, Some(i % 6));
        }
        let svg = placement_svg(&r, &p, None);
        check_root(&svg);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let titles = piece_titles(&doc);
        assert_eq!(titles.len(), spots.len());
        assert!(titles.contains(&"white queen at a1".to_string()));
        assert!(titles.contains(&"black queen at f1".to_string()));
        assert!(titles.contains(&"rooks rook at c2".to_string()));
        assert!(titles.contains(&"kings king at d5".to_string()));
        assert!(titles.contains(&"white queen at f6".to_string()));
        // Each kind has its glyph, and the legend has one entry per group.
        for ch in ['♛', '♜', '♝', '♞', '♚'] {
            assert!(svg.contains(ch), "missing glyph {ch}");
        }
        assert_eq!(count_class(&doc, "g", "legend-entry"), 6);
        let legend: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(str::to_string))
            .collect();
        assert!(legend.contains(&"white (queen, 2 pieces)".to_string()));
        assert!(legend.contains(&"kings (king, 1 piece)".to_string()));
        // Groups get distinct colours.
        let fills: std::collections::HashSet<&str> = (0..6).map(|g| group_colours(g).0).collect();
        assert_eq!(fills.len(), 6);
    }

    #[test]
    fn svg_escapes_special_characters() {
        let name = "a<b & \"c\" 'd'";
        let r = rules(3, 3, false, &[(name, Kind::Knight)]);
        let mut p = Placement::empty(&r.layout);
        p.set(1, 1, Some(0));
        let svg = placement_svg(&r, &p, Some("<T> & 'title'"));
        assert!(!svg.contains("a<b"));
        assert!(!svg.contains("<T>"));
        assert!(svg.contains("a&lt;b &amp; &quot;c&quot; &apos;d&apos;"));
        check_root(&svg);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(piece_titles(&doc), vec![format!("{name} knight at b2")]);
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .collect();
        assert!(texts.contains(&"<T> & 'title'"));
        assert!(texts.contains(&format!("{name} (knight, 1 piece)").as_str()));
    }

    #[test]
    fn svg_rectangular_board() {
        let r = rules(3, 5, false, &[("rooks", Kind::Rook)]);
        let mut p = Placement::empty(&r.layout);
        p.set(0, 4, Some(0));
        p.set(2, 0, Some(0));
        let svg = placement_svg(&r, &p, None);
        check_root(&svg);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(count_class(&doc, "rect", "square"), 15);
        assert_eq!(count_class(&doc, "g", "piece"), 2);
        let titles = piece_titles(&doc);
        assert!(titles.contains(&"rooks rook at e1".to_string()));
        assert!(titles.contains(&"rooks rook at a3".to_string()));
        // Column labels a..e (above and below) and row labels 1..3 only.
        let labels: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("g") && has_class(n, "labels"))
            .flat_map(|g| {
                g.children()
                    .filter(|t| t.has_tag_name("text"))
                    .filter_map(|t| t.text())
            })
            .collect();
        for l in ["a", "b", "c", "d", "e", "1", "2", "3"] {
            assert!(labels.contains(&l), "missing label {l}");
        }
        assert!(!labels.contains(&"f") && !labels.contains(&"4"));
        assert_eq!(labels.len(), 3 + 2 * 5);
    }

    #[test]
    fn svg_torus_is_marked() {
        let r = queens(5, 5, true);
        let mut p = Placement::empty(&r.layout);
        p.set(0, 0, Some(0));
        let with_title = placement_svg(&r, &p, Some("5x5"));
        check_root(&with_title);
        assert!(with_title.contains("5x5 (torus)"));
        let without = placement_svg(&r, &p, None);
        check_root(&without);
        assert!(without.contains("(torus)"));
        let plain = placement_svg(&rules(5, 5, false, &[("w", Kind::Queen)]), &p, None);
        assert!(!plain.contains("torus"));
    }

    #[test]
    fn svg_large_board_stays_small() {
        let r = queens(64, 64, false);
        let mut p = Placement::empty(&r.layout);
        for i in 0..64 {
            p.set(i, (i * 7) % 64, Some(i % 2));
        }
        let svg = placement_svg(&r, &p, Some("64x64"));
        let (w, h) = check_root(&svg);
        assert!(w <= 1000.0, "width {w}");
        assert!(h <= 1200.0, "height {h}");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(count_class(&doc, "rect", "square"), 64 * 64);
        assert_eq!(count_class(&doc, "g", "piece"), 64);
        assert!(piece_titles(&doc).contains(&"black queen at bf64".to_string()));

        // Huge boards bottom out at 8 px squares, drawn without outlines.
        let r = rules(150, 150, false, &[("white", Kind::Queen)]);
        let mut p = Placement::empty(&r.layout);
        p.set(0, 0, Some(0));
        let svg = placement_svg(&r, &p, None);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let first = doc
            .descendants()
            .find(|n| n.has_tag_name("rect") && has_class(n, "square"))
            .unwrap();
        assert_eq!(first.attribute("width"), Some("8"));
        let piece = doc
            .descendants()
            .find(|n| n.has_tag_name("g") && has_class(n, "piece"))
            .unwrap();
        let glyph = piece.children().find(|c| c.has_tag_name("text")).unwrap();
        assert_eq!(glyph.attribute("stroke"), None);
    }

    #[test]
    fn svg_queens_board() {
        let (rules, b) = peaceable_8x8();
        assert_eq!((b.count(0), b.count(1)), (9, 9));
        let svg = placement_svg(&rules, &b, Some("8x8, 9 + 9 queens"));
        let (w, _) = check_root(&svg);
        assert!(w <= 1000.0);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(count_class(&doc, "g", "piece"), 18);
        let titles = piece_titles(&doc);
        assert_eq!(
            titles
                .iter()
                .filter(|t| t.starts_with("white queen at "))
                .count(),
            9
        );
        assert_eq!(
            titles
                .iter()
                .filter(|t| t.starts_with("black queen at "))
                .count(),
            9
        );
        assert!(titles.contains(&"black queen at b1".to_string()));
        assert!(titles.contains(&"white queen at h8".to_string()));
        assert!(svg.contains("white (queen, 9 pieces)"));
        assert!(svg.contains("black (queen, 9 pieces)"));
    }

    #[test]
    fn svg_every_square_has_a_checkered_rect() {
        let (rules, b) = peaceable_8x8();
        let svg = placement_svg(&rules, &b, None);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let squares: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && has_class(n, "square"))
            .collect();
        assert_eq!(squares.len(), 64);
        let mut cells = std::collections::HashSet::new();
        let mut light = 0;
        for sq in &squares {
            let x: f64 = sq.attribute("x").unwrap().parse().unwrap();
            let y: f64 = sq.attribute("y").unwrap().parse().unwrap();
            assert!(
                cells.insert((x as i64, y as i64)),
                "two rects on one square"
            );
            if sq.attribute("fill") == Some(LIGHT_SQUARE) {
                light += 1;
            }
        }
        assert_eq!(light, 32);
        // The top-left square (a1) is light, its neighbour dark.
        assert_eq!(squares[0].attribute("fill"), Some(LIGHT_SQUARE));
        assert_eq!(squares[1].attribute("fill"), Some(DARK_SQUARE));
        assert_eq!(squares[8].attribute("fill"), Some(DARK_SQUARE));
    }

    #[test]
    fn svg_empty_and_mismatched_inputs_render() {
        // A placement using a group the rules do not list still renders.
        let r = rules(2, 2, false, &[("only", Kind::Bishop)]);
        let mut p = Placement::empty(&r.layout);
        p.set(1, 1, Some(2));
        let svg = placement_svg(&r, &p, None);
        check_root(&svg);
        assert!(svg.contains("group 3 queen at b2"));
        let none = Rules::peaceable_queens(0);
        let empty = placement_svg(&none, &Placement::empty(&none.layout), None);
        check_root(&empty);
    }

    #[test]
    fn palette_outlines_contrast_with_their_fills() {
        // Relative luminance (0 = black, 1 = white) of a `#rrggbb` colour.
        let luminance = |hex: &str| {
            let channel = |i: usize| {
                let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
                if v <= 0.03928 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
        };
        for (fill, stroke) in PALETTE {
            let light = luminance(fill) > 0.35;
            assert_eq!(stroke, if light { BLACK_ISH } else { WHITE_ISH }, "{fill}");
        }
    }

    #[test]
    fn svg_escape_and_number_helpers() {
        assert_eq!(esc("<&>\"'x"), "&lt;&amp;&gt;&quot;&apos;x");
        assert_eq!(num(48.0), "48");
        assert_eq!(num(20.16), "20.16");
        assert_eq!(num(7.5), "7.5");
    }
}
