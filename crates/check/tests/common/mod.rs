//! A reference writer of search certificates for the tests, written from the specification
//! and as plainly as possible (every count recomputed from the cells at every node, the
//! group's orbit found by closing under its generators), so that it shares no shortcut with
//! the checker; and a brute-force search over placements of queens that shares nothing with
//! either. With a cube, the writer searches only the pairs that agree with it (filtered from
//! all pairs by the definition) and starts every tree from the cube's diagonals labelled; a
//! second brute force, over every labelling of the diagonals, judges cubes of small boards.
//! With a `paired` line the writer also cuts by paired cells (Lemma 5), deciding each cut
//! with the greedy flow of the specification as the engine does; the judge of a leaf
//! computes a maximum flow instead (plainly, on a matrix of capacities), as a checker may.
//! With `torus` (section 7) the same writer and brute forces work on the torus: its cells'
//! wrapped diagonals and the orbit of its group closed under the generators of T2.
#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeSet;

/// Label of a diagonal on a path.
pub const NONE: u8 = 0;
pub const WHITE: u8 = 1;
pub const BLACK: u8 = 2;

pub const CELLS_WHITE: u8 = 0x80;
pub const CELLS_BLACK: u8 = 0x81;
pub const END: u8 = 0xFF;

pub fn family_sum(family: u8, weight: u8) -> u8 {
    0xC0 | family << 3 | weight
}

pub fn paired(weight: u8) -> u8 {
    0xD0 | weight
}

pub fn inner(family: u8, index: u8) -> u8 {
    family << 6 | index
}

/// A cube of labellings as section 2 defines it: fixed rows `(RM, RV)`, fixed columns
/// `(CM, CV)` and fixed diagonals `(family, index, WHITE or BLACK)`, written in the given
/// order (so that a test can write them out of order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cube {
    pub rows: (u32, u32),
    pub columns: (u32, u32),
    pub diagonals: Vec<(u8, u8, u8)>,
}

impl Cube {
    pub fn new(rows: (u32, u32), columns: (u32, u32), diagonals: &[(u8, u8, u8)]) -> Cube {
        Cube {
            rows,
            columns,
            diagonals: diagonals.to_vec(),
        }
    }

    /// The header line, without its newline.
    pub fn line(&self) -> String {
        let mut line = format!(
            "cube {} {} {} {}",
            self.rows.0, self.rows.1, self.columns.0, self.columns.1
        );
        for &(family, index, label) in &self.diagonals {
            let label = if label == WHITE { "W" } else { "B" };
            line.push_str(&format!(" {family}:{index}:{label}"));
        }
        line
    }

    /// Whether a pair agrees with the cube: `S ∩ RM = RV` and `T ∩ CM = CV`.
    pub fn agrees(&self, s: u32, t: u32) -> bool {
        s & self.rows.0 == self.rows.1 && t & self.columns.0 == self.columns.1
    }
}

/// What a certificate is to claim, and the weights its writer may use.
#[derive(Clone, Debug)]
pub struct Spec {
    pub side: u32,
    pub white: u64,
    pub black: u64,
    pub weights: Vec<(u64, u64)>,
    /// The weights of the `paired` line; none, no line.
    pub paired: Vec<(u64, u64)>,
    pub lo: u64,
    pub hi: u64,
    /// Whether the writer uses the family sums (without them trees are much larger).
    pub sums: bool,
    /// Whether the writer records its leaves (for the tests that judge every leaf).
    pub leaves: bool,
    /// The cube the certificate is restricted to, if any.
    pub cube: Option<Cube>,
    /// Whether the board is the torus (`board torus D`).
    pub torus: bool,
}

impl Spec {
    pub fn new(side: u32, white: u64, black: u64) -> Spec {
        Spec {
            side,
            white,
            black,
            weights: vec![(1, 1)],
            paired: Vec::new(),
            lo: 0,
            hi: 1 << side,
            sums: true,
            leaves: true,
            cube: None,
            torus: false,
        }
    }

    /// The same claim on the torus: the family sums with the weights the engine uses there
    /// (T4), no paired cells, no cube.
    pub fn torus(side: u32, white: u64, black: u64) -> Spec {
        Spec {
            torus: true,
            weights: vec![(1, 2), (2, 1), (3, 4), (4, 3)],
            ..Spec::new(side, white, black)
        }
    }

    /// The diagonals of each family: `2d − 1` on the square, `d` on the torus.
    pub fn diagonals(&self) -> usize {
        if self.torus {
            self.side as usize
        } else {
            2 * self.side as usize - 1
        }
    }

    /// The diagonals of family 0 and 1 through cell `(r, c)`.
    pub fn on(&self, r: u32, c: u32) -> [usize; 2] {
        on(self.side, self.torus, r, c)
    }

    /// The group's order as T6 states it on the torus, 16 or 8 on the square.
    pub fn order(&self) -> u64 {
        let swap = self.white == self.black;
        if !self.torus {
            return if swap { 16 } else { 8 };
        }
        let d = u64::from(self.side);
        let gcd = |mut a: u64, mut b: u64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let phi = (1..=d).filter(|&u| gcd(u, d) == 1).count() as u64;
        match (d, swap) {
            (1, true) => 4,
            (1, false) => 2,
            (2, true) => 16,
            (2, false) => 8,
            (_, true) => 8 * phi * d * d,
            (_, false) => 4 * phi * d * d,
        }
    }

    pub fn cube(mut self, cube: Cube) -> Spec {
        self.cube = Some(cube);
        self
    }

    /// The labels at every root: the cube's diagonals, or none.
    pub fn root(&self) -> Labels {
        let mut labels = [[NONE; 64]; 2];
        for &(family, index, label) in self.cube.iter().flat_map(|cube| &cube.diagonals) {
            labels[usize::from(family)][usize::from(index)] = label;
        }
        labels
    }

    pub fn weights(mut self, weights: &[(u64, u64)]) -> Spec {
        self.weights = weights.to_vec();
        self
    }

    pub fn paired(mut self, paired: &[(u64, u64)]) -> Spec {
        self.paired = paired.to_vec();
        self
    }

    pub fn cells_only(mut self) -> Spec {
        self.sums = false;
        self
    }

    pub fn rows(mut self, lo: u64, hi: u64) -> Spec {
        self.lo = lo;
        self.hi = hi;
        self
    }

    pub fn header(&self) -> String {
        let list = |pairs: &[(u64, u64)]| {
            let pairs: Vec<String> = pairs.iter().map(|(p, q)| format!("{p}:{q}")).collect();
            pairs.join(" ")
        };
        let paired = if self.paired.is_empty() {
            String::new()
        } else {
            format!("paired {}\n", list(&self.paired))
        };
        let cube = match &self.cube {
            Some(cube) => format!("{}\n", cube.line()),
            None => String::new(),
        };
        format!(
            "pq-search-certificate 1\nboard {} {}\narmies {} {}\nsymmetry {}\nweights {}\n{paired}rows {} {}\n{cube}begin\n",
            if self.torus { "torus" } else { "square" },
            self.side,
            self.white,
            self.black,
            self.order(),
            list(&self.weights),
            self.lo,
            self.hi
        )
    }
}

/// The labels of a path: `labels[f][i]` is NONE, WHITE or BLACK.
pub type Labels = [[u8; 64]; 2];

/// A leaf as written, with what is needed to judge any rule there.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub tree: usize,
    pub at: usize,
    pub s: u32,
    pub t: u32,
    pub labels: Labels,
}

/// A certificate as the reference writer made it, kept in parts for tampering.
#[derive(Clone, Debug)]
pub struct Cert {
    pub spec: Spec,
    pub pairs: Vec<(u32, u32)>,
    pub trees: Vec<Vec<u8>>,
    pub leaves: Vec<Leaf>,
}

impl Cert {
    pub fn nodes(&self) -> usize {
        self.trees.iter().map(Vec::len).sum()
    }

    pub fn body(&self) -> Vec<u8> {
        self.trees.concat()
    }

    /// Header, body, end byte and trailer with the given counts.
    pub fn assemble(header: &str, trees: &[Vec<u8>], trailer: &str) -> Vec<u8> {
        let mut bytes = header.as_bytes().to_vec();
        for tree in trees {
            bytes.extend_from_slice(tree);
        }
        bytes.push(END);
        bytes.extend_from_slice(trailer.as_bytes());
        bytes
    }

    pub fn trailer(&self) -> String {
        format!("end {} {}\n", self.trees.len(), self.nodes())
    }

    pub fn bytes(&self) -> Vec<u8> {
        Cert::assemble(&self.spec.header(), &self.trees, &self.trailer())
    }

    /// The bytes with the trees replaced and the trailer recounted, as a writer that made
    /// those trees would write them.
    pub fn with_trees(&self, trees: &[Vec<u8>]) -> Vec<u8> {
        let nodes: usize = trees.iter().map(Vec::len).sum();
        Cert::assemble(
            &self.spec.header(),
            trees,
            &format!("end {} {nodes}\n", trees.len()),
        )
    }
}

/// Where the subtree starting at `start` of a preorder tree ends.
pub fn subtree_end(tree: &[u8], start: usize) -> usize {
    let mut open = 1;
    let mut at = start;
    while open > 0 {
        if tree[at] < 0x80 {
            open += 1;
        } else {
            open -= 1;
        }
        at += 1;
    }
    at
}

fn reverse(side: u32, set: u32) -> u32 {
    (0..side)
        .filter(|r| set >> r & 1 == 1)
        .map(|r| 1 << (side - 1 - r))
        .sum()
}

/// The diagonals of family 0 and 1 through cell `(r, c)`: `r + c` and `r − c + d − 1` on the
/// square, `(r + c) mod d` and `(r − c) mod d` on the torus.
pub fn on(side: u32, torus: bool, r: u32, c: u32) -> [usize; 2] {
    if torus {
        [((r + c) % side) as usize, ((r + side - c) % side) as usize]
    } else {
        [(r + c) as usize, (r + side - 1 - c) as usize]
    }
}

/// The orbit of `(S, T)` under the torus's group of T2, closed under its generators: the
/// translation of the rows by one, of the columns by one, the multiplication of rows and
/// columns by each unit `u`, the negation of the columns (`v = −u`), the transposition and,
/// with `swap`, the colour swap. Every word `(u·X + a, ±u·Y + b)`, transposed or not, is a
/// product of these, and each of these is such a word.
pub fn torus_orbit(side: u32, swap: bool, pair: (u32, u32)) -> BTreeSet<(u32, u32)> {
    let full = ((1u64 << side) - 1) as u32;
    let map = |set: u32, f: &dyn Fn(u32) -> u32| {
        (0..side)
            .filter(|r| set >> r & 1 == 1)
            .fold(0, |image, r| image | 1 << f(r))
    };
    let gcd = |mut a: u32, mut b: u32| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let units: Vec<u32> = (1..=side).filter(|&u| gcd(u, side) == 1).collect();
    let mut seen = BTreeSet::from([pair]);
    let mut todo = vec![pair];
    while let Some((s, t)) = todo.pop() {
        let up = |set| map(set, &|r| (r + 1) % side);
        let mut images = vec![
            (up(s), t),
            (s, up(t)),
            (s, map(t, &|c| (side - c) % side)),
            (t, s),
        ];
        for &u in &units {
            images.push((map(s, &|r| u * r % side), map(t, &|c| u * c % side)));
        }
        if swap {
            images.push((!s & full, !t & full));
        }
        for image in images {
            if seen.insert(image) {
                todo.push(image);
            }
        }
    }
    seen
}

/// The least pair of each orbit of the torus's group, each orbit found once.
pub fn torus_least(side: u32, swap: bool) -> BTreeSet<(u32, u32)> {
    let mut seen = BTreeSet::new();
    let mut least = BTreeSet::new();
    for s in 0..1u32 << side {
        for t in 0..1u32 << side {
            if !seen.contains(&(s, t)) {
                let orbit = torus_orbit(side, swap, (s, t));
                least.insert(*orbit.first().unwrap());
                seen.extend(orbit);
            }
        }
    }
    least
}

/// The orbit of `(S, T)`: everything reached from it by the generators of the group.
pub fn orbit(side: u32, swap: bool, pair: (u32, u32)) -> BTreeSet<(u32, u32)> {
    let full = ((1u64 << side) - 1) as u32;
    let mut seen = BTreeSet::from([pair]);
    let mut todo = vec![pair];
    while let Some((s, t)) = todo.pop() {
        let mut images = vec![(reverse(side, s), t), (s, reverse(side, t)), (t, s)];
        if swap {
            images.push((!s & full, !t & full));
        }
        for image in images {
            if seen.insert(image) {
                todo.push(image);
            }
        }
    }
    seen
}

/// The searched pairs of the specification, straight from the definition.
pub fn searched(spec: &Spec) -> Vec<(u32, u32)> {
    let d = u64::from(spec.side);
    let swap = spec.white == spec.black;
    let torus_least = spec.torus.then(|| torus_least(spec.side, swap));
    let mut pairs = Vec::new();
    for s in spec.lo..spec.hi {
        for t in 0..1u64 << spec.side {
            let (s, t) = (s as u32, t as u32);
            if spec.cube.as_ref().is_some_and(|cube| !cube.agrees(s, t)) {
                continue;
            }
            let (rows, columns) = (u64::from(s.count_ones()), u64::from(t.count_ones()));
            if rows * columns < spec.white || (d - rows) * (d - columns) < spec.black {
                continue;
            }
            let least = match &torus_least {
                Some(least) => least.contains(&(s, t)),
                None => orbit(spec.side, swap, (s, t))
                    .iter()
                    .all(|&image| (s, t) <= image),
            };
            if least {
                pairs.push((s, t));
            }
        }
    }
    pairs
}

/// Live white and live black cells on each diagonal (`[family][index]`), from the cells.
pub fn live(spec: &Spec, s: u32, t: u32, labels: &Labels) -> [[[u64; 64]; 2]; 2] {
    let side = spec.side;
    let mut counts = [[[0; 64]; 2]; 2];
    for r in 0..side {
        for c in 0..side {
            let diagonals = spec.on(r, c);
            let on = |label| {
                diagonals
                    .iter()
                    .enumerate()
                    .any(|(f, &i)| labels[f][i] == label)
            };
            let (in_s, in_t) = (s >> r & 1 == 1, t >> c & 1 == 1);
            if in_s && in_t && !on(BLACK) {
                for f in 0..2 {
                    counts[0][f][diagonals[f]] += 1;
                }
            }
            if !in_s && !in_t && !on(WHITE) {
                for f in 0..2 {
                    counts[1][f][diagonals[f]] += 1;
                }
            }
        }
    }
    counts
}

/// Whether the leaf byte's rule holds (false for a byte that is no leaf or a missing weight).
pub fn holds(spec: &Spec, s: u32, t: u32, labels: &Labels, byte: u8) -> bool {
    let counts = live(spec, s, t, labels);
    // Each live cell is on exactly one diagonal of family 0.
    let total = |colour: usize| counts[colour][0].iter().sum::<u64>();
    match byte {
        CELLS_WHITE => total(0) < spec.white,
        CELLS_BLACK => total(1) < spec.black,
        0xC0..=0xCF => {
            let (family, k) = (usize::from(byte >> 3 & 1), usize::from(byte & 7));
            let Some(&(p, q)) = spec.weights.get(k) else {
                return false;
            };
            let sum: u64 = (0..64)
                .map(|i| (p * counts[0][family][i]).max(q * counts[1][family][i]))
                .sum();
            sum < p * spec.white + q * spec.black
        }
        0xD0..=0xD7 => spec
            .paired
            .get(usize::from(byte & 7))
            .is_some_and(|&(p, q)| {
                let lemma = Lemma5::new(spec, s, t, labels, p, q);
                lemma.minima + lemma.max_flow() > lemma.room
            }),
        _ => false,
    }
}

/// Whether the writer cuts with the leaf byte: as [`holds`], except that paired cells are
/// decided with the greedy flow, as the engine's are.
pub fn cuts(spec: &Spec, s: u32, t: u32, labels: &Labels, byte: u8) -> bool {
    match byte {
        0xD0..=0xD7 => spec
            .paired
            .get(usize::from(byte & 7))
            .is_some_and(|&(p, q)| {
                let lemma = Lemma5::new(spec, s, t, labels, p, q);
                lemma.minima + lemma.greedy_flow() > lemma.room
            }),
        _ => holds(spec, s, t, labels, byte),
    }
}

/// The live white and the live black cells `(r, c)` of the square board, from the definition.
pub fn live_cells(side: u32, s: u32, t: u32, labels: &Labels) -> [Vec<(u32, u32)>; 2] {
    cells_on(side, false, s, t, labels)
}

/// The live white and the live black cells `(r, c)` of the square board or the torus.
pub fn cells_on(side: u32, torus: bool, s: u32, t: u32, labels: &Labels) -> [Vec<(u32, u32)>; 2] {
    let mut cells = [Vec::new(), Vec::new()];
    for r in 0..side {
        for c in 0..side {
            let [zero, one] = on(side, torus, r, c);
            let on = [labels[0][zero], labels[1][one]];
            let (in_s, in_t) = (s >> r & 1 == 1, t >> c & 1 == 1);
            if in_s && in_t && !on.contains(&BLACK) {
                cells[0].push((r, c));
            }
            if !in_s && !in_t && !on.contains(&WHITE) {
                cells[1].push((r, c));
            }
        }
    }
    cells
}

/// Lemma 5 at a node, every number as the specification defines it.
#[derive(Clone, Debug)]
pub struct Lemma5 {
    pub side: u32,
    pub p: i128,
    pub q: i128,
    /// The live white and the live black cells, in increasing row, then column.
    pub cells: [Vec<(u32, u32)>; 2],
    /// `Σ m_u` over the diagonals of family 0.
    pub minima: i128,
    /// `p·(W − w) + q·(B − b)`.
    pub room: i128,
    /// `out(u)` and `in(u)` by index `u`.
    pub out: Vec<i128>,
    pub into: Vec<i128>,
}

impl Lemma5 {
    pub fn new(spec: &Spec, s: u32, t: u32, labels: &Labels, p: u64, q: u64) -> Lemma5 {
        let side = spec.side;
        let cells = live_cells(side, s, t, labels);
        let (p, q) = (i128::from(p), i128::from(q));
        let diagonals = 2 * side as usize - 1;
        let (mut out, mut into, mut minima) = (vec![0; diagonals], vec![0; diagonals], 0);
        for u in 0..diagonals {
            let on = |colour: usize| {
                cells[colour]
                    .iter()
                    .filter(|&&(r, c)| (r + c) as usize == u)
                    .count() as i128
            };
            let (white, black) = (p * on(0), q * on(1));
            let m = white.min(black);
            minima += m;
            out[u] = white - m;
            into[u] = black - m;
        }
        let room = p * (cells[0].len() as i128 - i128::from(spec.white))
            + q * (cells[1].len() as i128 - i128::from(spec.black));
        Lemma5 {
            side,
            p,
            q,
            cells,
            minima,
            room,
            out,
            into,
        }
    }

    fn u((r, c): (u32, u32)) -> usize {
        (r + c) as usize
    }

    fn v(&self, (r, c): (u32, u32)) -> usize {
        (r + self.side - 1 - c) as usize
    }

    /// The engine's greedy flow, as the specification states it.
    pub fn greedy_flow(&self) -> i128 {
        let (mut out, mut into) = (self.out.clone(), self.into.clone());
        let mut flow = 0;
        for v in 0..2 * self.side as usize - 1 {
            // The cells are in increasing row.
            let whites: Vec<usize> = self.cells[0]
                .iter()
                .filter(|&&cell| self.v(cell) == v && out[Self::u(cell)] > 0)
                .map(|&cell| Self::u(cell))
                .collect();
            let blacks: Vec<usize> = self.cells[1]
                .iter()
                .filter(|&&cell| self.v(cell) == v && into[Self::u(cell)] > 0)
                .map(|&cell| Self::u(cell))
                .collect();
            for (u, w) in whites.into_iter().zip(blacks) {
                let value = self.p.min(self.q).min(out[u]).min(into[w]);
                out[u] -= value;
                into[w] -= value;
                flow += value;
            }
        }
        flow
    }

    /// A maximum flow in the network of Lemma 5, built as the lemma says (an arc for every
    /// live cell, whatever its diagonal's excess), by shortest augmenting paths on a matrix.
    pub fn max_flow(&self) -> i128 {
        let n = 2 * self.side as usize - 1;
        let nodes = 2 + 3 * n;
        let (source, sink) = (0, 1);
        let plus = |u: usize| 2 + u;
        let middle = |v: usize| 2 + n + v;
        let minus = |u: usize| 2 + 2 * n + u;
        let mut capacity = vec![vec![0i128; nodes]; nodes];
        for u in 0..n {
            capacity[source][plus(u)] += self.out[u];
            capacity[minus(u)][sink] += self.into[u];
        }
        for &cell in &self.cells[0] {
            capacity[plus(Self::u(cell))][middle(self.v(cell))] += self.p;
        }
        for &cell in &self.cells[1] {
            capacity[middle(self.v(cell))][minus(Self::u(cell))] += self.q;
        }
        let mut flow = 0;
        loop {
            let mut parent = vec![usize::MAX; nodes];
            parent[source] = source;
            let mut queue = std::collections::VecDeque::from([source]);
            while let Some(node) = queue.pop_front() {
                for next in 0..nodes {
                    if parent[next] == usize::MAX && capacity[node][next] > 0 {
                        parent[next] = node;
                        queue.push_back(next);
                    }
                }
            }
            if parent[sink] == usize::MAX {
                return flow;
            }
            let mut bottleneck = i128::MAX;
            let mut node = sink;
            while node != source {
                bottleneck = bottleneck.min(capacity[parent[node]][node]);
                node = parent[node];
            }
            let mut node = sink;
            while node != source {
                capacity[parent[node]][node] -= bottleneck;
                capacity[node][parent[node]] += bottleneck;
                node = parent[node];
            }
            flow += bottleneck;
        }
    }
}

/// A node where no rule holds and no diagonal holds live cells of both colours: labelling
/// the rest by the colour they hold gives a solution.
#[derive(Clone, Debug)]
pub struct Solution {
    pub s: u32,
    pub t: u32,
}

/// The reference writer: the searched pairs in order, each refuted from the root's labels
/// (the cube's diagonals, if any) by branching (W child first) on the unlabelled diagonal with the most live cells among those holding both
/// colours, and a leaf wherever a rule holds (cells white, cells black, then the family sums,
/// family 0 then 1, weights in order; then paired cells in the order of the `paired` line,
/// decided by the greedy flow). At a solution node it writes `at_solution` if given
/// (a false leaf, for the tests of SAT steps) or gives up.
pub fn write(spec: &Spec, at_solution: Option<u8>) -> Result<Cert, Solution> {
    let mut cert = Cert {
        spec: spec.clone(),
        pairs: searched(spec),
        trees: Vec::new(),
        leaves: Vec::new(),
    };
    for (number, &(s, t)) in cert.pairs.iter().enumerate() {
        let mut tree = Vec::new();
        let mut labels = spec.root();
        let mut leaves = Vec::new();
        refute(
            spec,
            s,
            t,
            &mut labels,
            &mut tree,
            &mut leaves,
            number,
            at_solution,
        )?;
        cert.trees.push(tree);
        cert.leaves.extend(leaves);
    }
    Ok(cert)
}

#[allow(clippy::too_many_arguments)]
fn refute(
    spec: &Spec,
    s: u32,
    t: u32,
    labels: &mut Labels,
    tree: &mut Vec<u8>,
    leaves: &mut Vec<Leaf>,
    number: usize,
    at_solution: Option<u8>,
) -> Result<(), Solution> {
    let mut rules = vec![CELLS_WHITE, CELLS_BLACK];
    for family in 0..2 * u8::from(spec.sums) {
        for k in 0..spec.weights.len() as u8 {
            rules.push(family_sum(family, k));
        }
    }
    for k in 0..spec.paired.len() as u8 {
        rules.push(paired(k));
    }
    let leaf = |byte: u8, tree: &mut Vec<u8>, leaves: &mut Vec<Leaf>, labels: &Labels| {
        if spec.leaves {
            leaves.push(Leaf {
                tree: number,
                at: tree.len(),
                s,
                t,
                labels: *labels,
            });
        }
        tree.push(byte);
    };
    if let Some(&rule) = rules.iter().find(|&&rule| cuts(spec, s, t, labels, rule)) {
        leaf(rule, tree, leaves, labels);
        return Ok(());
    }
    let counts = live(spec, s, t, labels);
    let mut best: Option<(u64, usize, usize)> = None;
    for family in 0..2 {
        for i in 0..spec.diagonals() {
            let (white, black) = (counts[0][family][i], counts[1][family][i]);
            if labels[family][i] == NONE
                && white > 0
                && black > 0
                && best.is_none_or(|(most, _, _)| white + black > most)
            {
                best = Some((white + black, family, i));
            }
        }
    }
    let Some((_, family, i)) = best else {
        return match at_solution {
            Some(byte) => {
                leaf(byte, tree, leaves, labels);
                Ok(())
            }
            None => Err(Solution { s, t }),
        };
    };
    tree.push(inner(family as u8, i as u8));
    for label in [WHITE, BLACK] {
        labels[family][i] = label;
        refute(spec, s, t, labels, tree, leaves, number, at_solution)?;
    }
    labels[family][i] = NONE;
    Ok(())
}

/// Brute force over placements: whether `white` white queens can stand on the board with
/// at least `black` cells on none of their lines (where the black queens then go).
pub fn fits(side: u32, white: u64, black: u64) -> bool {
    fits_on(side, false, white, black)
}

/// [`fits`] on the board or, with `torus`, on the torus, where a queen attacks along its row,
/// its column and the cells with the same `(r + c) mod d` or the same `(r − c) mod d` (T1).
pub fn fits_on(side: u32, torus: bool, white: u64, black: u64) -> bool {
    let cells = (side * side) as usize;
    let lines: Vec<u64> = (0..cells)
        .map(|a| {
            let (r, c) = ((a as u32) / side, (a as u32) % side);
            (0..cells)
                .filter(|&b| {
                    let (r2, c2) = ((b as u32) / side, (b as u32) % side);
                    let wrapped = torus
                        && ((r + c) % side == (r2 + c2) % side
                            || (r + side - c) % side == (r2 + side - c2) % side);
                    r == r2 || c == c2 || r + c == r2 + c2 || r + c2 == r2 + c || wrapped
                })
                .map(|b| 1u64 << b)
                .sum()
        })
        .collect();
    let all = if cells == 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    };
    fn place(lines: &[u64], all: u64, from: usize, left: u64, attacked: u64, black: u64) -> bool {
        if u64::from((all & !attacked).count_ones()) < black {
            return false;
        }
        if left == 0 {
            return true;
        }
        (from..lines.len()).any(|a| place(lines, all, a + 1, left - 1, attacked | lines[a], black))
    }
    white as usize <= cells && place(&lines, all, 0, white, 0, black)
}

/// Brute force over labellings: whether some labelling that agrees with the spec's cube (if
/// any) and has a searched pair (least, in the range, passing the product bound) has at least
/// `white` white and `black` black cells. Every labelling of the diagonals is tried, so only
/// for small boards (each pair costs `2^(4d − 2)` labellings at most).
pub fn labelling_fits(spec: &Spec) -> bool {
    let diagonals = spec.diagonals();
    let fixed = spec.root();
    let free: Vec<(usize, usize)> = (0..2)
        .flat_map(|f| (0..diagonals).map(move |i| (f, i)))
        .filter(|&(f, i)| fixed[f][i] == NONE)
        .collect();
    searched(spec).into_iter().any(|(s, t)| {
        (0..1u64 << free.len()).any(|choice| {
            let mut labels = fixed;
            for (k, &(f, i)) in free.iter().enumerate() {
                labels[f][i] = if choice >> k & 1 == 1 { BLACK } else { WHITE };
            }
            let (mut white, mut black) = (0, 0);
            for r in 0..spec.side {
                for c in 0..spec.side {
                    let [zero, one] = spec.on(r, c);
                    let on = [labels[0][zero], labels[1][one]];
                    let (in_s, in_t) = (s >> r & 1 == 1, t >> c & 1 == 1);
                    white += u64::from(in_s && in_t && on == [WHITE, WHITE]);
                    black += u64::from(!in_s && !in_t && on == [BLACK, BLACK]);
                }
            }
            white >= spec.white && black >= spec.black
        })
    })
}

/// A second, naive judge of a body (everything after the header): the trees of the searched
/// pairs parsed one by one with every rule judged by [`holds`], then the end byte and the
/// exact trailer. The tests compare the checker's verdicts with it on mutated bodies.
/// `pairs` are the searched pairs of `spec` (from [`searched`], computed once by the caller).
pub fn naive_accepts(spec: &Spec, pairs: &[(u32, u32)], rest: &[u8]) -> bool {
    fn tree(spec: &Spec, s: u32, t: u32, rest: &[u8], at: &mut usize, labels: &mut Labels) -> bool {
        let Some(&byte) = rest.get(*at) else {
            return false;
        };
        *at += 1;
        if byte < 0x80 {
            let (family, i) = (usize::from(byte >> 6), usize::from(byte & 0x3F));
            if i >= spec.diagonals() || labels[family][i] != NONE {
                return false;
            }
            for label in [WHITE, BLACK] {
                labels[family][i] = label;
                if !tree(spec, s, t, rest, at, labels) {
                    return false;
                }
            }
            labels[family][i] = NONE;
            true
        } else {
            holds(spec, s, t, labels, byte)
        }
    }
    let mut at = 0;
    for &(s, t) in pairs {
        if !tree(spec, s, t, rest, &mut at, &mut spec.root()) {
            return false;
        }
    }
    let nodes = at;
    rest.get(at) == Some(&END)
        && rest[at + 1..] == *format!("end {} {nodes}\n", pairs.len()).as_bytes()
}

/// A small deterministic generator of numbers for the mutation tests.
pub struct Random(u64);

impl Random {
    pub fn new(seed: u64) -> Random {
        Random(seed | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
