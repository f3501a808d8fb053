//! The question pq-sat encodes: `n` white and `n` black queens, peaceably, on `d × d`,
//! and the encoding options chosen for it.

/// The largest board side pq-sat accepts: [`pq_board::limits::MAX_SIDE`], where every
/// limit on sizes is stated.
pub const MAX_DIM: usize = pq_board::limits::MAX_SIDE;

/// How attacks between the two armies are forbidden. See `encodings/README.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Model {
    /// One clause per attacking pair of squares and colour order (Smith, Petrie & Gent, CPAIOR 2004).
    Pairwise,
    /// Per line and colour an indicator; the two indicators of a line exclude each other.
    Lines,
    /// One variable per line: white-only or black-only; squares follow from their lines.
    #[default]
    Colouring,
}

/// How "at least n queens of a colour" is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Card {
    /// Totalizer (Bailleux & Boufkhad, CP 2003), from rustsat.
    #[default]
    Totalizer,
    /// Sequential counter (Sinz, CP 2005).
    SeqCounter,
}

/// Which symmetry-breaking clauses are added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// None: every solution of the problem is a solution of the formula.
    None,
    /// Lex-leader constraints for the 15 non-identity elements of the 16-element group
    /// (Aloul, Markov & Sakallah 2006; Devriendt et al., BreakID, SAT 2016).
    #[default]
    LexLeader,
}

/// Names an option enum's values: `ALL` (every value, in the order help texts list them),
/// `name()`, `Display` and a `FromStr` whose error lists the names, with `$what` naming the
/// option (`unknown WHAT 'x' (expected one of: a, b)`). One definition, so every option
/// of every command reads, prints and refuses its values alike.
#[macro_export]
macro_rules! option_names {
    ($ty:ty, $what:literal, $( $variant:expr => $name:literal ),+ $(,)?) => {
        impl $ty {
            /// Every value, in the order shown in help texts.
            pub const ALL: &'static [$ty] = &[$($variant),+];

            /// The name used on the command line, in headers and in JSON.
            pub fn name(self) -> &'static str {
                match self { $( v if v == $variant => $name, )+ _ => unreachable!() }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $( $name => Ok($variant), )+
                    _ => Err(format!(
                        "unknown {} '{}' (expected one of: {})",
                        $what, s, [$($name),+].join(", ")
                    )),
                }
            }
        }
    };
}

option_names!(Model, "model", Model::Pairwise => "pairwise", Model::Lines => "lines", Model::Colouring => "colouring");
option_names!(Card, "cardinality encoding", Card::Totalizer => "totalizer", Card::SeqCounter => "seqcounter");
option_names!(Symmetry, "symmetry breaking", Symmetry::None => "none", Symmetry::LexLeader => "lex-leader");
option_names!(Bounds, "bound clauses", Bounds::None => "none", Bounds::Sums => "sums");

/// Encoding options, independent of the instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Options {
    /// How attacks are forbidden.
    pub model: Model,
    /// How the army sizes are counted.
    pub card: Card,
    /// Which symmetry-breaking clauses are added.
    pub symmetry: Symmetry,
    /// Which redundant counting clauses are added (`--bounds`).
    pub bounds: Bounds,
}

/// Redundant clauses that let unit propagation count as the line engine does
/// ([`crate::bounds`]): they change no answer, only how fast a solver finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bounds {
    /// None.
    #[default]
    None,
    /// The family sums, colouring model only: for each diagonal family, Σ over its
    /// diagonals of (white queens if the diagonal is white, black queens if black) ≥ 2n.
    Sums,
}

impl Bounds {
    /// Whether the family-sum clauses can be asked for `problem`: they count on the line
    /// colours of the peaceable queens' colouring formula, for a(d)'s steps (both armies
    /// maximised).
    pub fn apply_to(problem: &crate::spec::Problem) -> bool {
        problem.shape().optimum_is_a_of_d().is_some()
    }
}

/// How a formula reads the demanded counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Extent {
    /// At least the demanded number of pieces per group: what a decision or an optimisation
    /// needs (removing a piece never creates an attack, so this is equisatisfiable with
    /// "exactly", and smaller).
    #[default]
    AtLeast,
    /// Exactly the demanded number per group: what listing placements needs.
    Exactly,
    /// The maximised groups at least `n` each, the fixed groups exactly their count, and no
    /// piece of a maximised group can be added anywhere (listing maximal configurations).
    Maximal,
}

/// A peaceable-queens decision instance: can `n` white and `n` black queens be placed
/// on `dim × dim` with no white–black attack? By default the formula asks for *at least* `n`
/// of each; [`Instance::with_extent`] narrows it for enumeration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    dim: usize,
    n: usize,
    extent: Extent,
}

/// Why an instance is rejected before any encoding.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InstanceError {
    /// A board of side 0.
    #[error("board size must be at least 1 (got --dim 0)")]
    ZeroDim,
    /// A board side above [`MAX_DIM`] (the side given).
    #[error("board size {0} is too large (pq-sat handles 1 to {MAX_DIM})")]
    DimTooLarge(usize),
    #[error(
        "{n} white and {n} black queens need {} squares, but a {dim}×{dim} board has only {}",
        // Wide enough for any `n`: the message must not wrap around.
        2 * (*n as u128),
        dim * dim
    )]
    /// The two armies need more squares than the board has.
    TooManyQueens {
        /// The board side.
        dim: usize,
        /// The size of each army.
        n: usize,
    },
}

impl Instance {
    /// Checks the sizes; the only instances rejected are those impossible on their face.
    pub fn new(dim: usize, n: usize) -> Result<Instance, InstanceError> {
        check_dim(dim)?;
        if n.checked_mul(2).is_none_or(|need| need > dim * dim) {
            return Err(InstanceError::TooManyQueens { dim, n });
        }
        Ok(Instance {
            dim,
            n,
            extent: Extent::AtLeast,
        })
    }

    /// The same instance with its army sizes read as `extent` (exactly `n`, or at least `n`
    /// and maximal: every empty square attacked by a white and by a black queen).
    pub fn with_extent(self, extent: Extent) -> Instance {
        Instance { extent, ..self }
    }

    /// How the army sizes are read.
    pub fn extent(&self) -> Extent {
        self.extent
    }

    /// The board side `d`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The army size `n`.
    pub fn n(&self) -> usize {
        self.n
    }
}

/// Checks that `dim` is a board size pq-sat handles.
pub fn check_dim(dim: usize) -> Result<(), InstanceError> {
    match dim {
        0 => Err(InstanceError::ZeroDim),
        d if d > MAX_DIM => Err(InstanceError::DimTooLarge(d)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &m in Model::ALL {
            assert_eq!(m.name().parse::<Model>().unwrap(), m);
        }
        for &c in Card::ALL {
            assert_eq!(c.name().parse::<Card>().unwrap(), c);
        }
        for &s in Symmetry::ALL {
            assert_eq!(s.name().parse::<Symmetry>().unwrap(), s);
        }
        let err = "pairs".parse::<Model>().unwrap_err();
        assert!(err.contains("pairwise, lines, colouring"), "{err}");
    }

    #[test]
    fn sizes_impossible_on_their_face_are_rejected() {
        assert_eq!(Instance::new(0, 0), Err(InstanceError::ZeroDim));
        assert_eq!(Instance::new(65, 1), Err(InstanceError::DimTooLarge(65)));
        assert!(matches!(
            Instance::new(3, 5),
            Err(InstanceError::TooManyQueens { .. })
        ));
        assert!(Instance::new(3, 4).is_ok());
        assert!(Instance::new(1, 0).is_ok());
        assert!(Instance::new(64, 10).is_ok());
        // No `2n` wraps around: the message states the squares really needed.
        for n in [1 << 63, usize::MAX] {
            let e = Instance::new(8, n).unwrap_err();
            assert_eq!(e, InstanceError::TooManyQueens { dim: 8, n });
            let need = 2 * n as u128;
            assert!(
                e.to_string().contains(&format!("need {need} squares")),
                "{e}"
            );
        }
    }
}
