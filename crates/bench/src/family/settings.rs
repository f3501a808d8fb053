//! The problems of a family made from a problem file: its `--set` values ranging over
//! lists and ranges, expanded into the cartesian product ([`expand_settings`]).

use pq_encode::spec::Problem;

use super::{invalid, FamilyError};

/// One problem of a family: a board, groups and counts, and the `--set` values that made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The problem, every setting applied.
    pub problem: Problem,
    /// `(KEY, VALUE)` in the order of the `--set` flags (`size` written `board`, a board
    /// written `RxC`); empty for the queens and for a problem file taken as it is.
    pub settings: Vec<(String, String)>,
}

impl Member {
    /// The settings as `KEY=VALUE` separated by spaces (`board=5x5 red=3`).
    pub fn settings_line(&self) -> String {
        let items: Vec<String> = self
            .settings
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        items.join(" ")
    }

    /// How messages name this member: its settings, or its board when it has none.
    pub fn label(&self) -> String {
        if self.settings.is_empty() {
            self.problem.summary()
        } else {
            self.settings_line()
        }
    }
}

/// The most problems one `--set` product may hold.
pub const MAX_PROBLEMS: usize = 10_000;

/// The keys `--set` takes besides group names.
pub(super) const BOARD_KEYS: [&str; 5] = ["board", "size", "rows", "cols", "torus"];

/// Expands `--set KEY=VALUES` items into the cartesian product of problems, each one `base`
/// with one value of every key applied by [`Problem::set_all`] (checked once per
/// combination, so the settings may come in any order). VALUES is a comma-separated list
/// whose items are single values or inclusive ranges of whole numbers `A..B` (`A..=B`
/// too): `board=4..6` is 4x4, 5x5, 6x6; `board=5x5,6x8`; `red=2..4`; `torus=true,false`.
/// The first key varies slowest. No items: `base` alone. Errors name the item or the
/// combination: no `=`, a key given twice, an empty value or range, a bad value, a
/// combination the problem rejects (more pieces than squares), more than [`MAX_PROBLEMS`]
/// problems.
pub fn expand_settings(base: &Problem, items: &[String]) -> Result<Vec<Member>, FamilyError> {
    let mut keys: Vec<(String, Vec<String>)> = Vec::new();
    for item in items {
        let Some((key, values)) = item.split_once('=') else {
            return invalid(format!("--set {item}: expected KEY=VALUE"));
        };
        let key = match key.trim() {
            "size" => "board",
            k => k,
        };
        if key.is_empty() {
            return invalid(format!("--set {item}: the key is missing"));
        }
        if keys.iter().any(|(k, _)| k == key) {
            return invalid(format!(
                "--set {key} is given twice; list its values in one --set ({key}=A,B or {key}=A..B)"
            ));
        }
        let values = setting_values(key, values)
            .map_err(|e| FamilyError::Invalid(format!("--set {key}={}: {e}", values.trim())))?;
        keys.push((key.to_string(), values));
    }
    let total = keys.iter().try_fold(1usize, |acc, (_, v)| {
        acc.checked_mul(v.len()).filter(|&t| t <= MAX_PROBLEMS)
    });
    let Some(total) = total else {
        let sizes: Vec<String> = keys
            .iter()
            .map(|(k, v)| format!("{} {k}", v.len()))
            .collect();
        return invalid(format!(
            "--set: {} make more than {MAX_PROBLEMS} problems; narrow the ranges",
            sizes.join(" × ")
        ));
    };
    let mut members = Vec::with_capacity(total);
    for index in 0..total {
        // `index` in mixed radix, the last key's digit the fastest.
        let mut rest = index;
        let mut settings: Vec<(String, String)> = Vec::with_capacity(keys.len());
        for (k, values) in keys.iter().rev() {
            settings.insert(0, (k.clone(), values[rest % values.len()].clone()));
            rest /= values.len();
        }
        let mut member = Member {
            problem: base.clone(),
            settings,
        };
        let pairs = member
            .settings
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()));
        if let Err(e) = member.problem.set_all(pairs) {
            return invalid(format!("the problem with {}: {e}", member.settings_line()));
        }
        members.push(member);
    }
    Ok(members)
}

/// The values of one `--set` key: its list, ranges expanded, duplicates dropped, boards
/// written `RxC`.
fn setting_values(key: &str, text: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    let value = |v: usize| {
        if key == "board" {
            format!("{v}x{v}")
        } else {
            v.to_string()
        }
    };
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err("an empty value in the list".into());
        }
        let values: Vec<String> = if let Some((lo, hi)) = item.split_once("..") {
            let hi = hi.strip_prefix('=').unwrap_or(hi);
            let bad =
                || format!("expected a range LO..HI of whole numbers, e.g. 4..6 (got '{item}')");
            let lo: usize = lo.trim().parse().map_err(|_| bad())?;
            let hi: usize = hi.trim().parse().map_err(|_| bad())?;
            if lo > hi {
                return Err(format!("the range {item} is empty (LO must not exceed HI)"));
            }
            if hi - lo >= MAX_PROBLEMS {
                return Err(format!(
                    "the range {item} has more than {MAX_PROBLEMS} values"
                ));
            }
            (lo..=hi).map(value).collect()
        } else if key == "board" {
            let normal: String = item
                .chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| if c == 'X' || c == '×' { 'x' } else { c })
                .collect();
            vec![normal.parse().map_or(normal, value)]
        } else {
            vec![item.to_string()]
        };
        for v in values {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        if out.len() > MAX_PROBLEMS {
            return Err(format!("more than {MAX_PROBLEMS} values"));
        }
    }
    Ok(out)
}

/// `s` with every character other than an ASCII letter, digit, `-` or `_` replaced by `-`
/// (`problem` when nothing is left).
pub fn file_safe(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if out.trim_matches('-').is_empty() {
        "problem".into()
    } else {
        out
    }
}
