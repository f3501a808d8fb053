#!/usr/bin/env bash
# The Python binding (crates/python, module pqsat): a virtual environment with maturin,
# pytest and PySAT (target/python-venv), the abi3 wheel built by maturin and installed
# there, then the binding's tests (crates/python/tests, pytest). Idempotent: the
# environment and its packages are made once; the wheel is rebuilt (cargo compiles only
# what changed) and reinstalled on every run.
#
# The wheel is built with the settings of cargo's `test` profile into the workspace's target
# directory: what `cargo test --workspace` (scripts/test.sh) builds the other crates with,
# so that after it only pyo3 and the binding's own crate are compiled. The tests
# compare the binding with the command line built there too (target/debug/pq-sat, and
# pq-check beside it for search certificates).
#
#   bash scripts/python.sh            # everything
#   bash scripts/python.sh -k decode  # extra arguments go to pytest
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=target/python-venv
py=$venv/bin/python

if [ ! -x "$py" ]; then
  echo "python.sh: creating the virtual environment $venv" >&2
  python3 -m venv "$venv"
fi
if ! "$py" -c "import maturin, pytest, pysat" >/dev/null 2>&1; then
  echo "python.sh: installing maturin, pytest and python-sat into $venv" >&2
  "$py" -m pip install -q --disable-pip-version-check "maturin>=1.9,<2" pytest python-sat
fi

# The wheel's build resolves the features of the binding's crate alone; every crate it
# shares with the workspace must get the features `cargo test --workspace` gives it, or
# cargo compiles that crate and all above it again. crates/python/Cargo.toml names the
# features the workspace's other crates and tests add; this says which are missing.
python3 - <<'PY'
import re, subprocess, sys

def features(*selection):
    out = subprocess.run(
        ["cargo", "tree", "-q", *selection, "-f", "{p} [{f}]", "--prefix", "none"],
        check=True, capture_output=True, text=True,
    ).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"(\S+) (v\S+)(?: \(.*?\))?(?: \(\*\))? \[(.*)\]$", line)
        if m:
            found.setdefault((m[1], m[2]), set()).add(m[3])
    return found

workspace = features("--workspace", "-e", "normal,build,dev")
wheel = features("-p", "pq-python", "-e", "normal,build")
differ = [
    f"  {name} {version}: the workspace builds it with [{' | '.join(sorted(workspace[k]))}], "
    f"the wheel with [{' | '.join(sorted(wheel[k]))}]"
    for k in sorted(wheel) if k in workspace and workspace[k] != wheel[k]
    for name, version in [k]
]
if differ:
    sys.exit("python.sh: the wheel would compile these crates again with other features; "
             "give crates/python/Cargo.toml the workspace's:\n" + "\n".join(differ))
PY

# The command line the tests compare with, and pq-check beside it: what `cargo test`
# built (nothing to do after it); when this script runs on its own, that build.
cargo test -q --workspace --no-run

# maturin builds through `cargo rustc`, to which `--profile test` means a test harness, not
# a library: the wheel is built with the dev profile given the test profile's settings
# (Cargo.toml's [profile.test]), which is the same build to cargo, in the same directory
# (target/debug), so every crate `cargo test` compiled is reused.
profile_env=$(python3 - <<'PY'
import tomllib
test = tomllib.load(open("Cargo.toml", "rb")).get("profile", {}).get("test", {})
for key, value in test.items():
    value = str(value).lower() if isinstance(value, bool) else value
    print(f"CARGO_PROFILE_DEV_{key.upper().replace('-', '_')}={value}")
PY
)
wheels=target/python-wheels
rm -rf "$wheels"
env $profile_env "$venv/bin/maturin" build --quiet --strip \
  --manifest-path crates/python/Cargo.toml --interpreter "$py" --out "$wheels"
"$py" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheels"/pqsat-*.whl

# No __pycache__ or .pytest_cache in the work tree.
PATH="$root/target/debug:$PATH" PQ_SAT="$root/target/debug/pq-sat" PYTHONDONTWRITEBYTECODE=1 \
  "$py" -m pytest -q -p no:cacheprovider crates/python/tests "$@"
