//! The pool a submission is drawn from: a TOML list of instances, each a problem, its
//! settings and a size, grouped into series along the board side (`pools/submission.toml`).

use std::path::{Path, PathBuf};

use pq_encode::spec::Problem;
use pq_encode::Options;
use serde::Deserialize;

use crate::family::settings::{expand_settings, file_safe};
use crate::family::{FamilyError, FamilyKind, Sizes, Spec};
use pq_io::compress::Compression;
use pq_solve::known::known_optimum;

/// The name a pool gives the peaceable queens, whose instances come from the specialised
/// encoder (and whose statuses the table of proven values knows).
pub const QUEENS: &str = "peaceable-queens";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PoolFile {
    instance: Vec<PoolItem>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PoolItem {
    series: String,
    problem: String,
    #[serde(default)]
    dim: Option<usize>,
    #[serde(default)]
    set: Vec<String>,
    n: usize,
}

/// One instance of the pool, ready to be written.
#[derive(Debug)]
pub struct Item {
    /// The series it belongs to: instances of one problem and one relation to the optimum,
    /// along the board side. A hard instance's time is extrapolated from its series.
    pub series: String,
    /// A one-instance family spec (one member, one size, the default encoding, xz).
    pub spec: Spec,
    /// The optimum from the table of proven values (the queens only; the statuses come from
    /// every table, [`pq_solve::known::table`]).
    pub table: Option<usize>,
}

impl Item {
    /// The problem, every setting applied.
    pub fn problem(&self) -> &Problem {
        &self.spec.members[0].problem
    }

    /// The size of the maximised groups.
    pub fn n(&self) -> usize {
        match self.spec.sizes {
            Sizes::Range(n, _) | Sizes::AroundOptimum(n) => n,
        }
    }

    /// The board side the series grows along (the rows).
    pub fn side(&self) -> usize {
        self.problem().rules.layout.rows
    }
}

/// A pool read from a file.
#[derive(Debug)]
pub struct Pool {
    /// The file it was read from.
    pub file: PathBuf,
    /// Its instances, in file order.
    pub items: Vec<Item>,
}

impl Pool {
    /// Reads the pool at `path`; problem files are found relative to its directory. Errors
    /// name the file and the instance.
    pub fn read(path: &Path) -> Result<Pool, FamilyError> {
        let text = pq_io::output::read_input_text(path, pq_io::output::MAX_TEXT_INPUT)
            .map_err(|e| FamilyError::Invalid(e.to_string()))?;
        let base = path.parent().unwrap_or(Path::new("."));
        Pool::parse(&text, base)
            .map(|items| Pool {
                file: path.to_path_buf(),
                items,
            })
            .map_err(|e| FamilyError::Invalid(format!("{}: {e}", path.display())))
    }

    /// Parses a pool's text; `base` is the directory its problem files are relative to.
    fn parse(text: &str, base: &Path) -> Result<Vec<Item>, String> {
        let file: PoolFile = toml::from_str(text).map_err(|e| e.message().to_string())?;
        if file.instance.is_empty() {
            return Err("no [[instance]]".into());
        }
        let mut items = Vec::with_capacity(file.instance.len());
        for (k, it) in file.instance.iter().enumerate() {
            let at = |why: String| format!("instance {} ({}): {why}", k + 1, it.series);
            items.push(item(it, base).map_err(at)?);
        }
        let mut names: Vec<String> = items.iter().map(|i| i.spec.file_name(&plan(i))).collect();
        names.sort();
        if let Some([name, _]) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("{name} is listed twice"));
        }
        Ok(items)
    }
}

/// The single planned instance of an item (checked when the item was made).
pub(crate) fn plan(item: &Item) -> crate::family::Planned {
    item.spec
        .plan_with(&[item.table])
        .expect("checked by Pool::parse")[0]
}

fn item(it: &PoolItem, base: &Path) -> Result<Item, String> {
    let n = it.n;
    let (family, members, table) = if it.problem == QUEENS {
        let Some(d) = it.dim else {
            return Err(format!("{QUEENS} needs dim = D"));
        };
        if !it.set.is_empty() {
            return Err(format!("{QUEENS} takes dim, not set"));
        }
        let members =
            expand_settings(&Problem::peaceable_queens(d), &[]).map_err(|e| e.to_string())?;
        (FamilyKind::Queens, members, known_optimum(d))
    } else {
        if it.dim.is_some() {
            return Err("dim is for the peaceable queens; give a problem file's board with set = [\"board=RxC\"]".into());
        }
        let path = base.join(&it.problem);
        let text = pq_io::output::read_input_text(&path, pq_io::output::MAX_TEXT_INPUT)
            .map_err(|e| e.to_string())?;
        let problem = Problem::from_toml(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let members = expand_settings(&problem, &it.set).map_err(|e| e.to_string())?;
        if members.len() != 1 {
            return Err("set gives more than one problem; an instance is one problem".into());
        }
        let stem = path
            .file_stem()
            .map_or_else(|| "problem".into(), |s| file_safe(&s.to_string_lossy()));
        let kind = FamilyKind::Problem {
            stem,
            file: it.problem.clone(),
        };
        (kind, members, None)
    };
    let spec = Spec {
        family,
        members,
        sizes: Sizes::Range(n, n),
        encodings: vec![Options::default()],
        command: String::new(),
        compress: Compression::Xz,
        export: None,
    };
    let planned = spec.plan_with(&[table]).map_err(|e| e.to_string())?;
    if planned.len() != 1 {
        return Err(format!("n = {n} does not fit on this board"));
    }
    Ok(Item {
        series: it.series.clone(),
        spec,
        table,
    })
}

#[cfg(test)]
mod tests {
    use super::Pool;

    #[test]
    fn the_shipped_pool_reads_and_mixes_the_four_problems() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../pools/submission.toml");
        let pool = Pool::read(std::path::Path::new(path)).unwrap();
        assert!((18..=24).contains(&pool.items.len()), "about 20 instances");
        let mut kinds: Vec<&str> = pool
            .items
            .iter()
            .map(|i| i.problem().name.as_str())
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds.len(), 4, "{kinds:?}");
        // The description's short names are the file names' stems.
        let mut stems: Vec<&str> = pool.items.iter().map(|i| i.spec.stem()).collect();
        stems.sort_unstable();
        stems.dedup();
        assert_eq!(
            stems,
            [
                "crowded-chessboard",
                "peaceable-queens-torus",
                "queens",
                "three-armies"
            ]
        );
        for series in pool.items.iter().map(|i| &i.series) {
            let members = pool.items.iter().filter(|i| &i.series == series).count();
            assert!(
                members >= 2,
                "{series}: a series needs two sides to extrapolate"
            );
        }
    }
}
