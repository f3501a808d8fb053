//! The largest sizes pq-sat accepts, and the one checked path every size from outside takes.
//!
//! Sizes reach pq-sat from the command line (`--dim`, `--n`, `--around-optimum`), problem
//! files and `--set`, DIMACS headers and manifests. Each reader checks them here, against a
//! stated maximum, before anything is allocated for them; totals are added with checked
//! arithmetic ([`total`]). A number too large for its place is then refused with a message
//! that states the maximum, instead of wrapping around, panicking, or allocating gigabytes
//! for a board that a lying header describes.
//!
//! ```
//! use pq_board::limits::{self, MAX_SIDE};
//! assert_eq!(limits::SIDE.parse("8"), Ok(8));
//! let e = limits::SIDE.parse("4294967296").unwrap_err();
//! assert_eq!(e.to_string(), format!("board side must be a whole number from 1 to {MAX_SIDE} (got 4294967296)"));
//! assert_eq!(limits::total([usize::MAX, 2], limits::MAX_PIECES), None);
//! ```

/// The largest board side (rows, columns, or the `d` of a `d × d` board). Formulas grow
/// like `d³` (pairwise model) or `d²` (line models); 64 keeps every model's file within a
/// few hundred MB.
pub const MAX_SIDE: usize = 64;

/// The most squares a board can have.
pub const MAX_SQUARES: usize = MAX_SIDE * MAX_SIDE;

/// The most pieces a count may ask for, one group's or all groups' together: every piece
/// needs a square of its own.
pub const MAX_PIECES: usize = MAX_SQUARES;

/// The most groups a problem may have. The symmetries of a problem include the
/// permutations of its interchangeable groups, which are searched (and, for canonical
/// forms, listed) one by one: `8! = 40320` of them at most; 11 groups took 12 s and 5 GB.
pub const MAX_GROUPS: usize = 8;

/// The range pq-sat accepts for one kind of whole number, and its name in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What the number is, as messages name it (`board side`, `army size`).
    pub what: &'static str,
    /// The smallest value accepted.
    pub min: usize,
    /// The largest value accepted.
    pub max: usize,
}

/// A board side: 1 to [`MAX_SIDE`].
pub const SIDE: Limit = Limit {
    what: "board side",
    min: 1,
    max: MAX_SIDE,
};

/// A number of pieces (a group's count, an army size): 0 to [`MAX_PIECES`].
pub const PIECES: Limit = Limit {
    what: "number of pieces",
    min: 0,
    max: MAX_PIECES,
};

/// A number outside the range of its [`Limit`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} must be a whole number from {min} to {max} (got {got})")]
pub struct SizeError {
    /// What the number is.
    pub what: String,
    /// The smallest value accepted.
    pub min: usize,
    /// The largest value accepted.
    pub max: usize,
    /// The value (or text) given.
    pub got: String,
}

impl Limit {
    /// The same range under another name in messages (`--n`, `board: rows`).
    pub const fn named(self, what: &'static str) -> Limit {
        Limit { what, ..self }
    }

    /// The same name with another largest value (never above this one's).
    pub fn at_most(self, max: usize) -> Limit {
        Limit {
            max: max.min(self.max),
            ..self
        }
    }

    fn error(self, got: impl ToString) -> SizeError {
        SizeError {
            what: self.what.to_string(),
            min: self.min,
            max: self.max,
            got: got.to_string(),
        }
    }

    /// `value` if it is in range.
    ///
    /// # Errors
    /// A value below `min` or above `max`, with the range in the message.
    pub fn check(self, value: usize) -> Result<usize, SizeError> {
        if (self.min..=self.max).contains(&value) {
            Ok(value)
        } else {
            Err(self.error(value))
        }
    }

    /// [`Limit::check`] for a number read as a wider or signed type (a TOML integer, a
    /// JSON number), so that nothing is truncated before it is checked.
    ///
    /// # Errors
    /// A value out of range, negative ones included.
    pub fn check_i128(self, value: i128) -> Result<usize, SizeError> {
        usize::try_from(value)
            .ok()
            .and_then(|v| self.check(v).ok())
            .ok_or_else(|| self.error(value))
    }

    /// The whole number written in `text` (surrounding blanks ignored), if it is in range.
    /// Numbers of any length are read: one beyond `usize` is "too large", not unreadable.
    ///
    /// # Errors
    /// Text that is not a whole number, or a number out of range; the message quotes the
    /// text and states the range.
    pub fn parse(self, text: &str) -> Result<usize, SizeError> {
        let t = text.trim();
        let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.error(format!("'{t}'")));
        }
        // Too long for usize is too large (or, negative, too small): said as such.
        let value: Option<usize> = if t.starts_with('-') {
            digits.bytes().all(|b| b == b'0').then_some(0)
        } else {
            digits.parse().ok()
        };
        value
            .and_then(|v| self.check(v).ok())
            .ok_or_else(|| self.error(t))
    }
}

/// The sum of `values` if it is at most `max`; `None` when it is larger, whatever the values
/// (no overflow).
pub fn total(values: impl IntoIterator<Item = usize>, max: usize) -> Option<usize> {
    values
        .into_iter()
        .try_fold(0usize, |acc, v| acc.checked_add(v).filter(|&t| t <= max))
}

/// `rows × cols` if both are board sides ([`SIDE`]); `None` otherwise (no overflow).
pub fn squares(rows: usize, cols: usize) -> Option<usize> {
    (SIDE.check(rows).is_ok() && SIDE.check(cols).is_ok()).then(|| rows * cols)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_states_the_range_for_every_bad_number() {
        assert_eq!(SIDE.parse(" 64 "), Ok(64));
        assert_eq!(PIECES.parse("0"), Ok(0));
        assert_eq!(PIECES.parse("-0"), Ok(0));
        for bad in [
            "0",
            "65",
            "-1",
            "18446744073709551616",
            "99999999999999999999999999",
            "",
            "x",
            "1e3",
            "-",
        ] {
            let e = SIDE.parse(bad).unwrap_err();
            assert_eq!((e.min, e.max), (1, MAX_SIDE), "{bad}");
            assert!(e.to_string().contains("from 1 to 64"), "{bad}: {e}");
        }
        assert_eq!(
            PIECES
                .named("--n")
                .parse("9223372036854775808")
                .unwrap_err()
                .to_string(),
            format!("--n must be a whole number from 0 to {MAX_PIECES} (got 9223372036854775808)")
        );
    }

    #[test]
    fn checks_and_totals_never_overflow() {
        assert_eq!(PIECES.check_i128(-1).unwrap_err().got, "-1");
        assert_eq!(
            PIECES.check_i128(i128::from(i64::MAX)).unwrap_err().max,
            MAX_PIECES
        );
        assert_eq!(PIECES.check_i128(5), Ok(5));
        assert_eq!(total([usize::MAX, usize::MAX, 2], usize::MAX), None);
        assert_eq!(total([1, 2, 3], 6), Some(6));
        assert_eq!(total([1, 2, 3], 5), None);
        assert_eq!(total([], 0), Some(0));
        assert_eq!(squares(64, 64), Some(MAX_SQUARES));
        assert_eq!(squares(1 << 32, 1 << 32), None);
        assert_eq!(SIDE.at_most(8).check(9).unwrap_err().max, 8);
    }
}
