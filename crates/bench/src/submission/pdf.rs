//! A small typesetter for the description's Markdown: headings, paragraphs, bullets, tables
//! and code blocks on A4 in the PDF standard fonts (Helvetica and Courier, which every
//! reader has, so nothing is embedded). It knows only the Markdown that
//! [`super::description`] writes; inline marks (`**`, `*`, backticks, links) are dropped.

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};

const PAGE: (f32, f32) = (595.0, 842.0);
const MARGIN: f32 = 54.0;
const BODY: f32 = 9.0;

/// Helvetica's advance widths (thousandths of an em) for the characters 32..=126, from
/// Adobe's font metrics; what line breaking needs.
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

#[derive(Clone, Copy, PartialEq)]
enum Font {
    Regular,
    Bold,
    Mono,
}

impl Font {
    fn name(self) -> Name<'static> {
        match self {
            Font::Regular => Name(b"F1"),
            Font::Bold => Name(b"F2"),
            Font::Mono => Name(b"F3"),
        }
    }
}

/// `text` in WinAnsiEncoding, the standard fonts' encoding: the few non-ASCII characters
/// the description uses are mapped, anything else becomes `?`.
fn win_ansi(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ' '..='~' => out.push(c as u8),
            '×' => out.push(0xD7),
            'ä' => out.push(0xE4),
            'é' => out.push(0xE9),
            'ö' => out.push(0xF6),
            'ü' => out.push(0xFC),
            '–' => out.push(0x96),
            '—' => out.push(0x97),
            '’' => out.push(0x92),
            '“' => out.push(0x93),
            '”' => out.push(0x94),
            '…' => out.push(0x85),
            '·' => out.push(0xB7),
            '−' => out.push(b'-'),
            '≤' => out.extend_from_slice(b"<="),
            '≥' => out.extend_from_slice(b">="),
            '≈' => out.push(b'~'),
            _ => out.push(b'?'),
        }
    }
    out
}

/// The width of `text` in points.
fn width(text: &str, font: Font, size: f32) -> f32 {
    let ems: u32 = win_ansi(text)
        .iter()
        .map(|&b| match font {
            Font::Mono => 600,
            // Bold is about 5% wider; close enough for headings, which are short.
            Font::Regular | Font::Bold => match b {
                32..=126 => u32::from(HELVETICA[usize::from(b - 32)]),
                _ => 556,
            },
        })
        .sum();
    #[allow(clippy::cast_precision_loss)]
    let w = ems as f32 * size / 1000.0;
    if font == Font::Bold {
        w * 1.05
    } else {
        w
    }
}

/// `text` without Markdown's inline marks: `**`, `*` and backticks dropped, `[t](url)`
/// written `t`.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let tail = &rest[open..];
        match (tail.find("]("), tail.find(')')) {
            (Some(mid), Some(close)) if mid < close => {
                out.push_str(&rest[..open]);
                out.push_str(&tail[1..mid]);
                rest = &tail[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out.replace("**", "").replace(['`', '*'], "")
}

/// Lines of `text` no wider than `max` points.
fn wrap(text: &str, font: Font, size: f32, max: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width(&candidate, font, size) > max && !line.is_empty() {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Pages of positioned text.
struct Layout {
    pages: Vec<Content>,
    y: f32,
}

impl Layout {
    fn new() -> Layout {
        Layout {
            pages: vec![Content::new()],
            y: PAGE.1 - MARGIN,
        }
    }

    /// Moves down by `height`, starting a new page when the line would not fit.
    fn advance(&mut self, height: f32) {
        if self.y - height < MARGIN {
            self.pages.push(Content::new());
            self.y = PAGE.1 - MARGIN;
        }
        self.y -= height;
    }

    fn line(&mut self, text: &str, font: Font, size: f32, x: f32) {
        self.advance(size * 1.3);
        let page = self.pages.last_mut().expect("a page");
        page.begin_text();
        page.set_font(font.name(), size);
        page.next_line(MARGIN + x, self.y);
        page.show(Str(&win_ansi(text)));
        page.end_text();
    }

    fn paragraph(&mut self, text: &str, font: Font, size: f32, indent: f32) {
        let max = PAGE.0 - 2.0 * MARGIN - indent;
        for l in wrap(&plain(text), font, size, max) {
            self.line(&l, font, size, indent);
        }
    }

    /// A Markdown table as aligned monospaced columns, shrunk to fit the width.
    fn table(&mut self, rows: &[Vec<String>]) {
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut widths = vec![0; cols];
        for row in rows {
            for (k, cell) in row.iter().enumerate() {
                widths[k] = widths[k].max(cell.chars().count());
            }
        }
        let chars: usize = widths.iter().sum::<usize>() + 2 * cols.saturating_sub(1);
        #[allow(clippy::cast_precision_loss)]
        let size = ((PAGE.0 - 2.0 * MARGIN) / (chars.max(1) as f32 * 0.6)).min(8.0);
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(k, c)| format!("{c:<w$}", w = widths[k]))
                .collect();
            let font = if r == 0 { Font::Bold } else { Font::Mono };
            let text = cells.join("  ");
            // The header in bold Helvetica would not line up: keep it monospaced.
            let font = if font == Font::Bold { Font::Mono } else { font };
            self.line(text.trim_end(), font, size, 0.0);
        }
    }
}

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| plain(c.trim()))
        .collect()
}

/// The PDF of `markdown` (the subset [`super::description`] writes).
pub fn render(markdown: &str) -> Vec<u8> {
    let mut layout = Layout::new();
    let mut paragraph = String::new();
    let mut table: Vec<Vec<String>> = Vec::new();
    let mut code = false;
    let flush = |layout: &mut Layout, paragraph: &mut String, table: &mut Vec<Vec<String>>| {
        if !paragraph.is_empty() {
            let (indent, text) = match paragraph.strip_prefix("- ") {
                Some(rest) => (10.0, format!("· {rest}")),
                None => (0.0, paragraph.clone()),
            };
            layout.paragraph(&text, Font::Regular, BODY, indent);
            paragraph.clear();
        }
        if !table.is_empty() {
            layout.table(table);
            table.clear();
        }
    };
    for line in markdown.lines() {
        if line.starts_with("```") {
            flush(&mut layout, &mut paragraph, &mut table);
            code = !code;
            continue;
        }
        if code {
            layout.line(line, Font::Mono, 7.5, 10.0);
            continue;
        }
        if let Some(title) = line.strip_prefix("# ") {
            flush(&mut layout, &mut paragraph, &mut table);
            layout.paragraph(title, Font::Bold, 14.0, 0.0);
            layout.advance(4.0);
        } else if let Some(heading) = line.strip_prefix("## ") {
            flush(&mut layout, &mut paragraph, &mut table);
            layout.advance(5.0);
            layout.paragraph(heading, Font::Bold, 10.5, 0.0);
        } else if line.trim_start().starts_with('|') {
            if !paragraph.is_empty() {
                flush(&mut layout, &mut paragraph, &mut table);
            }
            let row = cells(line);
            if !row
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
            {
                table.push(row);
            }
        } else if line.trim().is_empty() {
            flush(&mut layout, &mut paragraph, &mut table);
            layout.advance(3.0);
        } else if line.starts_with("- ") {
            flush(&mut layout, &mut paragraph, &mut table);
            paragraph.push_str(line);
        } else {
            if !table.is_empty() {
                flush(&mut layout, &mut paragraph, &mut table);
            }
            if !paragraph.is_empty() {
                paragraph.push(' ');
            }
            paragraph.push_str(line.trim());
        }
    }
    flush(&mut layout, &mut paragraph, &mut table);
    write_pdf(layout.pages)
}

fn write_pdf(pages: Vec<Content>) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let fonts = [Ref::new(3), Ref::new(4), Ref::new(5)];
    let mut next = 6;
    let mut ids = Vec::new();
    for _ in &pages {
        ids.push((Ref::new(next), Ref::new(next + 1)));
        next += 2;
    }
    pdf.catalog(catalog).pages(tree);
    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
    pdf.pages(tree)
        .kids(ids.iter().map(|&(page, _)| page))
        .count(ids.len() as i32);
    for (&(page_id, content_id), content) in ids.iter().zip(pages) {
        let mut page = pdf.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, PAGE.0, PAGE.1));
        page.parent(tree);
        page.contents(content_id);
        let mut resources = page.resources();
        let mut f = resources.fonts();
        for (font, id) in [Font::Regular, Font::Bold, Font::Mono]
            .into_iter()
            .zip(fonts)
        {
            f.pair(font.name(), id);
        }
        f.finish();
        resources.finish();
        page.finish();
        pdf.stream(content_id, &content.finish());
    }
    for (id, base) in fonts
        .into_iter()
        .zip([&b"Helvetica"[..], b"Helvetica-Bold", b"Courier"])
    {
        pdf.type1_font(id)
            .base_font(Name(base))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
    }
    pdf.finish()
}

#[cfg(test)]
mod tests {
    use super::{plain, render, wrap, Font};

    #[test]
    fn inline_marks_are_dropped_and_lines_wrap_within_the_width() {
        assert_eq!(plain("**a** `b` [c](http://x) *d*"), "a b c d");
        let lines = wrap(&"word ".repeat(100), Font::Regular, 9.0, 200.0);
        assert!(lines.len() > 5);
        assert!(lines
            .iter()
            .all(|l| super::width(l, Font::Regular, 9.0) <= 200.0));
    }

    #[test]
    fn a_document_is_a_pdf_with_a_page_per_screenful() {
        let short = render("# Title\n\nA paragraph.\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n");
        assert!(short.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&short);
        assert!(text.contains("/Count 1"), "one page");
        // About 50 one-line paragraphs fit on a page.
        let long = render(&"A line of text.\n\n".repeat(120));
        assert!(String::from_utf8_lossy(&long).contains("/Count 3"));
    }
}
