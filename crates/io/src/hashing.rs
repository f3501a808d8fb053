//! The two names an instance file goes by: its SHA-256 (the exact bytes, as `sha256sum`
//! prints it) and its GBD hash, the identifier of the Global Benchmark Database (Iser & Sinz,
//! <https://benchmark-database.de>) that the SAT competitions use to name and deduplicate
//! instances.
//!
//! The GBD hash of a DIMACS CNF is the MD5 of its clause list written out normalised: comment
//! and header lines (any line that starts with `c` or `p`) dropped, every clause as its
//! literals separated by single spaces and ended by `0`, clauses separated by one space, no
//! trailing space. `p cnf 3 2\n1 -2 0\n2 3 0\n` hashes as `1 -2 0 2 3 0`.
//!
//! This module computes it as GBD's own tool does (`gbdhash` in the `gbdc` package that
//! `gbd-tools` depends on, `src/identify/GBDHash.h` over `src/util/StreamBuffer.h`), quirks
//! included, because a different value for the same file would defeat an identifier:
//! - a literal is kept as written except for a leading `+` (`+1` is `1`), so `01` and `-0`
//!   stay as they are, and a `-` followed by whitespace joins the next number (`- 2` is
//!   `-2`); only the token `0` ends a clause;
//! - a clause may span lines, and the last clause needs no `0`;
//! - anything else where a literal belongs (a `c` inside a clause, `%`, `x`) is refused;
//! - GBD reads the file in 16 KiB blocks, cut back to the last whitespace of each block; it
//!   also cuts the final block back after every comment or header line that ends in it, so
//!   when a file does not end in whitespace, its last token is dropped if a `c` or `p` line
//!   ends in the last block (`p cnf 1 1\n1 2` hashes as `1 0`), and a token longer than a
//!   block is refused. [`gbd_hash`] reads in the same blocks to give the same values;
//! - GBD reads compressed files (gzip, bzip2, xz) by their content; [`gbd_hash`] takes the
//!   decompressed text, and refuses an empty one as GBD's reader does.
//!
//! Checked against GBD's tool by `tests/cli/gbd.rs`.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use md5::Md5;
use sha2::{Digest, Sha256};

/// SHA-256 of `bytes` in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// SHA-256 of a file, read in pieces.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    let mut hasher = Sha256::new();
    io::copy(&mut fs::File::open(path)?, &mut hasher)?;
    Ok(format!("{:x}", hasher.finalize()))
}

/// SHA-256 of what `write` writes, without keeping it (a derived file's expected hash).
pub fn sha256_of_writes(
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> io::Result<String> {
    let mut hasher = Sha256::new();
    write(&mut hasher)?;
    Ok(format!("{:x}", hasher.finalize()))
}

/// Why a text has no GBD hash.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GbdError {
    /// The text could not be read.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The text is empty: GBD's reader refuses an empty file.
    #[error("the file is empty, and GBD defines no hash for an empty file")]
    Empty,
    /// Something other than a literal where GBD expects one.
    #[error("byte {offset}: {found} where a literal belongs; GBD refuses such a file (only lines starting with c or p may hold anything but integers)")]
    NotALiteral {
        /// The byte's offset in the (decompressed) text, from 0.
        offset: u64,
        /// The byte, quoted.
        found: String,
    },
    /// A token longer than GBD's read block.
    #[error("byte {offset}: a token longer than {BLOCK} bytes, which GBD refuses")]
    TokenTooLong {
        /// Where the block that holds no whitespace starts.
        offset: u64,
    },
}

/// The GBD hash of a DIMACS CNF `text` (decompressed), 32 lower-case hex digits.
///
/// # Errors
/// [`GbdError`] when the text cannot be read, or GBD's tool would refuse it.
pub fn gbd_hash(text: impl Read) -> Result<String, GbdError> {
    let mut input = Blocks::new(text)?;
    let mut md5 = Md5::new();
    let mut later_clause = false;
    while input.skip_whitespace()? {
        if matches!(input.peek(), b'c' | b'p') {
            if !input.skip_line()? {
                break;
            }
            continue;
        }
        if later_clause {
            md5.update(b" ");
        }
        while let Some(literal) = input.literal()? {
            if literal == b"0" {
                break;
            }
            md5.update(&literal);
            md5.update(b" ");
        }
        md5.update(b"0");
        later_clause = true;
    }
    Ok(format!("{:x}", md5.finalize()))
}

/// GBD's read block, in bytes.
const BLOCK: usize = 16384;

/// C's `isspace` in the C locale.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// The text in GBD's blocks: each full block is cut back to its last whitespace, the cut
/// carried into the next block; the last block (shorter than [`BLOCK`]) is final.
struct Blocks<R> {
    input: R,
    buf: Vec<u8>,
    /// The next byte.
    pos: usize,
    /// One past the last valid byte.
    end: usize,
    /// The block in `buf` is the last.
    last: bool,
    /// The offset in the text of `buf[0]`, for messages.
    base: u64,
}

impl<R: Read> Blocks<R> {
    fn new(input: R) -> Result<Self, GbdError> {
        let mut blocks = Blocks {
            input,
            buf: vec![0; BLOCK],
            pos: 0,
            end: 0,
            last: false,
            base: 0,
        };
        blocks.refill(true)?;
        if blocks.end == 0 {
            return Err(GbdError::Empty);
        }
        Ok(blocks)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.end && self.last
    }

    /// The current byte (0 past the end, which matches nothing GBD looks for).
    fn peek(&self) -> u8 {
        if self.at_end() {
            0
        } else {
            self.buf[self.pos]
        }
    }

    /// Loads the next block when the current one is used up; false when nothing is left.
    fn refill(&mut self, align: bool) -> Result<bool, GbdError> {
        if self.pos < self.end || self.last {
            return Ok(false);
        }
        self.pos = 0;
        if self.end > 0 && self.end < BLOCK {
            // The bytes cut off the previous block come first.
            self.buf.copy_within(self.end..BLOCK, 0);
            self.base += self.end as u64;
            self.end = BLOCK - self.end;
        } else {
            self.base += self.end as u64;
            self.end = 0;
        }
        while self.end < BLOCK {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(0) => break,
                Ok(k) => self.end += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        if self.end < BLOCK {
            self.buf[self.end..].fill(0);
            self.last = true;
        } else if align {
            self.align()?;
        }
        Ok(self.end > 0)
    }

    /// Cuts the block back to its last whitespace.
    fn align(&mut self) -> Result<(), GbdError> {
        while !is_space(self.buf[self.end - 1]) {
            self.end -= 1;
            if self.end < 1 {
                return Err(GbdError::TokenTooLong { offset: self.base });
            }
        }
        Ok(())
    }

    /// Moves one byte on; false at the end of the text.
    fn skip(&mut self, align: bool) -> Result<bool, GbdError> {
        self.pos += 1;
        if self.pos < self.end {
            Ok(true)
        } else {
            self.refill(align)
        }
    }

    /// Skips whitespace; false at the end of the text.
    fn skip_whitespace(&mut self) -> Result<bool, GbdError> {
        if self.at_end() {
            return Ok(false);
        }
        while is_space(self.buf[self.pos]) {
            if !self.skip(true)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Skips the rest of the line and the whitespace after it; false at the end of the text.
    fn skip_line(&mut self) -> Result<bool, GbdError> {
        while !matches!(self.buf[self.pos], b'\n' | b'\r') {
            if !self.skip(false)? {
                return Ok(false);
            }
        }
        // GBD cuts the block back here even when it is the last one (see the module doc).
        self.align()?;
        self.skip_whitespace()
    }

    /// The next literal as written (a leading `+` dropped); `None` at the end of the text.
    fn literal(&mut self) -> Result<Option<Vec<u8>>, GbdError> {
        if !self.skip_whitespace()? {
            return Ok(None);
        }
        let mut literal = Vec::new();
        let sign = self.buf[self.pos];
        if sign == b'-' || sign == b'+' {
            if sign == b'-' {
                literal.push(b'-');
            }
            if !self.skip(true)? {
                return Ok(None);
            }
        }
        if !self.buf[self.pos].is_ascii_digit() {
            if !self.skip_whitespace()? {
                return Ok(None);
            }
            let b = self.buf[self.pos];
            if !b.is_ascii_digit() {
                return Err(GbdError::NotALiteral {
                    offset: self.base + self.pos as u64,
                    found: quoted(b),
                });
            }
        }
        while self.buf[self.pos].is_ascii_digit() {
            literal.push(self.buf[self.pos]);
            if !self.skip(true)? {
                break;
            }
        }
        Ok(Some(literal))
    }
}

/// A byte for a message: the character when printable, else its code.
fn quoted(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;

    fn gbd(text: &str) -> String {
        gbd_hash(text.as_bytes()).unwrap()
    }

    fn md5_hex(text: &str) -> String {
        format!("{:x}", Md5::digest(text.as_bytes()))
    }

    #[test]
    fn sha256_of_bytes_and_of_a_file() {
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(sha256_hex(b"abc"), abc);
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("abc");
        fs::write(&path, "abc").unwrap();
        assert_eq!(sha256_file(&path).unwrap(), abc);
        assert!(sha256_file(&tmp.path().join("absent")).is_err());
    }

    #[test]
    fn the_hash_is_the_md5_of_the_normalised_clause_list() {
        let normal = md5_hex("1 -2 0 2 3 0");
        for text in [
            "p cnf 3 2\n1 -2 0\n2 3 0\n",
            "c a comment\n  p cnf 3 2  \n\n   1    -2\t0   \n\t2 3 0\n\n",
            "p cnf 3 2\n1\n-2\n0 2\n3 0\n",
            "p cnf 3 2\r\n1 -2 0\r\nc between\r\n2 3 0\r\n",
            "p cnf 3 2\n1 -2 0 2 3 0\n",
            "p cnf 3 2\n1 -2 0\n2 3\n",
        ] {
            assert_eq!(gbd(text), normal, "{text:?}");
        }
    }

    #[test]
    fn literals_stay_as_written_except_a_plus() {
        assert_eq!(
            gbd("p cnf 3 2\n+1 - 2 0\n02 3 0\n"),
            md5_hex("1 -2 0 02 3 0")
        );
        assert_eq!(gbd("p cnf 1 1\n1 -0 0\n"), md5_hex("1 -0 0"));
        assert_eq!(gbd("p cnf 1 2\n0\n1 0\n"), md5_hex("0 1 0"));
        assert_eq!(gbd("p cnf 0 0\n"), md5_hex(""));
    }

    #[test]
    fn the_last_token_of_a_file_without_final_whitespace_follows_gbd() {
        // A comment or header line ends in the last block: GBD drops the unterminated token.
        assert_eq!(gbd("p cnf 3 2\n1 -2 0\n2 3"), md5_hex("1 -2 0 2 0"));
        assert_eq!(gbd("p cnf 2 1\n1 -2 0\n%"), md5_hex("1 -2 0"));
        assert_eq!(gbd("p cnf 2 1\n1 -2 0\n-"), md5_hex("1 -2 0"));
        // No such line: nothing is cut.
        assert_eq!(gbd("1"), md5_hex("1 0"));
        assert_eq!(gbd("1 -2 0\n2 3"), md5_hex("1 -2 0 2 3 0"));
    }

    #[test]
    fn clauses_that_gbd_refuses_are_refused() {
        for (text, offset, found) in [
            ("p cnf 3 2\n1 2\nc inside\n3 0\n", 14, "'c'"),
            ("p cnf 3 2\n1 2 0\n%\n0\n", 16, "'%'"),
            ("p cnf 3 2\n1 2 0\nx 3 0\n", 16, "'x'"),
            ("p cnf 1 1\n1 --1 0\n", 13, "'-'"),
        ] {
            match gbd_hash(text.as_bytes()) {
                Err(GbdError::NotALiteral {
                    offset: o,
                    found: f,
                }) => {
                    assert_eq!((o, f.as_str()), (offset, found), "{text:?}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert!(matches!(gbd_hash(&b""[..]), Err(GbdError::Empty)));
    }

    #[test]
    fn long_texts_cross_blocks_without_changing_the_hash() {
        // Clauses and comments across many 16 KiB blocks hash as their normalised list.
        let mut text = String::from("p cnf 5000 3000\n");
        let mut normal = Vec::new();
        for i in 1..=3000u32 {
            if i % 97 == 0 {
                text += &format!("c comment {}\n", "x".repeat(i as usize % 400));
            }
            let clause = format!("{} -{} {} 0", i, i % 50 + 1, i * 7 % 5000 + 1);
            text += &clause;
            text += if i % 3 == 0 { "\n" } else { "  " };
            normal.push(clause);
        }
        assert!(text.len() > 3 * BLOCK);
        assert_eq!(gbd(&text), md5_hex(&normal.join(" ")));
        // A literal longer than a block is refused, as GBD refuses it.
        let long = format!("p cnf 1 1\n{} 0\n", "1".repeat(BLOCK + 10));
        assert!(matches!(
            gbd_hash(long.as_bytes()),
            Err(GbdError::TokenTooLong { .. })
        ));
    }

    /// A clause list written out in some of the ways DIMACS allows (random whitespace,
    /// clauses split over lines, comment lines between clauses, CRLF), and its normalised
    /// form; the text ends in a newline, so no GBD quirk applies.
    fn written(clauses: &[Vec<i32>], layout: &[u8]) -> (String, String) {
        let mut text = String::from("c generated\np cnf 99 9\n");
        let mut normal = Vec::new();
        let mut way = layout.iter().cycle();
        for clause in clauses {
            let mut tokens: Vec<String> = clause.iter().map(i32::to_string).collect();
            tokens.push("0".into());
            normal.push(tokens.join(" "));
            if way.next().unwrap().is_multiple_of(5) {
                text += "c between clauses 1 2 0\n";
            }
            for token in tokens {
                text += &token;
                text += [" ", "\t", "\n", "  ", "\r\n", " \x0b"][*way.next().unwrap() as usize % 6];
            }
            text += "\n";
        }
        (text, normal.join(" "))
    }

    fn literal() -> impl Strategy<Value = i32> {
        (1i32..2000, any::<bool>()).prop_map(|(v, negative)| if negative { -v } else { v })
    }

    proptest! {
        #[test]
        fn any_layout_of_a_clause_list_hashes_as_the_list(
            clauses in vec(vec(literal(), 0..6), 0..300),
            layout in vec(0u8..30, 1..40),
        ) {
            let (text, normal) = written(&clauses, &layout);
            prop_assert_eq!(gbd(&text), md5_hex(&normal));
        }
    }

    /// A reader that hands out one byte per call, as a pipe may.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn short_reads_fill_whole_blocks() {
        let text = "c x\n1 -2 0\n2 3 0\n".repeat(3000) + "c end\n4";
        assert_eq!(
            gbd_hash(Trickle(text.as_bytes())).unwrap(),
            gbd_hash(text.as_bytes()).unwrap()
        );
    }
}
