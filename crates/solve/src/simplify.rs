//! A DRAT prologue that simplifies a formula by what unit propagation fixes at the top
//! level, so that a checker's every later step is cheaper.
//!
//! A cube's formula is the whole step's formula plus the cube's literals as unit clauses,
//! and unit propagation on those fixes thousands of variables (3,304 of 9,096 for a row
//! cube of 14/29). A backward DRAT checker walks that whole trail again for every lemma it
//! checks: rate's conflict analysis traverses the trail from its end to its start, which was
//! 37% of its time on the line engine's cube proofs (`perf`, BENCHMARKS.md). The prologue
//! takes those variables out of the clause set, the way a preprocessor would, but as proof
//! steps the checker verifies:
//! 1. each clause that has false literals and no true one is added again without its false
//!    literals (a RUP step: with the top-level assignment the original clause is falsified);
//! 2. then every clause of two or more literals that is satisfied, or was shortened in 1, is
//!    deleted.
//!
//! Before those, each fixed variable that the proof's later lemmas may name gets a unit
//! clause of its own (a RUP step), and the formula's unit clauses stay: a lemma with a
//! literal true at the top level is checked by that literal alone, which only works while
//! the literal stays fixed (the line engine's tree also explores labels that propagation
//! has already refuted). No other clause mentions a fixed variable any more, so once the
//! checker has honoured the deletions (specified DRAT: a deleted reason takes back what it
//! implied), its top-level trail is those units alone. Deleting clauses never makes a refutation unsound, and every added
//! clause is checked, so the prologue asks for no trust. The same simplification is the
//! first step of every SAT solver's preprocessing (Eén & Biere, "Effective preprocessing in
//! SAT through variable and clause elimination", SAT 2005, section 2); here it is written
//! down as the DRAT steps of Wetzler, Heule & Hunt, "DRAT-trim", SAT 2014.

use std::collections::HashSet;
use std::io::{self, Write};

use pq_encode::Formula;

/// What the prologue did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prologue {
    /// Variables unit propagation fixed at the top level (the units' own included).
    pub fixed: usize,
    /// Unit clauses added for fixed variables the lemmas may name.
    pub kept: usize,
    /// Clauses added without their false literals.
    pub shortened: usize,
    /// Clauses deleted (satisfied, or replaced by their shortened form).
    pub deleted: usize,
}

/// Writes the prologue for `formula` to `out` as DRAT (binary or text) and says what it did.
/// `named(v)` says whether the lemmas after it may name variable `v`: those stay fixed by
/// unit clauses. A formula that unit propagation refutes at the top level gets no
/// prologue: the checker finds that conflict by itself.
///
/// # Errors
/// A write error.
pub fn top_level_prologue(
    formula: &Formula,
    named: &dyn Fn(u32) -> bool,
    out: &mut dyn Write,
    binary: bool,
) -> io::Result<Prologue> {
    let clauses: Vec<Vec<i32>> = (formula.cnf.iter())
        .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
        .collect();
    let Some(value) = propagate(&clauses) else {
        return Ok(Prologue::default());
    };
    let at = |l: i32| value[l.unsigned_abs() as usize] * l.signum() as i8;
    let units: HashSet<i32> = (clauses.iter())
        .filter_map(|c| (c.len() == 1).then_some(c[0]))
        .collect();
    let kept: Vec<i32> = (1..value.len())
        .filter(|&v| value[v] != 0 && named(v as u32))
        .map(|v| v as i32 * i32::from(value[v]))
        .filter(|l| !units.contains(l))
        .collect();
    let mut shortened: Vec<Vec<i32>> = Vec::new();
    let mut seen: HashSet<Vec<i32>> = HashSet::new();
    let mut deleted: Vec<&[i32]> = Vec::new();
    for clause in clauses.iter().filter(|c| c.len() > 1) {
        if clause.iter().any(|&l| at(l) > 0) {
            deleted.push(clause);
        } else if clause.iter().any(|&l| at(l) < 0) {
            let short: Vec<i32> = clause.iter().copied().filter(|&l| at(l) == 0).collect();
            let mut key = short.clone();
            key.sort_unstable();
            if seen.insert(key) {
                shortened.push(short);
            }
            deleted.push(clause);
        }
    }
    let mut buffer = Vec::with_capacity(256);
    for &unit in &kept {
        step(&mut buffer, false, &[unit], binary);
        out.write_all(&buffer)?;
    }
    for clause in &shortened {
        step(&mut buffer, false, clause, binary);
        out.write_all(&buffer)?;
    }
    for clause in &deleted {
        step(&mut buffer, true, clause, binary);
        out.write_all(&buffer)?;
    }
    Ok(Prologue {
        fixed: value.iter().filter(|&&v| v != 0).count(),
        kept: kept.len(),
        shortened: shortened.len(),
        deleted: deleted.len(),
    })
}

/// The top-level assignment unit propagation reaches (indexed by variable: 1 true, −1
/// false, 0 free), or `None` on a conflict. Each clause counts its literals not yet false;
/// a clause not satisfied with one left implies it.
fn propagate(clauses: &[Vec<i32>]) -> Option<Vec<i8>> {
    let vars = (clauses.iter().flatten())
        .map(|l| l.unsigned_abs() as usize)
        .max()
        .unwrap_or(0);
    let index = |l: i32| 2 * l.unsigned_abs() as usize + usize::from(l < 0);
    let mut occurs: Vec<Vec<usize>> = vec![Vec::new(); 2 * vars + 2];
    for (c, clause) in clauses.iter().enumerate() {
        for &l in clause {
            occurs[index(l)].push(c);
        }
    }
    let mut value = vec![0i8; vars + 1];
    let mut open: Vec<usize> = clauses.iter().map(Vec::len).collect();
    let mut satisfied = vec![false; clauses.len()];
    let mut queue: Vec<i32> = Vec::new();
    for clause in clauses {
        match clause.as_slice() {
            [] => return None,
            [unit] => queue.push(*unit),
            _ => {}
        }
    }
    while let Some(l) = queue.pop() {
        let v = l.unsigned_abs() as usize;
        let wanted = if l > 0 { 1 } else { -1 };
        if value[v] == wanted {
            continue;
        }
        if value[v] == -wanted {
            return None;
        }
        value[v] = wanted;
        for &c in &occurs[index(l)] {
            satisfied[c] = true;
        }
        for &c in &occurs[index(-l)] {
            open[c] -= 1;
            if satisfied[c] {
                continue;
            }
            match open[c] {
                0 => return None,
                1 => {
                    let at = |x: i32| value[x.unsigned_abs() as usize] * x.signum() as i8;
                    if let Some(&free) = clauses[c].iter().find(|&&x| at(x) == 0) {
                        queue.push(free);
                    }
                }
                _ => {}
            }
        }
    }
    Some(value)
}

/// A literal of binary DRAT: 2·var (+1 if negative) in 7-bit groups, low first, the
/// high bit marking that another group follows (drat-trim's binary format: Wetzler, Heule
/// and Hunt, "DRAT-trim: Efficient checking and trimming using expressive clausal proofs",
/// SAT 2014).
pub(crate) fn push_binary_literal(buffer: &mut Vec<u8>, var: u64, negative: bool) {
    let mut code = 2 * var + u64::from(negative);
    while code > 127 {
        buffer.push((code & 127) as u8 | 128);
        code >>= 7;
    }
    buffer.push(code as u8);
}

/// One DRAT step into `buffer`: `a`/`d`, the literals as [`push_binary_literal`] writes
/// them, then 0 (binary); or the text line.
fn step(buffer: &mut Vec<u8>, delete: bool, clause: &[i32], binary: bool) {
    buffer.clear();
    if binary {
        buffer.push(if delete { b'd' } else { b'a' });
        for &l in clause {
            push_binary_literal(buffer, u64::from(l.unsigned_abs()), l < 0);
        }
        buffer.push(0);
    } else {
        if delete {
            buffer.extend_from_slice(b"d ");
        }
        for &l in clause {
            buffer.extend_from_slice(l.to_string().as_bytes());
            buffer.push(b' ');
        }
        buffer.extend_from_slice(b"0\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::types::Lit;

    #[test]
    fn binary_literals_follow_drat_trims_format() {
        // drat-trim's own examples: -63 is 127 (one group), 129 is 258 = 0x82 0x02.
        let mut buffer = Vec::new();
        push_binary_literal(&mut buffer, 63, true);
        push_binary_literal(&mut buffer, 129, false);
        push_binary_literal(&mut buffer, 8192, true);
        assert_eq!(buffer, [0x7f, 0x82, 0x02, 0x81, 0x80, 0x01]);
    }

    fn formula(clauses: &[&[i32]]) -> Formula {
        let mut f = Formula::default();
        for clause in clauses {
            let lits: Vec<Lit> = clause
                .iter()
                .map(|&l| Lit::from_ipasir(l).unwrap())
                .collect();
            f.cnf.add_clause(lits.as_slice().into());
        }
        f
    }

    /// The prologue as text, with no variable named by later lemmas.
    fn text(clauses: &[&[i32]]) -> (String, Prologue) {
        named_text(clauses, &|_| false)
    }

    fn named_text(clauses: &[&[i32]], named: &dyn Fn(u32) -> bool) -> (String, Prologue) {
        let mut out = Vec::new();
        let p = top_level_prologue(&formula(clauses), named, &mut out, false).unwrap();
        (String::from_utf8(out).unwrap(), p)
    }

    /// `1` fixes 1 true, then `-1 2` fixes 2; `-2 3 4` loses its false literal, `1 5` and
    /// `2 -4 6` are satisfied, `3 5` is untouched, and the units stay.
    #[test]
    fn the_prologue_shortens_and_deletes_what_the_units_decide() {
        let (steps, p) = text(&[&[1], &[-1, 2], &[-2, 3, 4], &[1, 5], &[2, -4, 6], &[3, 5]]);
        assert_eq!(
            steps, "3 4 0\nd -1 2 0\nd -2 3 4 0\nd 1 5 0\nd 2 -4 6 0\n",
            "{p:?}"
        );
        assert_eq!(
            p,
            Prologue {
                fixed: 2,
                kept: 0,
                shortened: 1,
                deleted: 4
            }
        );
        // Variable 2 named by the lemmas: it stays fixed by a unit of its own; 1 is a unit
        // clause already.
        let (steps, p) = named_text(&[&[1], &[-1, 2], &[-2, 3, 4]], &|v| v <= 2);
        assert_eq!(steps, "2 0\n3 4 0\nd -1 2 0\nd -2 3 4 0\n", "{p:?}");
        assert_eq!(p.kept, 1);
        // Two clauses shortened to the same one: it is added once, both are deleted.
        let (steps, _) = text(&[&[-1], &[1, 2, 3], &[3, 1, 2]]);
        assert_eq!(steps, "2 3 0\nd 1 2 3 0\nd 3 1 2 0\n");
    }

    /// No unit, nothing to do; a top-level conflict, nothing either (the checker finds it).
    #[test]
    fn no_units_or_a_conflict_leave_no_prologue() {
        assert_eq!(
            text(&[&[1, 2], &[-1, 2]]),
            (String::new(), Prologue::default())
        );
        assert_eq!(text(&[&[1], &[-1, 2], &[-2]]).0, "");
        assert_eq!(text(&[&[1], &[-1]]).0, "");
    }

    /// Binary DRAT: `a`, 2·var (+1 if negative) in 7-bit groups, 0.
    #[test]
    fn binary_steps_are_drat_trims_encoding() {
        let mut out = Vec::new();
        let f = formula(&[&[-70], &[70, 2], &[70, -3, 4]]);
        top_level_prologue(&f, &|_| false, &mut out, true).unwrap();
        // −3 → 7; 4 → 8; 70 → 140 = 0x8c, 0x01; 2 → 4. The implied 2 is no step: its
        // reason `70 2` is deleted as satisfied, and no clause left mentions it.
        let expected = [
            b'a', 7, 8, 0, // −3 4
            b'd', 0x8c, 0x01, 4, 0, // 70 2
            b'd', 0x8c, 0x01, 7, 8, 0, // 70 −3 4
        ];
        assert_eq!(out, expected);
    }
}
