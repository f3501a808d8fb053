//! Compressed instances, as the SAT competitions ship them: `.cnf.xz`, `.cnf.gz`,
//! `.cnf.bz2`. Reading goes by the first bytes of the data (each format's magic number),
//! so a file reads whatever its name, and so does standard input; writing goes by the name
//! the user chose (or, for a family, by `--compress`). Solvers never see the compressed
//! bytes: pq-sat reads the formula and hands each solver a plain DIMACS file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// A compression format pq-sat reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// gzip (`.gz`), by flate2.
    Gzip,
    /// bzip2 (`.bz2`), by bzip2.
    Bzip2,
    /// xz (`.xz`), by liblzma.
    Xz,
}

impl Compression {
    /// The format's name as `--compress` takes it: `none`, `gz`, `bz2`, `xz`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gz",
            Compression::Bzip2 => "bz2",
            Compression::Xz => "xz",
        }
    }

    /// The extension a compressed file's name ends in, with its dot (`.xz`); empty for
    /// plain text. [`Compression::of_name`] reads it back.
    pub fn extension(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Gzip => ".gz",
            Compression::Bzip2 => ".bz2",
            Compression::Xz => ".xz",
        }
    }

    /// The format a file name asks for, by its last extension (any case).
    pub fn of_name(path: &Path) -> Compression {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("gz") => Compression::Gzip,
            Some("bz2") => Compression::Bzip2,
            Some("xz") => Compression::Xz,
            _ => Compression::None,
        }
    }

    /// The format whose magic number `head` (the first bytes, up to 6) starts with.
    pub fn of_magic(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
            Compression::Xz
        } else {
            Compression::None
        }
    }
}

/// The decompressed contents of `input`, whichever format its first bytes say.
pub fn decompressed<'a>(mut input: impl Read + 'a) -> io::Result<Box<dyn BufRead + 'a>> {
    let mut head = Vec::with_capacity(6);
    // A pipe may deliver fewer bytes per read than the magic number has.
    (&mut input).take(6).read_to_end(&mut head)?;
    let format = Compression::of_magic(&head);
    if let Some(other) = unsupported(&head) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("compressed with {other}, which pq-sat does not read: decompress it first, or recompress it as .xz, .gz or .bz2"),
        ));
    }
    let whole = io::Cursor::new(head).chain(input);
    // Multi-member readers: concatenated streams (`cat a.gz b.gz`) read as one, as the
    // command-line tools read them.
    Ok(match format {
        Compression::None => Box::new(BufReader::new(whole)),
        Compression::Gzip => Box::new(BufReader::new(Named {
            format,
            inner: flate2::read::MultiGzDecoder::new(whole),
        })),
        Compression::Bzip2 => Box::new(BufReader::new(Named {
            format,
            inner: bzip2::read::MultiBzDecoder::new(whole),
        })),
        Compression::Xz => Box::new(BufReader::new(Named {
            format,
            inner: liblzma::read::XzDecoder::new_multi_decoder(whole),
        })),
    })
}

/// The formats recognised by their magic numbers that pq-sat does not decompress.
fn unsupported(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Some("zstd")
    } else if head.starts_with(&[0x04, 0x22, 0x4d, 0x18]) {
        Some("lz4")
    } else if head.starts_with(&[0x5d, 0x00, 0x00]) {
        Some("lzma (not xz)")
    } else if head.starts_with(b"7z\xbc\xaf") || head.starts_with(b"PK\x03\x04") {
        Some("an archiver (7z or zip)")
    } else {
        None
    }
}

/// A decompressor whose errors say which format's data is damaged (the libraries' own
/// words, "premature eof", say neither what nor where).
struct Named<R> {
    format: Compression,
    inner: R,
}

impl<R: Read> Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the {} data is corrupt or cut short ({e})",
                    self.format.name()
                ),
            )
        })
    }
}

/// Opens `path` and decompresses it if it is compressed.
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead>> {
    decompressed(File::open(path)?)
}

/// Runs `body` on a writer that compresses into `out` as the name `path` asks for
/// (`.gz`, `.bz2`, `.xz`; anything else is written as it is), and finishes the stream.
pub fn write_as_named(
    path: &Path,
    out: &mut dyn Write,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write_as(Compression::of_name(path), out, body)
}

/// `bytes` compressed in `format` (a copy of them for [`Compression::None`]).
pub fn compressed(format: Compression, bytes: &[u8]) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    write_as(format, &mut out, |w| w.write_all(bytes))?;
    Ok(out)
}

/// Runs `body` on a writer that compresses into `out` in `format`, and finishes the stream.
pub fn write_as(
    format: Compression,
    out: &mut dyn Write,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    match format {
        Compression::None => body(out),
        Compression::Gzip => {
            let mut w = flate2::write::GzEncoder::new(out, flate2::Compression::default());
            body(&mut w)?;
            w.finish().map(drop)
        }
        Compression::Bzip2 => {
            let mut w = bzip2::write::BzEncoder::new(out, bzip2::Compression::best());
            body(&mut w)?;
            w.finish().map(drop)
        }
        Compression::Xz => {
            // Level 6 is xz's own default.
            let mut w = liblzma::write::XzEncoder::new(out, 6);
            body(&mut w)?;
            w.finish().map(drop)
        }
    }
}

/// Writes `from`'s bytes xz-compressed at `level` (0–9) to the new file `to`, streaming:
/// proofs are larger than memory should hold, and level 1 compresses one about ten times
/// faster than xz's default level 6 for most of the gain (BENCHMARKS.md, "Tree proofs").
pub fn xz_file(from: &Path, to: &Path, level: u32) -> io::Result<()> {
    let mut input = BufReader::new(File::open(from)?);
    let out = std::io::BufWriter::new(File::create(to)?);
    let mut w = liblzma::write::XzEncoder::new(out, level);
    io::copy(&mut input, &mut w)?;
    let mut out = w.finish()?;
    out.flush()?;
    out.into_inner()
        .map_err(std::io::IntoInnerError::into_error)?
        .sync_all()
}

/// `path` without a compression extension (`q.lrat.xz` is `q.lrat`), for whatever else its
/// name says (a proof's format).
pub fn stripped(path: &Path) -> PathBuf {
    match Compression::of_name(path) {
        Compression::None => path.to_path_buf(),
        _ => path.with_extension(""),
    }
}

/// A plain file with the contents of a possibly compressed one, for a program that reads
/// only plain files (a proof checker): the file itself when it is plain, else a
/// decompressed temporary copy, removed when this is dropped.
pub struct Plain {
    path: PathBuf,
    _copy: Option<tempfile::TempPath>,
}

impl Plain {
    /// The plain file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The plain version of `path` (see [`Plain`]). A file that cannot be opened, or is not a
/// regular file, is handed on as it is, for its reader to report as it always does.
pub fn plain_file(path: &Path) -> io::Result<Plain> {
    let as_is = || Plain {
        path: path.to_path_buf(),
        _copy: None,
    };
    // Only a regular file is looked into: opening a FIFO would wait for a writer, and a
    // directory or device is for the reader to refuse by its own name.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(as_is());
    }
    let Ok(file) = File::open(path) else {
        return Ok(as_is());
    };
    let mut head = Vec::with_capacity(6);
    file.take(6).read_to_end(&mut head)?;
    if Compression::of_magic(&head) == Compression::None {
        return Ok(as_is());
    }
    // The copy keeps the name's other extensions (.cnf, .lrat) for the program's sake.
    let name = stripped(path);
    let suffix = name
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let mut copy = crate::output::scratch_file(&suffix).map_err(io::Error::other)?;
    io::copy(&mut open(path)?, copy.as_file_mut())?;
    copy.as_file_mut().flush()?;
    Ok(Plain {
        path: copy.path().to_path_buf(),
        _copy: Some(copy.into_temp_path()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &[u8] = b"p cnf 2 1\n1 -2 0\n";

    fn written(name: &str) -> Vec<u8> {
        let mut out = Vec::new();
        write_as_named(Path::new(name), &mut out, |w| w.write_all(TEXT)).unwrap();
        out
    }

    #[test]
    fn every_format_round_trips_and_is_recognised_by_its_bytes() {
        for (name, format) in [
            ("q.cnf", Compression::None),
            ("q.cnf.gz", Compression::Gzip),
            ("q.cnf.bz2", Compression::Bzip2),
            ("q.cnf.XZ", Compression::Xz),
        ] {
            assert_eq!(Compression::of_name(Path::new(name)), format);
            let named = format!("q{}", format.extension());
            assert_eq!(Compression::of_name(Path::new(&named)), format, "{named}");
            assert_eq!(compressed(format, TEXT).unwrap(), written(name), "{name}");
            let bytes = written(name);
            assert_eq!(Compression::of_magic(&bytes), format, "{name}");
            let back = io::read_to_string(decompressed(&bytes[..]).unwrap()).unwrap();
            assert_eq!(back.as_bytes(), TEXT, "{name}");
        }
    }

    #[test]
    fn concatenated_streams_read_as_one() {
        for name in ["a.gz", "a.bz2", "a.xz"] {
            let mut bytes = written(name);
            bytes.extend(written(name));
            let back = io::read_to_string(decompressed(&bytes[..]).unwrap()).unwrap();
            assert_eq!(back.as_bytes(), [TEXT, TEXT].concat(), "{name}");
        }
    }

    #[test]
    fn short_and_empty_inputs_are_plain() {
        for bytes in [&b""[..], b"c", b"BZ"] {
            let back = io::read_to_string(decompressed(bytes).unwrap()).unwrap();
            assert_eq!(back.as_bytes(), bytes);
        }
    }

    #[test]
    fn plain_copies_of_compressed_files() {
        let dir = tempfile::tempdir().unwrap();
        let xz = dir.path().join("p.lrat.xz");
        std::fs::write(&xz, written("p.lrat.xz")).unwrap();
        let plain = plain_file(&xz).unwrap();
        assert_ne!(plain.path(), xz);
        assert!(plain.path().to_string_lossy().ends_with(".lrat"));
        assert_eq!(std::fs::read(plain.path()).unwrap(), TEXT);
        let copy = plain.path().to_path_buf();
        drop(plain);
        assert!(!copy.exists(), "the copy is removed");
        // Plain and missing files are handed on as they are.
        let txt = dir.path().join("p.cnf");
        std::fs::write(&txt, TEXT).unwrap();
        assert_eq!(plain_file(&txt).unwrap().path(), txt);
        let missing = dir.path().join("missing.cnf.gz");
        assert_eq!(plain_file(&missing).unwrap().path(), missing);
        assert_eq!(stripped(Path::new("a/p.lrat.GZ")), Path::new("a/p.lrat"));
        assert_eq!(stripped(Path::new("p.drat")), Path::new("p.drat"));
    }

    #[test]
    fn a_truncated_stream_is_an_error() {
        let bytes = written("q.xz");
        let cut = &bytes[..bytes.len() / 2];
        assert!(io::read_to_string(decompressed(cut).unwrap()).is_err());
    }
}
