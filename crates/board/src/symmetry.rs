//! Symmetries of placement problems, and the canonical member of an orbit.
//!
//! # The group
//!
//! A symmetry ([`Symmetry`]) moves squares and renames groups at once. [`symmetries`]
//! lists those this crate uses for a problem given by [`Rules`] and the number of pieces
//! each group must have (its *demands*):
//!
//! * the point symmetries of the board: the 8 of the square when `rows == cols`
//!   (identity, rotations by 90°, 180°, 270°, then the mirrors left–right, top–bottom, in
//!   the main diagonal and in the anti-diagonal), else the 4 of the rectangle (identity,
//!   half turn, the two mirrors);
//! * on a torus, each of those followed by every translation (wrapping both ways);
//! * each of those together with every permutation of the groups that maps the problem to
//!   itself: a group goes to one of the same kind and demand, and `(a, b)` is a `no_attack`
//!   pair exactly when `(p[a], p[b])` is one (`(a, a)` pairs included).
//!
//! Every one of them maps attacks to attacks and so valid placements to valid ones. This is
//! a group, not necessarily every symmetry a particular problem has (a rook-only problem,
//! for one, has any permutation of rows and columns as well).
//!
//! # The canonical order
//!
//! A placement is compared by its *key*: one bit per (group, square) pair, group-major (all
//! squares of group 0 row-major, then all of group 1, ...), an empty square (false) before a
//! piece (true). The canonical member of an orbit is the image with the least key, the order
//! lex-leader constraints over those bits use: when such a constraint is posted for every
//! symmetry, the placements that survive are exactly the canonical ones.
//!
//! ```
//! use pq_board::placement::{Placement, Rules};
//! use pq_board::symmetry::{symmetries, SymmetryGroup};
//! let rules = Rules::peaceable_queens(3);
//! let demands = [1, 1];
//! assert_eq!(symmetries(&rules, &demands).len(), 16);
//! let mut p = Placement::empty(&rules.layout);
//! p.set(0, 0, Some(0));
//! p.set(1, 2, Some(1));
//! let group = SymmetryGroup::new(&rules, &demands);
//! let c = group.canonical(&p);
//! assert!(group.is_canonical(&c));
//! assert_eq!(group.orbit_size(&p), 16); // no symmetry fixes it
//! ```
//!

use std::collections::HashSet;

use crate::placement::{Layout, Placement, Rules};
use crate::rules::forbidden_matrix;

/// One symmetry of a placement problem: square `s` goes to `squares[s]` (row-major
/// indices), group `g` to `groups[g]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// The image of each square, by row-major index.
    pub squares: Vec<usize>,
    /// The image of each group, by group index.
    pub groups: Vec<usize>,
}

impl Symmetry {
    /// The identity of the problem given by `rules`: every square and group to itself.
    pub fn identity(rules: &Rules) -> Symmetry {
        Symmetry {
            squares: (0..rules.layout.rows * rules.layout.cols).collect(),
            groups: (0..rules.groups.len()).collect(),
        }
    }
}

/// The distinct square maps of `layout` (row-major indices), identity first: the point
/// symmetries in the order of the module documentation, on a torus each followed by every
/// translation. Distinct because on tiny boards different combinations coincide (on a 1 × 1
/// board all 8 point symmetries are the identity; a 2 × 2 torus has 8 distinct maps, not 32).
fn square_maps(layout: &Layout) -> Vec<Vec<usize>> {
    type Map = fn(usize, usize, usize, usize) -> (usize, usize);
    // Arguments: row, column, last row, last column.
    const SQUARE: [Map; 8] = [
        |r, c, _, _| (r, c),
        |r, c, m, _| (c, m - r),
        |r, c, rm, cm| (rm - r, cm - c),
        |r, c, m, _| (m - c, r),
        |r, c, _, cm| (r, cm - c),
        |r, c, rm, _| (rm - r, c),
        |r, c, _, _| (c, r),
        |r, c, m, _| (m - c, m - r),
    ];
    let (rows, cols) = (layout.rows, layout.cols);
    // The rectangle's: identity, half turn and the two mirrors.
    let points = if rows == cols {
        SQUARE.to_vec()
    } else {
        [0, 2, 4, 5].map(|i| SQUARE[i]).to_vec()
    };
    // Every shift wraps on a torus; elsewhere only the zero shift.
    let (shift_rows, shift_cols) = if layout.torus { (rows, cols) } else { (1, 1) };
    // Saturating: on a board without squares the maps are never called.
    let (last_row, last_col) = (rows.saturating_sub(1), cols.saturating_sub(1));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for point in points {
        for (dr, dc) in (0..shift_rows).flat_map(|dr| (0..shift_cols).map(move |dc| (dr, dc))) {
            let map: Vec<usize> = (0..rows)
                .flat_map(|r| (0..cols).map(move |c| (r, c)))
                .map(|(r, c)| {
                    let (r2, c2) = point(r, c, last_row, last_col);
                    (r2 + dr) % rows * cols + (c2 + dc) % cols
                })
                .collect();
            if seen.insert(map.clone()) {
                out.push(map);
            }
        }
    }
    out
}

/// Every permutation of the groups that maps the problem to itself (see the module
/// documentation), in lexicographic order, so the identity comes first.
fn group_permutations(rules: &Rules, demands: &[usize]) -> Vec<Vec<usize>> {
    let n = rules.groups.len();
    // Pairs naming unknown groups constrain nothing (the validator reports them).
    let related = forbidden_matrix(rules);
    // Whether group `perm.len()` may go to `image`, given the images of the groups before it.
    let consistent = |perm: &[usize], image: usize| {
        let g = perm.len();
        !perm.contains(&image)
            && rules.groups[g].kind == rules.groups[image].kind
            && demands[g] == demands[image]
            && related[g][g] == related[image][image]
            && (0..g).all(|h| related[g][h] == related[image][perm[h]])
    };
    // Group by group, extending each partial permutation by every consistent image in
    // increasing order (which keeps the lexicographic order); checking each new image
    // against those already chosen prunes the search well before n! when groups differ.
    let mut perms = vec![Vec::new()];
    for _ in 0..n {
        perms = perms
            .iter()
            .flat_map(|perm: &Vec<usize>| {
                (0..n)
                    .filter(|&image| consistent(perm, image))
                    .map(|image| [perm.as_slice(), &[image]].concat())
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    perms
}

/// Every symmetry of the instance given by `rules` and `demands` (`demands[g]` = the number
/// of pieces group `g` must have), as the module documentation lists them, identity first,
/// without two that act alike.
///
/// Ordered by group permutation (lexicographic), then by square map (point symmetry in the
/// order of the module documentation, then translation).
///
/// # Panics
///
/// If `demands` does not have one entry per group.
pub fn symmetries(rules: &Rules, demands: &[usize]) -> Vec<Symmetry> {
    assert_eq!(
        demands.len(),
        rules.groups.len(),
        "one demand per group is needed to tell which groups are interchangeable"
    );
    let squares = square_maps(&rules.layout);
    group_permutations(rules, demands)
        .into_iter()
        .flat_map(|groups| {
            squares.iter().map(move |sq| Symmetry {
                squares: sq.clone(),
                groups: groups.clone(),
            })
        })
        .collect()
}

/// The distinct images of `p` under `symmetries`, in their order (the identity's first when
/// the list starts with it): the orbit when `symmetries` is a whole group.
pub fn images(symmetries: &[Symmetry], p: &Placement) -> Vec<Placement> {
    let mut out: Vec<Placement> = Vec::new();
    for s in symmetries {
        let image = apply(s, p);
        if !out.contains(&image) {
            out.push(image);
        }
    }
    out
}

/// The image of `p` under `s`: the piece of group `g` on square `t` moves to square
/// `s.squares[t]` and becomes group `s.groups[g]`.
///
/// # Panics
///
/// If `s` is for a board of another number of squares, or `p` has a piece of a group `s`
/// does not know.
pub fn apply(s: &Symmetry, p: &Placement) -> Placement {
    assert_eq!(
        s.squares.len(),
        p.cells.len(),
        "the symmetry is for a board of another size"
    );
    let mut cells = vec![None; p.cells.len()];
    for (t, cell) in p.cells.iter().enumerate() {
        if let Some(g) = *cell {
            assert!(
                g < s.groups.len(),
                "a piece of group {g}, but the symmetry knows {} groups",
                s.groups.len()
            );
            cells[s.squares[t]] = Some(s.groups[g]);
        }
    }
    Placement {
        rows: p.rows,
        cols: p.cols,
        cells,
    }
}

/// The symmetries of one problem, computed once, with the canonical-form questions asked
/// against them.
///
/// Every question about a placement `p` panics if `p` does not fit the layout or has a piece
/// of an unknown group.
#[derive(Clone, Debug)]
pub struct SymmetryGroup {
    layout: Layout,
    groups: usize,
    symmetries: Vec<Symmetry>,
}

/// The most images (of squares and groups, over all symmetries) a [`SymmetryGroup`] may
/// hold: 2^25 of 8 bytes, 256 MiB. A 32 × 32 torus (8 point symmetries × 1024
/// translations × 1024 squares) fits; a 64 × 64 torus (1 GB per group permutation) does not.
pub const MAX_SYMMETRY_IMAGES: usize = 1 << 25;

/// A problem whose symmetries are too many to list ([`MAX_SYMMETRY_IMAGES`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "this problem has up to {symmetries} symmetries of {squares} squares each, more than pq-sat lists \
     (at most {max} square images, 256 MiB); canonical forms and orbits need them all: \
     use a smaller board, or one that is not a torus",
    max = MAX_SYMMETRY_IMAGES
)]
pub struct TooManySymmetries {
    /// How many symmetries the problem may have (point symmetries × translations × group
    /// permutations; a few may coincide).
    pub symmetries: usize,
    /// The board's number of squares.
    pub squares: usize,
}

impl SymmetryGroup {
    /// The group [`symmetries`] lists for `rules` and `demands`.
    ///
    /// # Panics
    ///
    /// If `demands` does not have one entry per group, or the group is too large to list
    /// (see [`SymmetryGroup::bounded`]).
    pub fn new(rules: &Rules, demands: &[usize]) -> SymmetryGroup {
        SymmetryGroup::bounded(rules, demands).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The group [`symmetries`] lists for `rules` and `demands`, if it holds at most
    /// [`MAX_SYMMETRY_IMAGES`] images: the size is bounded before anything is allocated.
    ///
    /// # Errors
    ///
    /// Too many symmetries to list, with the limit in the message.
    ///
    /// # Panics
    ///
    /// If `demands` does not have one entry per group.
    pub fn bounded(rules: &Rules, demands: &[usize]) -> Result<SymmetryGroup, TooManySymmetries> {
        let layout = &rules.layout;
        let squares = layout.rows.saturating_mul(layout.cols);
        let points = if layout.rows == layout.cols { 8 } else { 4 };
        let shifts = if layout.torus { squares } else { 1 };
        // group_permutations is small (at most 8! lists of 8 groups), the square maps are not.
        let perms = if demands.len() == rules.groups.len() {
            group_permutations(rules, demands).len()
        } else {
            1 // symmetries() panics below with its own message
        };
        let count = (points * shifts.max(1)).saturating_mul(perms);
        let images = count.saturating_mul(squares + rules.groups.len());
        if images > MAX_SYMMETRY_IMAGES {
            return Err(TooManySymmetries {
                symmetries: count,
                squares,
            });
        }
        Ok(SymmetryGroup {
            layout: rules.layout,
            groups: rules.groups.len(),
            symmetries: symmetries(rules, demands),
        })
    }

    /// The symmetries, identity first (as [`symmetries`] returns them).
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// The canonical member of `p`'s orbit: the image whose key (see the module
    /// documentation) is least.
    pub fn canonical(&self, p: &Placement) -> Placement {
        let mut keys = Keys::new(self, p);
        let mut least = keys.image(&self.symmetries[0]).to_vec();
        let mut best = 0;
        for (i, s) in self.symmetries.iter().enumerate().skip(1) {
            let image = keys.image(s);
            if image < least.as_slice() {
                least.copy_from_slice(image);
                best = i;
            }
        }
        apply(&self.symmetries[best], p)
    }

    /// True when `p` is its orbit's canonical member, that is no image has a smaller key.
    pub fn is_canonical(&self, p: &Placement) -> bool {
        self.canonical(p) == *p
    }

    /// The number of distinct placements in `p`'s orbit (a divisor of the number of
    /// symmetries).
    pub fn orbit_size(&self, p: &Placement) -> usize {
        let mut keys = Keys::new(self, p);
        let images: HashSet<Vec<u64>> = self
            .symmetries
            .iter()
            .map(|s| keys.image(s).to_vec())
            .collect();
        images.len()
    }
}

/// Keys packed into words so that comparing the word slices compares the keys: bit `i` of
/// the key is bit `63 - i % 64` of word `i / 64`, each group padded to whole words (the
/// padding is zero in every key, so it never decides a comparison). One buffer is reused
/// so that writing an image allocates nothing.
struct Keys<'a> {
    placement: &'a Placement,
    words_per_group: usize,
    buffer: Vec<u64>,
}

impl<'a> Keys<'a> {
    /// For the images of `p`, which must fit `group`'s problem.
    fn new(group: &SymmetryGroup, p: &'a Placement) -> Keys<'a> {
        assert!(
            p.fits(&group.layout),
            "a {}×{} placement with {} cells on a {}×{} board",
            p.rows,
            p.cols,
            p.cells.len(),
            group.layout.rows,
            group.layout.cols
        );
        if let Some(g) = p.cells.iter().flatten().find(|&&g| g >= group.groups) {
            panic!(
                "a piece of group {g}, but the problem has {} groups",
                group.groups
            );
        }
        let words_per_group = p.cells.len().div_ceil(64);
        Keys {
            placement: p,
            words_per_group,
            buffer: vec![0; words_per_group * group.groups],
        }
    }

    /// The key of the image under `s`.
    fn image(&mut self, s: &Symmetry) -> &[u64] {
        self.buffer.fill(0);
        for (t, cell) in self.placement.cells.iter().enumerate() {
            if let Some(g) = *cell {
                let bit = s.squares[t];
                self.buffer[s.groups[g] * self.words_per_group + bit / 64] |=
                    1u64 << (63 - bit % 64);
            }
        }
        &self.buffer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::placement::Kind;
    use crate::rules::{addable_squares, attacks, check_placement};
    use std::collections::BTreeSet;

    fn layout(rows: usize, cols: usize, torus: bool) -> Layout {
        Layout { rows, cols, torus }
    }

    fn rules(layout: Layout, kinds: &[Kind], no_attack: &[(usize, usize)]) -> Rules {
        Rules::with_kinds(layout, kinds, no_attack)
    }

    fn two_armies(rows: usize, cols: usize, torus: bool) -> Rules {
        rules(
            layout(rows, cols, torus),
            &[Kind::Queen, Kind::Queen],
            &[(0, 1)],
        )
    }

    /// A small deterministic generator (xorshift), so that the tests need no dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// A valid placement built by adding pieces at random squares where they fit, groups
    /// taking turns, until each group has its demand or nothing more fits.
    fn greedy(rules: &Rules, demands: &[usize], rng: &mut Rng) -> Placement {
        let mut p = Placement::empty(&rules.layout);
        loop {
            let mut added = false;
            for (g, &want) in demands.iter().enumerate() {
                if p.count(g) >= want {
                    continue;
                }
                let free = addable_squares(rules, &p, g);
                if !free.is_empty() {
                    let (r, c) = free[rng.below(free.len())];
                    p.set(r, c, Some(g));
                    added = true;
                }
            }
            if !added {
                return p;
            }
        }
    }

    /// The key of the module documentation, straight from its definition.
    fn naive_key(groups: usize, p: &Placement) -> Vec<bool> {
        (0..groups)
            .flat_map(|g| p.cells.iter().map(move |&cell| cell == Some(g)))
            .collect()
    }

    fn compose(a: &Symmetry, b: &Symmetry) -> Symmetry {
        // First b, then a.
        Symmetry {
            squares: b.squares.iter().map(|&t| a.squares[t]).collect(),
            groups: b.groups.iter().map(|&g| a.groups[g]).collect(),
        }
    }

    fn is_identity(s: &Symmetry) -> bool {
        s.squares.iter().enumerate().all(|(i, &t)| i == t)
            && s.groups.iter().enumerate().all(|(i, &g)| i == g)
    }

    fn assert_is_group(syms: &[Symmetry]) {
        assert!(is_identity(&syms[0]), "identity first");
        let set: HashSet<&Symmetry> = syms.iter().collect();
        assert_eq!(set.len(), syms.len(), "no duplicates");
        for s in syms {
            let mut sq = s.squares.clone();
            sq.sort_unstable();
            assert!(sq.iter().enumerate().all(|(i, &t)| i == t), "a bijection");
            for t in syms {
                assert!(set.contains(&compose(s, t)), "closed under composition");
            }
        }
    }

    #[test]
    fn group_sizes() {
        let size = |r: &Rules, d: &[usize]| symmetries(r, d).len();
        assert_eq!(size(&two_armies(8, 8, false), &[9, 9]), 16);
        assert_eq!(size(&two_armies(5, 6, false), &[4, 4]), 8);
        assert_eq!(size(&two_armies(4, 4, true), &[2, 2]), 8 * 16 * 2);
        assert_eq!(size(&two_armies(12, 12, true), &[5, 5]), 8 * 144 * 2);
        assert_eq!(size(&two_armies(3, 5, true), &[1, 1]), 4 * 15 * 2);
        // Unequal demands: no colour swap.
        assert_eq!(size(&two_armies(8, 8, false), &[9, 8]), 8);
        // Different kinds: no swap.
        let queen_rook = rules(layout(6, 6, false), &[Kind::Queen, Kind::Rook], &[(0, 1)]);
        assert_eq!(size(&queen_rook, &[3, 3]), 8);
        // One army must also be peaceable among itself: no swap.
        let one_self = two_armies(6, 6, false);
        let one_self = Rules {
            no_attack: vec![(0, 1), (0, 0)],
            ..one_self
        };
        assert_eq!(size(&one_self, &[3, 3]), 8);
        // Both peaceable among themselves: the swap again.
        let both_self = Rules {
            no_attack: vec![(0, 0), (0, 1), (1, 1)],
            ..two_armies(6, 6, false)
        };
        assert_eq!(size(&both_self, &[3, 3]), 16);
        // Three equal groups in a chain 0 - 1 - 2: only 0 and 2 trade places.
        let chain = rules(
            layout(5, 5, false),
            &[Kind::Knight, Kind::Knight, Kind::Knight],
            &[(0, 1), (1, 2)],
        );
        let syms = symmetries(&chain, &[2, 2, 2]);
        assert_eq!(syms.len(), 16);
        let perms: BTreeSet<Vec<usize>> = syms.iter().map(|s| s.groups.clone()).collect();
        assert_eq!(perms, BTreeSet::from([vec![0, 1, 2], vec![2, 1, 0]]));
        // Three groups with no relation at all: every permutation.
        let free = rules(layout(4, 5, false), &[Kind::King; 3], &[]);
        assert_eq!(size(&free, &[1, 1, 1]), 4 * 6);
        // Pairs need not be normalised, and may repeat.
        let messy = Rules {
            no_attack: vec![(1, 0), (0, 1)],
            ..two_armies(8, 8, false)
        };
        assert_eq!(size(&messy, &[2, 2]), 16);
    }

    #[test]
    fn tiny_boards_have_no_repeated_symmetries() {
        // 1 × 1: every point symmetry and translation is the identity.
        assert_eq!(symmetries(&two_armies(1, 1, false), &[1, 1]).len(), 2);
        assert_eq!(symmetries(&two_armies(1, 1, true), &[1, 1]).len(), 2);
        // 2 × 2 torus: of the 8 × 4 combinations, 8 distinct square maps (modulo 2 a
        // rotation is a diagonal mirror and the half turn the identity).
        assert_eq!(symmetries(&two_armies(2, 2, true), &[1, 1]).len(), 16);
        // 1 × 3: the top-bottom mirror is the identity, the half turn the left-right one.
        assert_eq!(symmetries(&two_armies(1, 3, false), &[1, 1]).len(), 4);
        for r in [
            two_armies(1, 1, true),
            two_armies(2, 2, true),
            two_armies(2, 2, false),
            two_armies(1, 3, false),
            two_armies(2, 3, true),
            two_armies(4, 4, true),
            two_armies(3, 5, true),
        ] {
            assert_is_group(&symmetries(&r, &[1, 1]));
        }
        let free = rules(layout(3, 3, true), &[Kind::King; 3], &[(0, 1)]);
        assert_is_group(&symmetries(&free, &[1, 1, 1]));
    }

    #[test]
    fn point_symmetries_as_documented() {
        // On 3 × 4 the half turn takes the top-left corner to the bottom-right one.
        let syms = symmetries(&two_armies(3, 4, false), &[1, 1]);
        let corner_images: Vec<usize> = syms[..4].iter().map(|s| s.squares[0]).collect();
        assert_eq!(corner_images, vec![0, 11, 3, 8]);
        // On 8 × 8 a quarter turn takes a1 (top left) to the top right.
        let syms = symmetries(&two_armies(8, 8, false), &[1, 1]);
        let corner_images: Vec<usize> = syms[..8].iter().map(|s| s.squares[0]).collect();
        assert_eq!(corner_images, vec![0, 7, 63, 56, 7, 56, 0, 63]);
        assert!(syms[8..].iter().all(|s| s.groups == vec![1, 0]));
    }

    #[test]
    fn symmetries_keep_every_attack() {
        for l in [
            layout(6, 6, false),
            layout(5, 7, false),
            layout(1, 4, false),
            layout(5, 5, true),
            layout(4, 6, true),
            layout(3, 3, true),
            layout(2, 5, true),
        ] {
            let syms = symmetries(&two_armies(l.rows, l.cols, l.torus), &[1, 1]);
            let sq = |i: usize| (i / l.cols, i % l.cols);
            for s in &syms {
                for a in 0..l.squares() {
                    for b in 0..l.squares() {
                        for kind in Kind::ALL {
                            assert_eq!(
                                attacks(&l, kind, sq(a), sq(b)),
                                attacks(&l, kind, sq(s.squares[a]), sq(s.squares[b])),
                                "{kind} on {l:?}, {a} -> {b}, under {s:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Problems to try random placements on: rules and demands.
    fn problems() -> Vec<(Rules, Vec<usize>)> {
        use Kind::*;
        vec![
            (two_armies(8, 8, false), vec![5, 5]),
            (two_armies(5, 6, false), vec![3, 3]),
            (two_armies(7, 7, true), vec![3, 3]),
            (two_armies(5, 8, true), vec![2, 2]),
            (
                rules(
                    layout(6, 6, false),
                    &[Rook, Rook, Bishop],
                    &[(0, 1), (0, 2), (1, 2)],
                ),
                vec![2, 2, 3],
            ),
            (
                rules(
                    layout(5, 7, false),
                    &[Bishop, Bishop],
                    &[(0, 0), (1, 1), (0, 1)],
                ),
                vec![4, 4],
            ),
            (
                rules(layout(6, 6, true), &[Knight, Knight], &[(0, 1)]),
                vec![6, 6],
            ),
            (
                rules(
                    layout(6, 6, true),
                    &[Knight, King, Knight],
                    &[(0, 1), (1, 2), (1, 1)],
                ),
                vec![3, 2, 3],
            ),
            (
                rules(
                    layout(4, 6, true),
                    &[King, King, King],
                    &[(0, 1), (0, 2), (1, 2)],
                ),
                vec![2, 2, 2],
            ),
            (
                rules(layout(5, 5, true), &[Bishop, Queen], &[(0, 1), (1, 1)]),
                vec![3, 2],
            ),
        ]
    }

    #[test]
    fn symmetries_map_valid_placements_to_valid_ones() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for (rules, demands) in problems() {
            let syms = symmetries(&rules, &demands);
            for _ in 0..20 {
                let p = greedy(&rules, &demands, &mut rng);
                let counts: Vec<Option<usize>> =
                    (0..demands.len()).map(|g| Some(p.count(g))).collect();
                assert_eq!(check_placement(&rules, &p, &counts), Ok(()));
                for s in &syms {
                    let img = apply(s, &p);
                    // Group g's pieces become group s.groups[g]'s.
                    let mut moved = vec![None; counts.len()];
                    for (g, &c) in counts.iter().enumerate() {
                        moved[s.groups[g]] = c;
                    }
                    assert_eq!(
                        check_placement(&rules, &img, &moved),
                        Ok(()),
                        "{rules:?}: {p:?} under {s:?}"
                    );
                    // A placement meeting the demands still does.
                    if counts.iter().zip(&demands).all(|(c, &d)| *c == Some(d)) {
                        let want: Vec<Option<usize>> = demands.iter().map(|&d| Some(d)).collect();
                        assert_eq!(check_placement(&rules, &img, &want), Ok(()));
                    }
                }
            }
        }
    }

    #[test]
    fn canonical_placements_are_shared_by_the_orbit() {
        let mut rng = Rng(12345);
        for (rules, demands) in problems() {
            let group = SymmetryGroup::new(&rules, &demands);
            for _ in 0..5 {
                let p = greedy(&rules, &demands, &mut rng);
                let c = group.canonical(&p);
                assert!(group.is_canonical(&c));
                assert_eq!(group.is_canonical(&p), p == c);
                let naive_least = group
                    .symmetries()
                    .iter()
                    .map(|s| apply(s, &p))
                    .min_by_key(|img| naive_key(rules.groups.len(), img))
                    .unwrap();
                assert_eq!(c, naive_least);
                let size = group.orbit_size(&p);
                assert_eq!(
                    group.symmetries().len() % size,
                    0,
                    "orbit sizes divide the group's"
                );
                // Orbit times stabiliser is the group: the list is a whole group.
                let stabiliser = group
                    .symmetries()
                    .iter()
                    .filter(|s| apply(s, &p) == p)
                    .count();
                assert_eq!(size * stabiliser, group.symmetries().len());
                let orbit = images(group.symmetries(), &p);
                assert_eq!((orbit.len(), &orbit[0]), (size, &p), "identity first");
                assert!(orbit.contains(&c));
                for s in group.symmetries() {
                    let img = apply(s, &p);
                    assert_eq!(group.canonical(&img), c);
                    assert_eq!(group.orbit_size(&img), size);
                }
            }
        }
    }

    /// Every valid placement with exactly `demands` pieces, by brute force over the
    /// squares.
    fn all_valid(rules: &Rules, demands: &[usize]) -> Vec<Placement> {
        fn fill(
            rules: &Rules,
            demands: &[usize],
            p: &mut Placement,
            from: usize,
            g: usize,
            out: &mut Vec<Placement>,
        ) {
            if g == demands.len() {
                let want: Vec<Option<usize>> = demands.iter().map(|&d| Some(d)).collect();
                if check_placement(rules, p, &want).is_ok() {
                    out.push(p.clone());
                }
                return;
            }
            if p.count(g) == demands[g] {
                return fill(rules, demands, p, 0, g + 1, out);
            }
            for t in from..p.cells.len() {
                if p.cells[t].is_none() {
                    p.cells[t] = Some(g);
                    fill(rules, demands, p, t + 1, g, out);
                    p.cells[t] = None;
                }
            }
        }
        let mut out = Vec::new();
        let mut p = Placement::empty(&rules.layout);
        fill(rules, demands, &mut p, 0, 0, &mut out);
        out
    }

    #[test]
    fn orbits_counted_by_brute_force_match_canonical_placements() {
        use Kind::*;
        let cases = [
            (two_armies(3, 3, false), vec![1, 1]),
            (two_armies(4, 4, false), vec![2, 2]),
            (two_armies(3, 4, false), vec![1, 2]),
            (two_armies(4, 4, true), vec![1, 1]),
            (
                rules(layout(3, 4, true), &[Knight, Knight], &[(0, 1)]),
                vec![2, 2],
            ),
            (
                rules(
                    layout(3, 3, false),
                    &[King, King, King],
                    &[(0, 1), (1, 2), (0, 2)],
                ),
                vec![1, 1, 1],
            ),
        ];
        for (rules, demands) in cases {
            let group = SymmetryGroup::new(&rules, &demands);
            let valid = all_valid(&rules, &demands);
            assert!(!valid.is_empty(), "{rules:?}");
            let orbits: BTreeSet<BTreeSet<Placement>> = valid
                .iter()
                .map(|p| group.symmetries().iter().map(|s| apply(s, p)).collect())
                .collect();
            let canonical: Vec<&Placement> =
                valid.iter().filter(|p| group.is_canonical(p)).collect();
            assert_eq!(orbits.len(), canonical.len(), "{rules:?}");
            for orbit in &orbits {
                assert_eq!(orbit.iter().filter(|p| group.is_canonical(p)).count(), 1);
                let least = orbit
                    .iter()
                    .min_by_key(|p| naive_key(rules.groups.len(), p))
                    .unwrap();
                assert!(group.is_canonical(least));
                assert_eq!(group.orbit_size(least), orbit.len());
            }
            let total: usize = orbits.iter().map(std::collections::BTreeSet::len).sum();
            assert_eq!(total, valid.len());
        }
        // The 3 × 3 case by hand: two queens that do not attack each other stand a knight's
        // move apart (a corner and an edge middle), 8 such pairs times 2 ways to colour
        // them, all in one orbit.
        let valid = all_valid(&two_armies(3, 3, false), &[1, 1]);
        assert_eq!(valid.len(), 16);
        let group = SymmetryGroup::new(&two_armies(3, 3, false), &[1, 1]);
        assert_eq!(valid.iter().filter(|p| group.is_canonical(p)).count(), 1);
    }

    /// The peaceable queens' group of 16 (the square's 8, with and without the colour swap)
    /// and `rows` as a placement of it.
    fn queens(rows: &[&str]) -> (SymmetryGroup, Placement) {
        let rules = Rules::peaceable_queens(rows.len());
        let p = Placement::from_rows(&rules.layout, rows, &['W', 'B']).unwrap();
        (SymmetryGroup::new(&rules, &[0, 0]), p)
    }

    #[test]
    fn the_queens_group_has_16_symmetries_with_the_colour_swap() {
        let (group, p) = queens(&["W...B", ".....", "..W..", ".....", "B...."]);
        assert_eq!(group.symmetries().len(), 16);
        let swapped = queens(&["B...W", ".....", "..B..", ".....", "W...."]).1;
        assert!(group.symmetries().iter().any(|s| apply(s, &p) == swapped));
    }

    #[test]
    fn orbit_sizes_divide_16() {
        // Fixed by the main-diagonal mirror, and by the half turn or the anti-diagonal mirror
        // together with the colour swap: a stabiliser of 4.
        for (rows, size) in [
            (&["W..", "...", "..B"], 4),
            (&["...", "...", "..."], 1),
            (&["...", ".W.", "..."], 2),
            (&["WB.", "...", "..."], 16),
        ] {
            let (group, p) = queens(rows);
            assert_eq!(group.orbit_size(&p), size, "{rows:?}");
        }
    }

    #[test]
    fn canonical_is_the_same_for_every_image_and_is_canonical() {
        let (group, p) = queens(&["WB..", "....", "..W.", "...B"]);
        let c = group.canonical(&p);
        assert!(group.is_canonical(&c));
        for s in group.symmetries() {
            assert_eq!(group.canonical(&apply(s, &p)), c);
        }
    }

    #[test]
    fn canonical_prefers_empty_early_white_squares() {
        // White in the top-left corner is never canonical when a rotation moves it away.
        let (group, p) = queens(&["W..", "...", "..."]);
        let c = group.canonical(&p);
        assert_eq!(c.get(0, 0), None);
        assert_eq!(
            c.count(1),
            1,
            "swapping colours moves the queen into the black bits"
        );
    }

    #[test]
    fn a_group_too_large_to_list_is_refused_before_it_is_built() {
        // 8 point symmetries × 4096 translations × 2 colourings, of 4096 squares each.
        let e = SymmetryGroup::bounded(&two_armies(64, 64, true), &[1, 1]).unwrap_err();
        assert_eq!((e.symmetries, e.squares), (65536, 4096));
        assert!(
            e.to_string().contains(&MAX_SYMMETRY_IMAGES.to_string()),
            "{e}"
        );
        // The largest board without a torus, and a 32 × 32 torus, are listed in full.
        let g = SymmetryGroup::bounded(&two_armies(64, 64, false), &[1, 1]).unwrap();
        assert_eq!(g.symmetries().len(), 16);
        let g = SymmetryGroup::bounded(&two_armies(32, 32, true), &[1, 1]).unwrap();
        assert_eq!(g.symmetries().len(), 16 * 1024);
        assert_eq!(
            g.symmetries()[0],
            Symmetry::identity(&two_armies(32, 32, true))
        );
    }
}
