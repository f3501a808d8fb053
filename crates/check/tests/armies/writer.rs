//! A reference writer of k-army certificates for the tests, written from section 8 of the
//! specification and as plainly as possible: every count recomputed from the cells at every
//! node, leastness tested on all `8·k!` images built one by one, the row colourings found by
//! filtering every code. It shares no code with the checker. It cuts by the first rule that
//! holds, in the order of §A3 and §A5, and may be told to leave out the orbit cuts, the
//! column bounds or the "not least" leaves, so that the trees take other shapes. A brute force
//! over placements of queens, sharing nothing with either, judges it.
// Plain index loops over cells and diagonals read as the spec's sums; counting bytes with
// a filter is plain too, and the spec's switches are booleans.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::needless_range_loop,
    clippy::naive_bytecount,
    clippy::struct_excessive_bools
)]

/// A diagonal without a label, a column without a colour.
pub const NONE: u8 = u8::MAX;

/// The labels of the diagonals on a path: `labels[f][i]` an army or NONE.
pub type Labels = [[u8; 32]; 2];

pub const COLUMN_INNER: u8 = 0x88;
pub const COLUMNS_NEEDED: u8 = 0x89;
pub const NOT_LEAST: u8 = 0x8A;
pub const TRANSPOSITION: u8 = 0x8B;
pub const QUARTER_TURN: u8 = 0x8C;
pub const MIRROR: u8 = 0x8D;
pub const END: u8 = 0xFF;

pub fn cells(army: u8) -> u8 {
    0x80 | army
}

pub fn cap_sum(family: u8, weight: u8) -> u8 {
    0xA0 | family << 4 | weight
}

pub fn fixed_columns(family: u8, weight: u8) -> u8 {
    0xC0 | family << 4 | weight
}

pub fn inner(family: u8, index: u8) -> u8 {
    family << 6 | index
}

/// The engine's weights (§A3), as the header writes them.
pub fn engine_weights(armies: usize) -> Vec<Vec<u64>> {
    let line = if armies == 3 {
        "1:1:1 2:1:1 1:2:1 1:1:2 0:1:1 1:0:1 1:1:0"
    } else {
        "1:1:1:1 0:1:1:1 1:0:1:1 0:0:1:1 1:1:0:1 0:1:0:1 1:0:0:1 1:1:1:0 0:1:1:0 1:0:1:0 1:1:0:0"
    };
    line.split(' ')
        .map(|weight| weight.split(':').map(|w| w.parse().unwrap()).collect())
        .collect()
}

/// What a certificate is to claim, and how its writer searches.
#[derive(Clone, Debug)]
pub struct Spec {
    pub side: usize,
    pub armies: usize,
    pub size: u64,
    pub weights: Vec<Vec<u64>>,
    pub lo: u64,
    pub hi: u64,
    /// Whether children are cut by the orbit tests (T), (Q), (M).
    pub orbit: bool,
    /// Whether column nodes are cut by CN, CS, FC.
    pub bounds: bool,
    /// Whether pairs that are not least get 0x8A.
    pub least: bool,
    /// Whether diagonal nodes are cut by the cap sums (else only by A_j).
    pub sums: bool,
}

impl Spec {
    pub fn new(side: usize, armies: usize, size: u64) -> Spec {
        Spec {
            side,
            armies,
            size,
            weights: engine_weights(armies),
            lo: 0,
            hi: codes(side, armies),
            orbit: true,
            bounds: true,
            least: true,
            sums: true,
        }
    }

    pub fn rows(mut self, lo: u64, hi: u64) -> Spec {
        (self.lo, self.hi) = (lo, hi);
        self
    }

    pub fn weights(mut self, line: &str) -> Spec {
        self.weights = line
            .split(' ')
            .map(|weight| weight.split(':').map(|w| w.parse().unwrap()).collect())
            .collect();
        self
    }

    pub fn header(&self) -> String {
        let sizes: Vec<String> = (0..self.armies).map(|_| self.size.to_string()).collect();
        let weights: Vec<String> = self
            .weights
            .iter()
            .map(|weight| {
                let parts: Vec<String> = weight.iter().map(u64::to_string).collect();
                parts.join(":")
            })
            .collect();
        let order = 8 * (1..=self.armies as u64).product::<u64>();
        format!(
            "pq-armies-certificate 1\nboard square {}\narmies {}\nsymmetry {order}\nweights {}\n\
             rows {} {}\nbegin\n",
            self.side,
            sizes.join(" "),
            weights.join(" "),
            self.lo,
            self.hi
        )
    }
}

/// `k^D`.
pub fn codes(side: usize, armies: usize) -> u64 {
    (armies as u64).pow(side as u32)
}

/// The ends-inward order: 0, D − 1, 1, D − 2, …
pub fn order(side: usize) -> Vec<usize> {
    let mut o = Vec::new();
    let (mut low, mut high) = (0, side);
    while o.len() < side {
        o.push(low);
        low += 1;
        if o.len() < side {
            high -= 1;
            o.push(high);
        }
    }
    o
}

/// `ν`: letters renamed in order of first appearance.
pub fn nu(sequence: &[u8]) -> Vec<u8> {
    let mut seen: Vec<u8> = Vec::new();
    sequence
        .iter()
        .map(|letter| {
            if let Some(name) = seen.iter().position(|s| s == letter) {
                name as u8
            } else {
                seen.push(*letter);
                seen.len() as u8 - 1
            }
        })
        .collect()
}

/// `x^o`.
pub fn inward(line: &[u8]) -> Vec<u8> {
    order(line.len()).iter().map(|&i| line[i]).collect()
}

/// `ρx`.
pub fn reversed(line: &[u8]) -> Vec<u8> {
    line.iter().rev().copied().collect()
}

/// Every permutation of `0 … k−1`.
pub fn permutations(armies: usize) -> Vec<Vec<u8>> {
    if armies == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for shorter in permutations(armies - 1) {
        for place in 0..armies {
            let mut longer = shorter.clone();
            longer.insert(place, armies as u8 - 1);
            all.push(longer);
        }
    }
    all
}

/// The `8·k!` images of a pair, one by one: `(πρ^x r, πρ^y c)` and `(πρ^y c, πρ^x r)`.
pub fn images(rows: &[u8], columns: &[u8], armies: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut all = Vec::new();
    for pi in permutations(armies) {
        let rename =
            |line: &[u8]| -> Vec<u8> { line.iter().map(|&a| pi[usize::from(a)]).collect() };
        for x in [false, true] {
            for y in [false, true] {
                let r = if x { reversed(rows) } else { rows.to_vec() };
                let c = if y {
                    reversed(columns)
                } else {
                    columns.to_vec()
                };
                all.push((rename(&r), rename(&c)));
                all.push((rename(&c), rename(&r)));
            }
        }
    }
    all
}

/// Whether `(r, c)` is `≤` each of its images, comparing `(r^o, c^o)` lexicographically.
pub fn least(rows: &[u8], columns: &[u8], armies: usize) -> bool {
    let own = (inward(rows), inward(columns));
    images(rows, columns, armies)
        .iter()
        .all(|(r, c)| own <= (inward(r), inward(c)))
}

/// Rules 1–3 of §A2.1, from the definitions.
pub fn kept(rows: &[u8], armies: usize, size: u64) -> bool {
    let side = rows.len();
    let count = |j: u8| rows.iter().filter(|&&a| a == j).count() as u64;
    if (0..armies as u8).any(|j| count(j) == 0) {
        return false;
    }
    let columns: u64 = (0..armies as u8).map(|j| size.div_ceil(count(j))).sum();
    if columns > side as u64 {
        return false;
    }
    inward(rows) <= nu(&inward(&reversed(rows)))
}

/// The row colouring of a code, if the code's sequence is a restricted-growth string.
pub fn colouring(code: u64, side: usize, armies: usize) -> Option<Vec<u8>> {
    let mut s = vec![0u8; side];
    let mut rest = code;
    for t in (0..side).rev() {
        s[t] = (rest % armies as u64) as u8;
        rest /= armies as u64;
    }
    if nu(&s) != s {
        return None;
    }
    let mut rows = vec![0; side];
    for (t, &row) in order(side).iter().enumerate() {
        rows[row] = s[t];
    }
    Some(rows)
}

/// The kept row colourings with codes in the spec's range, in code order.
pub fn kept_rows(spec: &Spec) -> Vec<(u64, Vec<u8>)> {
    (spec.lo..spec.hi)
        .filter_map(|code| {
            let rows = colouring(code, spec.side, spec.armies)?;
            kept(&rows, spec.armies, spec.size).then_some((code, rows))
        })
        .collect()
}

/// The first of (T), (Q), (M) that the child's prefix fails (`columns` with `o_0 … o_t`
/// coloured, `t = depth`), from the definitions of §A2.2.
pub fn orbit_cut(rows: &[u8], columns: &[u8], depth: usize) -> Option<u8> {
    let side = rows.len();
    let o = order(side);
    let r = inward(rows);
    let u: Vec<u8> = (0..=depth).map(|s| columns[o[s]]).collect();
    let v: Vec<u8> = (0..side).map(|s| columns[side - 1 - o[s]]).collect();
    let known: Vec<u8> = v.iter().copied().take_while(|&a| a != NONE).collect();
    if nu(&u) < r[..=depth].to_vec() {
        return Some(TRANSPOSITION);
    }
    if !known.is_empty() && nu(&known) < r[..known.len()].to_vec() {
        return Some(QUARTER_TURN);
    }
    if depth % 2 == 1 && known.len() > depth && v[..=depth] < u[..] {
        return Some(MIRROR);
    }
    None
}

/// Whether the one named orbit test fails for the child's prefix.
pub fn orbit_test(byte: u8, rows: &[u8], columns: &[u8], depth: usize) -> bool {
    let side = rows.len();
    let o = order(side);
    let r = inward(rows);
    let u: Vec<u8> = (0..=depth).map(|s| columns[o[s]]).collect();
    let v: Vec<u8> = (0..side).map(|s| columns[side - 1 - o[s]]).collect();
    let known: Vec<u8> = v.iter().copied().take_while(|&a| a != NONE).collect();
    match byte {
        TRANSPOSITION => nu(&u) < r[..=depth].to_vec(),
        QUARTER_TURN => !known.is_empty() && nu(&known) < r[..known.len()].to_vec(),
        MIRROR => depth % 2 == 1 && known.len() > depth && v[..=depth] < u[..],
        _ => false,
    }
}

/// The diagonal of family `f` through cell `(x, y)`.
pub fn diagonal(side: usize, family: usize, x: usize, y: usize) -> usize {
    if family == 0 {
        x + y
    } else {
        x + side - 1 - y
    }
}

/// The column bounds of §A3 at a column node (`columns` with its coloured columns): the
/// first that cuts, in the order CN, then for each weight CS and FC of family 0, then 1.
pub fn column_cut(spec: &Spec, rows: &[u8], columns: &[u8]) -> Option<u8> {
    column_rules(spec, rows, columns).into_iter().next()
}

/// Every column bound that cuts the node.
pub fn column_rules(spec: &Spec, rows: &[u8], columns: &[u8]) -> Vec<u8> {
    let (side, armies, m) = (spec.side, spec.armies, spec.size);
    let free = columns.iter().filter(|&&a| a == NONE).count() as u64;
    let r_count = |j: usize| rows.iter().filter(|&&a| usize::from(a) == j).count() as u64;
    let c_count = |j: usize| columns.iter().filter(|&&a| usize::from(a) == j).count() as u64;
    let need: Vec<u64> = (0..armies)
        .map(|j| m.div_ceil(r_count(j)).saturating_sub(c_count(j)))
        .collect();
    let needed: u64 = need.iter().sum();
    if needed > free {
        return vec![COLUMNS_NEEDED];
    }
    let spare = free - needed;
    let mut pot = vec![[[0u64; 32]; 2]; armies];
    let mut fixed = vec![[[0u64; 32]; 2]; armies];
    for x in 0..side {
        for y in 0..side {
            let j = usize::from(rows[x]);
            for f in 0..2 {
                let i = diagonal(side, f, x, y);
                if columns[y] == rows[x] {
                    fixed[j][f][i] += 1;
                }
                if columns[y] == rows[x] || columns[y] == NONE {
                    pot[j][f][i] += 1;
                }
            }
        }
    }
    let mut rules = Vec::new();
    for (b, w) in spec.weights.iter().enumerate() {
        let want = m * w.iter().sum::<u64>();
        for f in 0..2 {
            let mut cap = 0;
            let mut fix = 0;
            for i in 0..2 * side - 1 {
                cap += (0..armies)
                    .map(|j| w[j] * pot[j][f][i].min(fixed[j][f][i] + need[j] + spare))
                    .max()
                    .unwrap();
                fix += (0..armies).map(|j| w[j] * fixed[j][f][i]).max().unwrap();
            }
            fix += (0..armies)
                .map(|j| need[j] * w[j] * r_count(j))
                .sum::<u64>();
            fix += spare * (0..armies).map(|j| w[j] * r_count(j)).max().unwrap();
            if cap < want {
                rules.push(cap_sum(f as u8, b as u8));
            }
            if fix < want {
                rules.push(fixed_columns(f as u8, b as u8));
            }
        }
    }
    rules
}

/// `ℓ_j(f, i)`: the live cells of each army on each diagonal under `labels`.
pub fn live(spec: &Spec, rows: &[u8], columns: &[u8], labels: &Labels) -> Vec<[[u64; 32]; 2]> {
    let side = spec.side;
    let mut live = vec![[[0u64; 32]; 2]; spec.armies];
    for x in 0..side {
        for y in 0..side {
            let j = rows[x];
            if columns[y] != j {
                continue;
            }
            let d = [diagonal(side, 0, x, y), diagonal(side, 1, x, y)];
            if (0..2).all(|f| labels[f][d[f]] == NONE || labels[f][d[f]] == j) {
                for f in 0..2 {
                    live[usize::from(j)][f][d[f]] += 1;
                }
            }
        }
    }
    live
}

/// Every diagonal rule (A_j, then the cap sums by weight, family 0 then 1) that cuts.
pub fn diagonal_rules(spec: &Spec, rows: &[u8], columns: &[u8], labels: &Labels) -> Vec<u8> {
    let live = live(spec, rows, columns, labels);
    let diagonals = 2 * spec.side - 1;
    let mut rules = Vec::new();
    for (j, live) in live.iter().enumerate() {
        if live[0][..diagonals].iter().sum::<u64>() < spec.size {
            rules.push(cells(j as u8));
        }
    }
    for (b, w) in spec.weights.iter().enumerate() {
        let want = spec.size * w.iter().sum::<u64>();
        for f in 0..2 {
            let sum: u64 = (0..diagonals)
                .map(|i| {
                    (0..spec.armies)
                        .map(|j| w[j] * live[j][f][i])
                        .max()
                        .unwrap()
                })
                .sum();
            if sum < want {
                rules.push(cap_sum(f as u8, b as u8));
            }
        }
    }
    rules
}

/// What a node of a written certificate is, with what it takes to judge any byte there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A column subtree (at depth `D`, a pair node; its diagonal tree's root is also a
    /// `Diagonal` node with no labels).
    Column,
    /// A child entry cut by an orbit byte.
    Cut,
    /// A node of a diagonal tree.
    Diagonal,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub kind: Kind,
    /// The column tree it is in, and its bytes `[start, end)` there.
    pub tree: usize,
    pub start: usize,
    pub end: usize,
    /// The pair nodes in it.
    pub pairs: u64,
    pub rows: Vec<u8>,
    /// The column colouring at the node (for a cut, the child's).
    pub columns: Vec<u8>,
    /// The depth of a column node; for a cut, `t`, the depth of its parent.
    pub depth: usize,
    pub labels: Labels,
    /// The starts of its children's entries or subtrees.
    pub children: Vec<usize>,
}

/// A solution the writer met: a full labelling of the lines.
#[derive(Clone, Debug)]
pub struct Solution {
    pub rows: Vec<u8>,
    pub columns: Vec<u8>,
    pub labels: Labels,
}

impl Solution {
    /// The cells of each army: those whose four lines carry it.
    pub fn cells(&self, armies: usize) -> Vec<Vec<(usize, usize)>> {
        let side = self.rows.len();
        let mut cells = vec![Vec::new(); armies];
        for x in 0..side {
            for y in 0..side {
                let j = self.rows[x];
                if self.columns[y] == j
                    && self.labels[0][diagonal(side, 0, x, y)] == j
                    && self.labels[1][diagonal(side, 1, x, y)] == j
                {
                    cells[usize::from(j)].push((x, y));
                }
            }
        }
        cells
    }
}

/// A certificate as the reference writer made it, kept in parts for tampering.
#[derive(Clone, Debug)]
pub struct Cert {
    pub spec: Spec,
    pub rows: Vec<(u64, Vec<u8>)>,
    pub trees: Vec<Vec<u8>>,
    pub nodes: Vec<Node>,
    pub pairs: u64,
}

impl Cert {
    pub fn body_len(&self) -> usize {
        self.trees.iter().map(Vec::len).sum()
    }

    /// The file: header, trees, end byte, trailer with the counts given.
    pub fn assemble(&self, trees: &[Vec<u8>], rows: u64, pairs: u64) -> Vec<u8> {
        let mut bytes = self.spec.header().into_bytes();
        let body = trees.concat();
        let nodes = body.len();
        bytes.extend(body);
        bytes.push(END);
        bytes.extend(format!("end {rows} {pairs} {nodes}\n").bytes());
        bytes
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.assemble(&self.trees, self.trees.len() as u64, self.pairs)
    }

    /// The file with `node`'s bytes replaced by `with`, which holds `pairs` pair nodes; the
    /// trailer counts the new body.
    pub fn replaced(&self, node: &Node, with: &[u8], pairs: u64) -> Vec<u8> {
        let mut trees = self.trees.clone();
        trees[node.tree].splice(node.start..node.end, with.iter().copied());
        self.assemble(&trees, trees.len() as u64, self.pairs - node.pairs + pairs)
    }

    /// The offset in the file of byte `at` of tree `tree`.
    pub fn offset(&self, tree: usize, at: usize) -> u64 {
        (self.spec.header().len() + self.trees[..tree].iter().map(Vec::len).sum::<usize>() + at)
            as u64
    }
}

struct Writer<'a> {
    spec: &'a Spec,
    o: Vec<usize>,
    tree: usize,
    nodes: Vec<Node>,
    pairs: u64,
    /// A byte to write where a solution is met, instead of stopping.
    at_solution: Option<u8>,
}

impl Writer<'_> {
    fn column(
        &mut self,
        rows: &[u8],
        columns: &mut Vec<u8>,
        depth: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), Solution> {
        let spec = self.spec;
        let (start, pairs) = (out.len(), self.pairs);
        let mut children = Vec::new();
        if depth == spec.side {
            self.pairs += 1;
        }
        let cut = if spec.bounds {
            column_cut(spec, rows, columns)
        } else {
            None
        };
        if let Some(byte) = cut {
            out.push(byte);
        } else if depth == spec.side {
            if spec.least && !least(rows, columns, spec.armies) {
                out.push(NOT_LEAST);
            } else {
                let mut labels = [[NONE; 32]; 2];
                self.diagonal(rows, columns, &mut labels, out)?;
            }
        } else {
            out.push(COLUMN_INNER);
            let column = self.o[depth];
            for j in 0..spec.armies as u8 {
                columns[column] = j;
                children.push(out.len());
                let cut = if spec.orbit {
                    orbit_cut(rows, columns, depth)
                } else {
                    None
                };
                if let Some(byte) = cut {
                    self.nodes.push(Node {
                        kind: Kind::Cut,
                        tree: self.tree,
                        start: out.len(),
                        end: out.len() + 1,
                        pairs: 0,
                        rows: rows.to_vec(),
                        columns: columns.clone(),
                        depth,
                        labels: [[NONE; 32]; 2],
                        children: Vec::new(),
                    });
                    out.push(byte);
                } else {
                    self.column(rows, columns, depth + 1, out)?;
                }
                columns[column] = NONE;
            }
        }
        self.nodes.push(Node {
            kind: Kind::Column,
            tree: self.tree,
            start,
            end: out.len(),
            pairs: self.pairs - pairs,
            rows: rows.to_vec(),
            columns: columns.clone(),
            depth,
            labels: [[NONE; 32]; 2],
            children,
        });
        Ok(())
    }

    fn diagonal(
        &mut self,
        rows: &[u8],
        columns: &[u8],
        labels: &mut Labels,
        out: &mut Vec<u8>,
    ) -> Result<(), Solution> {
        let spec = self.spec;
        let start = out.len();
        let mut children = Vec::new();
        let rules = diagonal_rules(spec, rows, columns, labels);
        let cut = rules.into_iter().find(|&byte| spec.sums || byte < 0xA0);
        if let Some(byte) = cut {
            out.push(byte);
        } else {
            let live = live(spec, rows, columns, labels);
            // The diagonal whose second-largest live count is largest, the first on ties.
            let mut best: Option<(u64, usize, usize)> = None;
            for f in 0..2 {
                for i in 0..2 * spec.side - 1 {
                    let mut counts: Vec<u64> = live.iter().map(|l| l[f][i]).collect();
                    counts.sort_unstable();
                    let second = counts[counts.len() - 2];
                    if second > 0 && best.is_none_or(|(b, _, _)| second > b) {
                        best = Some((second, f, i));
                    }
                }
            }
            match best {
                None => {
                    let mut full = *labels;
                    for f in 0..2 {
                        for i in 0..2 * spec.side - 1 {
                            if full[f][i] == NONE {
                                full[f][i] =
                                    (0..spec.armies).find(|&j| live[j][f][i] > 0).unwrap_or(0)
                                        as u8;
                            }
                        }
                    }
                    match self.at_solution {
                        Some(byte) => out.push(byte),
                        None => {
                            return Err(Solution {
                                rows: rows.to_vec(),
                                columns: columns.to_vec(),
                                labels: full,
                            })
                        }
                    }
                }
                Some((_, f, i)) => {
                    out.push(inner(f as u8, i as u8));
                    let mut armies: Vec<usize> =
                        (0..spec.armies).filter(|&j| live[j][f][i] > 0).collect();
                    armies.sort_by_key(|&j| (std::cmp::Reverse(live[j][f][i]), j));
                    for j in armies {
                        labels[f][i] = j as u8;
                        children.push(out.len());
                        self.diagonal(rows, columns, labels, out)?;
                        labels[f][i] = NONE;
                    }
                }
            }
        }
        self.nodes.push(Node {
            kind: Kind::Diagonal,
            tree: self.tree,
            start,
            end: out.len(),
            pairs: 0,
            rows: rows.to_vec(),
            columns: columns.to_vec(),
            depth: spec.side,
            labels: *labels,
            children,
        });
        Ok(())
    }
}

/// Writes the certificate of `spec`, or returns the solution it meets (with `at_solution`,
/// writes that byte there instead and goes on).
pub fn write(spec: &Spec, at_solution: Option<u8>) -> Result<Cert, Solution> {
    let rows = kept_rows(spec);
    let mut writer = Writer {
        spec,
        o: order(spec.side),
        tree: 0,
        nodes: Vec::new(),
        pairs: 0,
        at_solution,
    };
    let mut trees = Vec::new();
    for (tree, (_, r)) in rows.iter().enumerate() {
        writer.tree = tree;
        let mut out = Vec::new();
        let mut columns = vec![NONE; spec.side];
        writer.column(r, &mut columns, 0, &mut out)?;
        trees.push(out);
    }
    Ok(Cert {
        spec: spec.clone(),
        rows,
        trees,
        nodes: writer.nodes,
        pairs: writer.pairs,
    })
}

/// Whether a leaf byte's rule holds at a node, by the spec: `node` is a column node (at
/// depth `D`, the pair node), a diagonal node below a pair's root, or a cut child entry.
pub fn holds(spec: &Spec, node: &Node, byte: u8) -> bool {
    let (rows, columns) = (&node.rows[..], &node.columns[..]);
    let weight_ok = usize::from(byte & 15) < spec.weights.len();
    match node.kind {
        Kind::Cut => orbit_test(byte, rows, columns, node.depth),
        Kind::Column => {
            let at_pair = node.depth == spec.side;
            let column = column_rules(spec, rows, columns);
            match byte {
                COLUMNS_NEEDED => column.contains(&byte),
                0xC0..=0xDF => weight_ok && column.contains(&byte),
                0xA0..=0xBF if !at_pair => weight_ok && column.contains(&byte),
                NOT_LEAST if at_pair => !least(rows, columns, spec.armies),
                0x80..=0x83 | 0xA0..=0xBF if at_pair => {
                    let labels = [[NONE; 32]; 2];
                    (byte < 0xA0 || weight_ok)
                        && diagonal_rules(spec, rows, columns, &labels).contains(&byte)
                }
                _ => false,
            }
        }
        Kind::Diagonal => match byte {
            0x80..=0x83 | 0xA0..=0xBF => {
                (byte < 0xA0 || weight_ok)
                    && diagonal_rules(spec, rows, columns, &node.labels).contains(&byte)
            }
            _ => false,
        },
    }
}

/// The largest `m` such that `armies` armies of `m` queens fit on the `side × side` board,
/// by brute force over placements.
///
/// A placement's rows and columns each hold queens of one army at most; giving every empty
/// row or column to army 0 loses nothing, so every placement lies in `⋃_j R_j × C_j` for some
/// maps of the rows and the columns to armies, the rows' renamed so that armies first appear
/// in order (renaming armies maps placements to placements). For each pair of maps, every
/// subset of those cells with no two of different armies on one diagonal is tried, branch and
/// bound on the smallest army.
pub fn largest(side: usize, armies: usize) -> u64 {
    let maps = |rgs: bool| -> Vec<Vec<u8>> {
        (0..codes(side, armies))
            .map(|code| {
                let mut map = vec![0u8; side];
                let mut rest = code;
                for place in map.iter_mut().rev() {
                    *place = (rest % armies as u64) as u8;
                    rest /= armies as u64;
                }
                map
            })
            .filter(|map| !rgs || nu(map) == *map)
            .collect()
    };
    let mut best = 0;
    for rows in maps(true) {
        for columns in maps(false) {
            let mut cells = Vec::new();
            for x in 0..side {
                for y in 0..side {
                    if rows[x] == columns[y] {
                        cells.push((x, y, usize::from(rows[x])));
                    }
                }
            }
            let mut remaining = vec![vec![0u64; armies]; cells.len() + 1];
            for at in (0..cells.len()).rev() {
                let next = remaining[at + 1].clone();
                remaining[at] = next;
                remaining[at][cells[at].2] += 1;
            }
            if remaining[0].iter().min().copied().unwrap_or(0) <= best {
                continue;
            }
            let mut owner = [[(NONE, 0u32); 32]; 2];
            let mut counts = vec![0u64; armies];
            place(
                side,
                &cells,
                0,
                &remaining,
                &mut owner,
                &mut counts,
                &mut best,
            );
        }
    }
    best
}

fn place(
    side: usize,
    cells: &[(usize, usize, usize)],
    at: usize,
    remaining: &[Vec<u64>],
    owner: &mut [[(u8, u32); 32]; 2],
    counts: &mut Vec<u64>,
    best: &mut u64,
) {
    let bound = (0..counts.len())
        .map(|j| counts[j] + remaining[at][j])
        .min()
        .unwrap();
    if bound <= *best {
        return;
    }
    if at == cells.len() {
        *best = *counts.iter().min().unwrap();
        return;
    }
    let (x, y, j) = cells[at];
    let d = [diagonal(side, 0, x, y), diagonal(side, 1, x, y)];
    let free = (0..2).all(|f| owner[f][d[f]].1 == 0 || usize::from(owner[f][d[f]].0) == j);
    if free {
        for f in 0..2 {
            owner[f][d[f]] = (j as u8, owner[f][d[f]].1 + 1);
        }
        counts[j] += 1;
        place(side, cells, at + 1, remaining, owner, counts, best);
        counts[j] -= 1;
        for f in 0..2 {
            owner[f][d[f]].1 -= 1;
        }
    }
    place(side, cells, at + 1, remaining, owner, counts, best);
}
