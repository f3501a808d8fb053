//! DIMACS CNF: writing pq-sat formulas, and reading any CNF file back.
//!
//! Written files start with comment lines (`c ...`) that document the instance and map the
//! square variables (`c var K white R C`, 1-based, row 1 = top), then a `p cnf V C` line
//! that matches the body exactly, as kissat and CaDiCaL require in their strict mode.

use std::io::{self, BufRead, Write};

use rustsat::instances::Cnf;
use rustsat::types::{Clause, Lit};

use pq_board::placement::Kind;

use crate::formula::{Formula, PieceMap, PieceVar};

/// The most variables a DIMACS file may declare: literals are signed 32-bit integers in
/// the solvers' interfaces (IPASIR), so `p cnf V C` with `V` above this is refused.
pub const MAX_VARIABLES: u32 = i32::MAX as u32;

/// The longest line [`parse`] reads (bytes): far beyond any real DIMACS line (solvers
/// write clauses of thousands of literals per line), far below what exhausts memory.
pub const MAX_LINE: usize = 64 << 20;

/// The longest clause [`parse`] reads (literals, across lines).
pub const MAX_CLAUSE: usize = 1 << 24;

/// Writes `formula` as DIMACS CNF.
pub fn write<W: Write>(formula: &Formula, out: W) -> io::Result<()> {
    write_declaring(formula, formula.n_vars, out)
}

/// Writes `formula` as DIMACS CNF whose header declares `n_vars` variables (at least
/// [`Formula::used_vars`], or the file is not valid DIMACS).
pub fn write_declaring<W: Write>(formula: &Formula, n_vars: u32, out: W) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    write_header(formula, "c", &mut out)?;
    writeln!(out, "p cnf {} {}", n_vars, formula.n_clauses())?;
    write_clauses(formula, &mut out)?;
    out.flush()
}

/// The comment lines a DIMACS file of `formula` starts with, as [`write()`] writes them
/// (`c ...`: the header, then the `c var` map), for a reader that takes the formula without
/// its file (a Python program handing it to PySAT).
pub fn comment_lines(formula: &Formula) -> Vec<String> {
    let mut text = Vec::new();
    write_header(formula, "c", &mut text).expect("writing to memory cannot fail");
    String::from_utf8(text)
        .expect("the header is UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Writes `formula`'s clauses, one a line, each ended by `0`.
fn write_clauses<W: Write>(formula: &Formula, out: &mut W) -> io::Result<()> {
    for clause in &formula.cnf {
        for &lit in clause.iter() {
            write!(out, "{} ", lit.to_ipasir())?;
        }
        out.write_all(b"0\n")?;
    }
    Ok(())
}

/// Writes `formula` with `cubes` in the iCNF format of incremental solvers and
/// cube-and-conquer tools (Wieringa, Niemenmaa & Heljanko's incremental DIMACS, as read by
/// CaDiCaL and iLingeling in Heule, Kullmann, Wieringa & Biere, "Cube and conquer", HVC
/// 2011): its comments, its clauses under `p inccnf`, then one `a LITS 0` line per cube.
pub fn write_icnf<'a, W: Write>(
    formula: &Formula,
    cubes: impl IntoIterator<Item = &'a [i32]>,
    out: W,
) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    for c in &formula.comments {
        writeln!(out, "c {c}")?;
    }
    writeln!(out, "p inccnf")?;
    write_clauses(formula, &mut out)?;
    for cube in cubes {
        out.write_all(b"a ")?;
        for l in cube {
            write!(out, "{l} ")?;
        }
        out.write_all(b"0\n")?;
    }
    out.flush()
}

/// Writes the header comments of `formula` and its variable map (`var K white R C`, or
/// `var K GROUP KIND R C`), each line starting with `marker` (`c` in DIMACS and WCNF, `*` in
/// OPB): the lines that let any reader decode a model into a placement.
pub(crate) fn write_header<W: Write>(
    formula: &Formula,
    marker: &str,
    out: &mut W,
) -> io::Result<()> {
    for line in &formula.comments {
        writeln!(out, "{marker} {line}")?;
    }
    if let Some(map) = &formula.pieces {
        let short = map.short_form();
        for v in &map.vars {
            let (name, kind) = &map.groups[v.group];
            let (r, c) = (v.row + 1, v.col + 1);
            if short {
                // The short form of the peaceable queens: `c var K white R C`.
                writeln!(out, "{marker} var {} {name} {r} {c}", v.dimacs)?;
            } else {
                writeln!(out, "{marker} var {} {name} {kind} {r} {c}", v.dimacs)?;
            }
        }
    }
    Ok(())
}

/// A DIMACS file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The text is not a DIMACS CNF formula pq-sat accepts.
    #[error("line {line}: {message}")]
    Syntax {
        /// The 1-based line where reading stopped.
        line: usize,
        /// What is wrong there.
        message: String,
    },
    /// Reading the input failed. The OS error is the message and deliberately not also
    /// its source, which `{:#}` would print a second time ("premature eof: premature eof").
    #[error("{0}")]
    Io(io::Error),
}

impl From<io::Error> for ParseError {
    fn from(error: io::Error) -> ParseError {
        ParseError::Io(error)
    }
}

fn syntax(line: usize, message: impl Into<String>) -> ParseError {
    ParseError::Syntax {
        line,
        message: message.into(),
    }
}

/// Reads a DIMACS CNF formula. Strict about what solvers are strict about: one `p cnf`
/// header before the first clause, literals within the declared variable range, the
/// declared clause count, and a terminating `0` on the last clause. `c var` comment lines
/// written by pq-sat are read back into [`Formula::pieces`]; other comments are kept.
pub fn parse<R: BufRead>(mut input: R) -> Result<Formula, ParseError> {
    let mut comments = Vec::new();
    let mut piece_vars: Vec<PieceVar> = Vec::new();
    let mut groups: Vec<(String, Kind)> = Vec::new();
    let mut header: Option<(u32, usize, usize)> = None; // vars, clauses, line
    let mut cnf = Cnf::new();
    let mut current: Vec<Lit> = Vec::new();
    let mut last_line = 0;
    let mut buf = Vec::new();
    loop {
        // Lines are read with a cap, so that a hostile file (one 4 GiB comment line from a
        // 5 KB .bz2) is refused instead of exhausting memory.
        buf.clear();
        let read = io::Read::take(&mut input, MAX_LINE as u64 + 1).read_until(b'\n', &mut buf)?;
        if read == 0 {
            break;
        }
        let lineno = last_line + 1;
        last_line = lineno;
        if buf.len() > MAX_LINE {
            return Err(syntax(
                lineno,
                format!("longer than {MAX_LINE} bytes: not a DIMACS file pq-sat reads (a long clause may span lines)"),
            ));
        }
        let line = std::str::from_utf8(&buf).map_err(|_| syntax(lineno, "not valid UTF-8 text"))?;
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('c') {
            if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
                return Err(syntax(lineno, format!("unexpected text '{trimmed}'")));
            }
            let rest = rest.trim();
            if let Some(v) = parse_var_comment(rest) {
                let (var, group, kind) = v.map_err(|m| syntax(lineno, m))?;
                let index = match groups.iter().position(|(g, _)| *g == group) {
                    Some(i) if groups[i].1 == kind => i,
                    Some(_) => {
                        return Err(syntax(
                            lineno,
                            format!("group '{group}' appears with two kinds"),
                        ))
                    }
                    None => {
                        groups.push((group, kind));
                        groups.len() - 1
                    }
                };
                piece_vars.push(PieceVar {
                    group: index,
                    ..var
                });
            } else {
                comments.push(rest.to_string());
            }
            continue;
        }
        if trimmed.starts_with('%') && header.is_some() {
            // SATLIB files end with "%" and "0": everything after is not part of the formula.
            break;
        }
        if let Some(rest) = trimmed.strip_prefix('p') {
            if header.is_some() {
                return Err(syntax(lineno, "a second 'p cnf' header"));
            }
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let parsed = match fields.as_slice() {
                // Read wider than u32 so that a count beyond it is "too many", not malformed.
                ["cnf", v, c] => v.parse::<u64>().ok().zip(c.parse::<usize>().ok()),
                _ => None,
            };
            let (v, c) = parsed.ok_or_else(|| {
                syntax(
                    lineno,
                    format!("malformed header '{trimmed}' (expected 'p cnf VARIABLES CLAUSES')"),
                )
            })?;
            let Some(v) = u32::try_from(v).ok().filter(|&v| v <= MAX_VARIABLES) else {
                return Err(syntax(
                    lineno,
                    format!("{v} variables are more than DIMACS allows (at most {MAX_VARIABLES})"),
                ));
            };
            header = Some((v, c, lineno));
            continue;
        }
        let Some((n_vars, _, _)) = header else {
            return Err(syntax(lineno, "clause before the 'p cnf' header"));
        };
        for token in trimmed.split_whitespace() {
            let value: i64 = token
                .parse()
                .map_err(|_| syntax(lineno, format!("'{token}' is not a literal")))?;
            if value == 0 {
                if let Some((_, declared, _)) = header.filter(|&(_, c, _)| cnf.len() >= c) {
                    return Err(syntax(
                        lineno,
                        format!("more clauses than the {declared} the header declares"),
                    ));
                }
                cnf.add_clause(Clause::from(current.as_slice()));
                current.clear();
                continue;
            }
            if current.len() >= MAX_CLAUSE {
                return Err(syntax(
                    lineno,
                    format!(
                        "a clause of more than {MAX_CLAUSE} literals: not a formula pq-sat reads"
                    ),
                ));
            }
            if value.unsigned_abs() > u64::from(n_vars) {
                return Err(syntax(
                    lineno,
                    format!("literal {value} is beyond the {n_vars} variables the header declares"),
                ));
            }
            let lit = Lit::from_ipasir(value as i32)
                .map_err(|e| syntax(lineno, format!("literal {value}: {e}")))?;
            current.push(lit);
        }
    }
    let Some((n_vars, n_clauses, header_line)) = header else {
        return Err(syntax(last_line.max(1), "no 'p cnf' header found"));
    };
    if !current.is_empty() {
        return Err(syntax(last_line, "the last clause is not terminated by 0"));
    }
    if cnf.len() != n_clauses {
        return Err(syntax(
            header_line,
            format!(
                "the header declares {n_clauses} clauses but the file has {}",
                cnf.len()
            ),
        ));
    }
    if let Some(v) = piece_vars.iter().find(|v| v.dimacs > n_vars) {
        return Err(syntax(
            header_line,
            format!(
                "'c var {}' names a variable beyond the header's {n_vars}",
                v.dimacs
            ),
        ));
    }
    // The board is as large as the header says, and at least as large as the map needs.
    let extent = |coord: fn(&PieceVar) -> usize| piece_vars.iter().map(|v| coord(v) + 1).max();
    let size_comment = crate::header::size(&comments);
    let (map_rows, map_cols) = (extent(|v| v.row), extent(|v| v.col));
    // pq-sat's map has a variable on every square, so a header stating a larger board than
    // the map covers is wrong (`c dim 6` written into a 5x5 file), not a bigger board.
    if let (Some(r), Some(c), (Some(hr), Some(hc))) = (map_rows, map_cols, size_comment) {
        if hr > r || hc > c {
            return Err(syntax(
                header_line,
                format!(
                    "the header states a {hr}x{hc} board, but the variable map ('c var' lines) covers {r}x{c}: the header is wrong"
                ),
            ));
        }
    }
    let rows = map_rows.max(size_comment.0).unwrap_or(0);
    let cols = map_cols.max(size_comment.1).unwrap_or(0);
    let pieces = (!piece_vars.is_empty()).then_some(PieceMap {
        rows,
        cols,
        groups,
        vars: piece_vars,
    });
    // A file's line variables are not taken on its word: `Lines::recognise` (pq-engine)
    // re-encodes the header's problem and compares before a splitter uses them.
    Ok(Formula {
        cnf,
        n_vars,
        comments,
        pieces,
        lines: None,
    })
}

/// A `c var` line: a piece of a group (`var K GROUP KIND R C`, or the queens' short form
/// `var K white|black R C`) as its variable, group name and kind; the variable's group
/// index is filled in once it is known.
type VarLine = (PieceVar, String, Kind);

/// Recognises `var K white|black R C` and `var K GROUP KIND R C`; `None` if the comment is
/// not a `var` line at all.
fn parse_var_comment(rest: &str) -> Option<Result<VarLine, String>> {
    let fields: Vec<&str> = rest.split_whitespace().collect();
    if fields.first() != Some(&"var") {
        return None;
    }
    let bad = || {
        format!(
            "malformed variable map line 'c {rest}' (expected 'c var K white|black R C' or 'c var K GROUP KIND R C')"
        )
    };
    let piece = |k: &str, group: &str, kind: Kind, r: &str, c: &str| -> Result<VarLine, String> {
        let dimacs: u32 = k.parse().map_err(|_| bad())?;
        let row: usize = r.parse().map_err(|_| bad())?;
        let col: usize = c.parse().map_err(|_| bad())?;
        if dimacs == 0 || row == 0 || col == 0 {
            return Err(bad());
        }
        // A map beyond the largest board would make the reader allocate that board.
        if row > crate::MAX_DIM || col > crate::MAX_DIM {
            return Err(format!(
                "variable map line 'c {rest}': rows and columns go from 1 to {}",
                crate::MAX_DIM
            ));
        }
        let var = PieceVar {
            dimacs,
            group: 0,
            row: row - 1,
            col: col - 1,
        };
        Ok((var, group.to_string(), kind))
    };
    Some(match fields.as_slice() {
        [_, k, colour @ ("white" | "black"), r, c] => piece(k, colour, Kind::Queen, r, c),
        [_, k, group, kind, r, c] => match kind.parse::<Kind>() {
            Ok(kind) => piece(k, group, kind, r, c),
            Err(_) => Err(bad()),
        },
        _ => Err(bad()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{encode, Instance, Options};

    fn clauses(f: &Formula) -> Vec<Vec<i32>> {
        f.cnf
            .iter()
            .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
            .collect()
    }

    #[test]
    fn write_then_parse_gives_the_same_formula() {
        for &model in crate::Model::ALL {
            let options = Options {
                model,
                ..Options::default()
            };
            let f = encode(&Instance::new(5, 3).unwrap(), &options);
            let mut text = Vec::new();
            write(&f, &mut text).unwrap();
            let g = parse(text.as_slice()).unwrap();
            assert_eq!(g.n_vars, f.n_vars);
            assert_eq!(clauses(&g), clauses(&f));
            assert_eq!(g.pieces, f.pieces);
            assert_eq!(g.comments, f.comments);
        }
    }

    #[test]
    fn header_matches_body() {
        let f = encode(&Instance::new(4, 2).unwrap(), &Options::default());
        let mut text = Vec::new();
        write(&f, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let p = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
        let body: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .collect();
        let max_var = body
            .iter()
            .flat_map(|l| l.split_whitespace())
            .map(|t| t.parse::<i64>().unwrap().unsigned_abs())
            .max()
            .unwrap();
        assert_eq!(
            p,
            format!("p cnf {} {}", max_var.max(u64::from(f.n_vars)), body.len())
        );
        assert!(text.contains("c var 1 white 1 1\n"));
        assert!(text.contains("c var 17 black 1 1\n"));
        assert!(text.contains("c var 32 black 4 4\n"));
    }

    fn parse_err(text: &str) -> String {
        parse(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn malformed_files_are_rejected_with_line_numbers() {
        assert_eq!(
            parse_err("1 2 0\n"),
            "line 1: clause before the 'p cnf' header"
        );
        assert_eq!(parse_err("c hi\n"), "line 1: no 'p cnf' header found");
        assert!(parse_err("p cnf x 2\n").starts_with("line 1: malformed header"));
        assert_eq!(
            parse_err("p cnf 2 1\n1 3 0\n"),
            "line 2: literal 3 is beyond the 2 variables the header declares"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 a 0\n"),
            "line 2: 'a' is not a literal"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 2\n"),
            "line 2: the last clause is not terminated by 0"
        );
        assert_eq!(
            parse_err("p cnf 2 2\n1 2 0\n"),
            "line 1: the header declares 2 clauses but the file has 1"
        );
        assert_eq!(
            parse_err("p cnf 2 1\np cnf 2 1\n"),
            "line 2: a second 'p cnf' header"
        );
        assert!(parse_err("p cnf 2 1\nc var 1 red 1 1\n1 0\n")
            .starts_with("line 2: malformed variable map"));
        assert_eq!(
            parse_err("p cnf 4294967296 1\n1 0\n"),
            "line 1: 4294967296 variables are more than DIMACS allows (at most 2147483647)"
        );
        assert_eq!(
            parse_err("c var 1 white 1 65\np cnf 1 0\n"),
            "line 1: variable map line 'c var 1 white 1 65': rows and columns go from 1 to 64"
        );
    }

    #[test]
    fn clauses_may_span_lines_and_empty_clauses_are_kept() {
        let f = parse("c x\np cnf 3 2\n1 -2\n 3 0 0\n".as_bytes()).unwrap();
        assert_eq!(clauses(&f), vec![vec![1, -2, 3], vec![]]);
        assert!(f.pieces.is_none());
    }
}
