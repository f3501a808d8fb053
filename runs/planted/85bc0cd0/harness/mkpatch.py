#!/usr/bin/env python3
"""mkpatch.py WORKTREE NAME FILE OLD NEW [FILE OLD NEW ...]: in WORKTREE (a clean checkout of
the study's commit), replace OLD (exactly once) by NEW in FILE, save `git diff` as
patches/NAME.patch beside this folder, then revert with `git checkout -- .`."""
import os, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
wt, sys.argv = sys.argv[1], sys.argv[1:]
name, rest = sys.argv[1], sys.argv[2:]
assert len(rest) % 3 == 0
try:
    for k in range(0, len(rest), 3):
        path, old, new = rest[k:k+3]
        p = f"{wt}/{path}"
        text = open(p).read()
        n = text.count(old)
        if n != 1:
            sys.exit(f"{name}: {old!r} occurs {n} times in {path}")
        open(p, "w").write(text.replace(old, new))
    diff = subprocess.run(["git", "-C", wt, "diff"], capture_output=True, text=True, check=True).stdout
    assert diff
    open(os.path.join(here, "..", "patches", f"{name}.patch"), "w").write(diff)
    print(f"{name}: {diff.count(chr(10))} diff lines")
finally:
    subprocess.run(["git", "-C", wt, "checkout", "--", "."], check=True)
