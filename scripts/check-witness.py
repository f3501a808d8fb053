#!/usr/bin/env python3
"""Independent checker for witness boards of three peaceable-queens sequences.

  A250000  k white and k black queens on a d x d board, no queen attacking one of the other colour.
  A279405  the same on a d x d torus: diagonals wrap, (r - c) and (r + c) are compared mod d.
  A328283  k queens of each of three colours on a d x d board, no attack between colours.

Each FILE is JSON named <SEQUENCE>-<d>.json (sequence and d are taken from the name only).  Its
board (row strings, top row first; '.' empty, any other character a queen of that colour) is
"board" if that is a list, else "placement"; the claimed k is integer "n", else "optimum", else
the common count on the board.  Checked: the board is d x d; only 'W'/'B' (A250000, A279405) or
exactly three colours (A328283; an empty board witnesses only k = 0); each colour has exactly k
queens; no two queens of different colours share a row, column, diagonal or anti-diagonal
(wrapped on the torus).  Blocking is irrelevant: a line holding both colours always has two
adjacent queens of different colours.  Written from the problems' statements alone,
independently of pq-sat's own validator, so that the two share no mistake.  Stdlib only.

Usage: check-witness.py FILE [FILE ...]   exit 0 if all ok, 1 if any FAIL, 2 on usage error
       check-witness.py --self-test       hand-made good/bad boards and a brute-force cross-check
"""
import itertools, json, os, re, sys, tempfile

SEQS = {"A250000": (2, False), "A279405": (2, True), "A328283": (3, False)}  # (colours, torus)

def shared_line(r1, c1, r2, c2, d, torus):
    """Name of a line shared by squares (r1,c1) and (r2,c2) (0-based), or None."""
    if r1 == r2:
        return "row %d" % (r1 + 1)
    if c1 == c2:
        return "column %d" % (c1 + 1)
    m, wrap, mod = (lambda x: x % d, "wrapped ", " mod %d" % d) if torus else (lambda x: x, "", "")
    if m(r1 - c1) == m(r2 - c2):
        return "%sdiagonal (r-c = %d%s)" % (wrap, m(r1 - c1), mod)
    if m(r1 + c1) == m(r2 + c2):
        return "%santi-diagonal (r+c = %d%s, 1-based)" % (wrap, m(r1 + c1 + 2), mod)
    return None

def check_board(seq, d, rows, claimed, source):
    """Return (True, summary) or (False, first reason). claimed: int or None."""
    ncol, torus = SEQS[seq]
    if len(rows) != d:
        return False, "board has %d rows, expected d = %d" % (len(rows), d)
    for i, row in enumerate(rows, 1):
        if len(row) != d:
            return False, "row %d has %d characters, expected d = %d" % (i, len(row), d)
    pieces, counts = [], {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            if ncol == 2 and ch not in ("W", "B"):
                return False, "illegal character %r at row %d, column %d (only '.', 'W', 'B')" % (ch, r + 1, c + 1)
            pieces.append((r, c, ch))
            counts[ch] = counts.get(ch, 0) + 1
    colours = ["W", "B"] if ncol == 2 else list(counts)  # A328283: order of first appearance
    if ncol == 3 and pieces and len(colours) != 3:
        return False, "board has %d colours %s, expected exactly 3" % (len(colours), "".join(colours))
    if claimed is None:
        found = sorted({counts.get(x, 0) for x in colours}) or [0]
        if len(found) != 1:
            return False, "unequal colour counts: " + ", ".join("%r: %d" % (x, counts.get(x, 0)) for x in colours)
        k = found[0]
    else:
        k = claimed
        if not colours and k != 0:
            return False, "board has no queens, but the JSON claims k = %d (key %r)" % (k, source)
        for x in colours:
            if counts.get(x, 0) != k:
                return False, "colour %r has %d queens, but the JSON claims k = %d (key %r)" % (x, counts.get(x, 0), k, source)
    for i, (r1, c1, a) in enumerate(pieces):
        for r2, c2, b in pieces[i + 1:]:
            if a != b:
                line = shared_line(r1, c1, r2, c2, d, torus)
                if line:
                    return False, "%r at (%d,%d) and %r at (%d,%d) share %s" % (a, r1 + 1, c1 + 1, b, r2 + 1, c2 + 1, line)
    if ncol == 2:
        what = "%d white and %d black queens" % (k, k) + (" on the %dx%d torus" % (d, d) if torus else "")
    elif colours:
        what = "%d queens of each of the colours %s" % (k, ", ".join(colours))
    else:
        what = "no queens (empty board)"
    note = "" if claimed is not None else "; k counted on the board, the JSON claims none"
    return True, "%s d=%d: %s, no attack (a(%d) >= %d%s)" % (seq, d, what, d, k, note)

def check_file(path):
    """Return (passed, output line)."""
    name = os.path.basename(path)
    def fail(why):
        return False, "FAIL  %s: %s" % (name, why)
    m = re.fullmatch(r"(A[0-9]{6})-([0-9]+)\.json", name)
    if not m:
        return fail("file name is not <SEQUENCE>-<d>.json")
    seq, d = m.group(1), int(m.group(2))
    if seq not in SEQS:
        return fail("unknown sequence %s (known: %s)" % (seq, ", ".join(sorted(SEQS))))
    if d < 1:
        return fail("board side d = %d is not >= 1" % d)
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read())
    except OSError as e:
        return fail("cannot read file: %s" % e)
    except (ValueError, RecursionError) as e:
        return fail("invalid JSON: %s" % e)
    if not isinstance(data, dict):
        return fail("JSON top level is not an object")
    rows = data.get("board") if isinstance(data.get("board"), list) else data.get("placement")
    if not isinstance(rows, list) or not all(isinstance(x, str) for x in rows):
        return fail("no board: neither 'board' nor 'placement' is a list of strings")
    claimed, source = None, None
    for key in ("n", "optimum"):
        v = data.get(key)
        if v is not None and type(v) is not int:
            return fail("key %r is %r, not an integer" % (key, v))
        if v is not None:
            claimed, source = v, key
            break
    ok, msg = check_board(seq, d, rows, claimed, source)
    return (True, "ok    " + msg) if ok else fail(msg)

def brute_a250000(d):
    """Exact a(d) for A250000 and an optimal board, by exhaustive search."""
    sq = [(r, c) for r in range(d) for c in range(d)]
    # (1) all 3^(d*d) colourings (d <= 3), each tested pairwise with shared_line.
    full = None
    if d <= 3:
        full = (-1, None)
        for col in itertools.product(".WB", repeat=d * d):
            if min(col.count("W"), col.count("B")) <= full[0]:
                continue
            pcs = [(r, c, ch) for (r, c), ch in zip(sq, col) if ch != "."]
            if not any(a != b and shared_line(r1, c1, r2, c2, d, False)
                       for (r1, c1, a), (r2, c2, b) in itertools.combinations(pcs, 2)):
                full = (min(col.count("W"), col.count("B")), col)
    # (2) every white set S; the blacks may be any squares off S not attacked from S.
    att = [sum(1 << j for j, (r2, c2) in enumerate(sq) if j == i or shared_line(r, c, r2, c2, d, False))
           for i, (r, c) in enumerate(sq)]
    n, best, arg = d * d, -1, None
    union = [0] * (1 << n)
    for s in range(1, 1 << n):
        low = (s & -s).bit_length() - 1
        union[s] = union[s & (s - 1)] | att[low]
    for s in range(1 << n):
        k = min(s.bit_count(), ((1 << n) - 1 & ~union[s]).bit_count())
        if k > best:
            best, arg = k, s
    free = (1 << n) - 1 & ~union[arg]
    cells = ["."] * n
    for colour, mask in (("W", arg), ("B", free)):
        for j in [j for j in range(n) if mask >> j & 1][:best]:
            cells[j] = colour
    if full is not None:
        assert full[0] == best, "d=%d: colouring search %d != subset search %d" % (d, full[0], best)
    return best, ["".join(cells[r * d:(r + 1) * d]) for r in range(d)]

def self_test():
    good4 = ["WW..", "...B", "....", "..B."]
    wrapdiag = ["...W", "B...", "....", "...."]    # r-c: -3 vs 1, equal mod 4 only
    wrapanti = ["W...", "...B", "....", "...."]    # r+c: 0 vs 4, equal mod 4 only
    tri = ["R...", "..G.", "....", ".B.."]
    cases = [  # (file name, JSON text or object, expect ok, substring of the output line)
        ("A250000-3.json", {"n": 1, "board": ["W..", "..B", "..."]}, True, "a(3) >= 1"),
        ("A250000-4.json", {"optimum": 2, "board": {"d": 4}, "placement": good4}, True, "a(4) >= 2"),
        ("A250000-4.json", {"board": good4}, True, "counted on the board"),
        ("A250000-1.json", {"n": 0, "board": ["."]}, True, "a(1) >= 0"),
        ("A250000-3.json", {"n": 1, "board": [".W.", "B..", "..."]}, False, "share anti-diagonal"),
        ("A250000-3.json", {"n": 1, "board": ["W.B", "...", "..."]}, False, "share row 1"),
        ("A250000-3.json", {"n": 1, "board": ["W..", "...", "B.."]}, False, "share column 1"),
        ("A250000-3.json", {"n": 1, "board": ["W..", "...", "..B"]}, False, "share diagonal"),
        ("A250000-4.json", {"n": 3, "board": good4}, False, "has 2 queens"),
        ("A250000-4.json", {"board": ["WWW.", "...B", "....", "..B."]}, False, "unequal"),
        ("A250000-3.json", {"n": 1, "board": ["W..", "..X", "..."]}, False, "illegal character"),
        ("A250000-3.json", {"n": 1, "board": ["W..", "..B"]}, False, "2 rows"),
        ("A250000-3.json", {"n": 1, "board": ["W..", "..B.", "..."]}, False, "row 2 has 4"),
        ("A250000-3.json", {"n": 1}, False, "no board"),
        ("A250000-3.json", {"n": "1", "board": ["W..", "..B", "..."]}, False, "not an integer"),
        ("A250000-3.json", "{not json", False, "invalid JSON"),
        ("A999999-3.json", {"n": 1, "board": ["W..", "..B", "..."]}, False, "unknown sequence"),
        ("A250000-0.json", {"n": 0, "board": []}, False, "not >= 1"),
        ("board.json", {"n": 1, "board": ["W..", "..B", "..."]}, False, "file name"),
        ("A250000-4.json", {"n": 1, "board": wrapdiag}, True, "a(4) >= 1"),
        ("A279405-4.json", {"n": 1, "board": wrapdiag}, False, "wrapped diagonal"),
        ("A250000-4.json", {"n": 1, "board": wrapanti}, True, "a(4) >= 1"),
        ("A279405-4.json", {"n": 1, "board": wrapanti}, False, "wrapped anti-diagonal"),
        ("A279405-4.json", {"n": 1, "board": ["W...", "..B.", "....", "...."]}, True, "4x4 torus"),
        ("A328283-4.json", {"n": 1, "board": tri}, True, "colours R, G, B"),
        ("A328283-4.json", {"n": 1, "board": ["R...", "..G.", "....", ".R.."]}, False, "expected exactly 3"),
        ("A328283-4.json", {"n": 1, "board": ["R..X", "..G.", "....", ".B.."]}, False, "4 colours"),
        ("A328283-4.json", {"n": 1, "board": ["R...", "..G.", "....", "..B."]}, False, "share column 3"),
        ("A328283-4.json", {"n": 2, "board": tri}, False, "has 1 queens"),
        ("A250000-3.json", None, False, "cannot read file"),  # None: the file is not created
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, content, want, sub) in enumerate(cases):
            os.makedirs(os.path.join(tmp, str(i)))
            path = os.path.join(tmp, str(i), name)
            if content is not None:
                with open(path, "w") as f:
                    f.write(content if isinstance(content, str) else json.dumps(content))
            ok, line = check_file(path)
            if ok != want or sub not in line:
                failures += 1
                print("self-test FAILED case %d (want ok=%s, %r): %s" % (i, want, sub, line))
        for d, known in zip(range(1, 5), (0, 0, 1, 2)):
            k, rows = brute_a250000(d)
            path = os.path.join(tmp, "A250000-%d.json" % d)
            with open(path, "w") as f:
                json.dump({"n": k, "board": rows}, f)
            ok, line = check_file(path)
            print("brute force A250000 d=%d: a(d) = %d (known %d) %s" % (d, k, known, "/".join(rows)))
            if k != known or not ok:
                failures += 1
                print("self-test FAILED brute force d=%d: %s" % (d, line))
    total = len(cases) + 4
    print("self-test: %d/%d passed" % (total - failures, total))
    return failures == 0

def main(argv):
    if argv == ["--self-test"]:
        return 0 if self_test() else 1
    if not argv or any(a.startswith("--") for a in argv):
        print("usage: check-witness.py FILE [FILE ...] | --self-test", file=sys.stderr)
        return 2
    all_ok = True
    for path in argv:
        ok, line = check_file(path)
        print(line)
        all_ok &= ok
    return 0 if all_ok else 1

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
