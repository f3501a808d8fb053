#!/usr/bin/env bash
# Installs what pq-sat needs beyond the Rust toolchain, idempotently:
#   - libclang-dev  (bindgen, used by rustsat-cadical at build time)
#   - minisat, cadical (Debian packages; external backends `minisat`, `cadical-bin`)
#   - clasp (Debian package; the `clasp` pseudo-Boolean optimiser, which reads pq-sat's OPB)
#   - kissat (PyPI passagemath-kissat ships a kissat executable; linked onto the PATH)
#   - rate (crates.io: the DRAT proof checker behind `pq-sat check-proof`; built with LTO)
#   - parallel (Debian: GNU parallel, which runs `pq-sat solve-cube` over a cube directory's
#     cubes on many cores or machines; tested for real by tests/cli/conquer.rs)
#   - acl2-books (Debian: ACL2 and its verified LRAT checker; a large package, ~0.5 GB)
#   - gbd-tools (PyPI: the Global Benchmark Database's tools; the tests check pq-sat's GBD
#     hash against its gbdc module)
#   - python-sat (PyPI: PySAT; its RC2 is the `rc2` MaxSAT backend, and the tests read
#     pq-sat's files with it)
# Running it twice is cheap: every step checks first.
#
# `--main` installs only what building pq-sat and its main job (`solve --dim D`, the line
# engine) need: libclang-dev. The solvers and checkers then come with the full set-up
# (`scripts/test.sh` runs it); a command that needs one says so and names this script.
set -euo pipefail

if [ "${1:-}" = "--main" ]; then
  if ! dpkg -s libclang-dev >/dev/null 2>&1; then
    echo "setup: installing Debian package libclang-dev (to build the in-process CaDiCaL)" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libclang-dev >/dev/null
  fi
  exit 0
fi

need_apt=()
dpkg -s libclang-dev >/dev/null 2>&1 || need_apt+=(libclang-dev)
command -v minisat >/dev/null 2>&1 || need_apt+=(minisat)
command -v cadical >/dev/null 2>&1 || need_apt+=(cadical)
dpkg -s acl2-books >/dev/null 2>&1 || need_apt+=(acl2-books)
command -v clasp >/dev/null 2>&1 || need_apt+=(clasp)
command -v parallel >/dev/null 2>&1 || need_apt+=(parallel)
if [ "${#need_apt[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! command -v kissat >/dev/null 2>&1; then
  echo "setup: installing kissat (PyPI passagemath-kissat)" >&2
  python3 -m pip install -q --disable-pip-version-check passagemath-kissat
  kissat_bin=$(python3 - <<'PY'
import pathlib, site, sys
roots = site.getsitepackages() + [site.getusersitepackages()]
for root in roots:
    p = pathlib.Path(root) / "sage_wheels" / "bin" / "kissat"
    if p.exists():
        print(p)
        sys.exit(0)
sys.exit("kissat executable not found in passagemath-kissat")
PY
)
  chmod +x "$kissat_bin"
  bindir=/usr/local/bin
  [ -w "$bindir" ] || bindir="$HOME/.local/bin"
  mkdir -p "$bindir"
  ln -sf "$kissat_bin" "$bindir/kissat"
fi

# rate is built with link-time optimisation: its crates (rate, rate-common, rate-proof) then
# inline into one another, and it checks the line engine's proofs 1.6x faster than the
# plain `cargo install` build (BENCHMARKS.md, "rate built with LTO"). The marker tells an
# earlier plain install, which is replaced.
rate_root=/usr/local
[ -w "$rate_root/bin" ] || rate_root="$HOME/.local"
rate_marker="$rate_root/share/pq-sat/rate-0.3.0-lto"
if ! command -v rate >/dev/null 2>&1 || [ ! -f "$rate_marker" ]; then
  echo "setup: installing rate 0.3.0 (crates.io DRAT checker, built with LTO)" >&2
  CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
    cargo install -q --locked --force rate --version 0.3.0 --root "$rate_root"
  mkdir -p "$(dirname "$rate_marker")"
  touch "$rate_marker"
fi

if ! python3 -c "from gbdc import gbdhash" >/dev/null 2>&1; then
  echo "setup: installing gbd-tools (PyPI)" >&2
  python3 -m pip install -q --disable-pip-version-check gbd-tools
fi
python3 -c "from gbdc import gbdhash" >/dev/null 2>&1 || { echo "setup: gbd-tools is still missing" >&2; exit 1; }

# PySAT: its RC2 MaxSAT solver is the `rc2` backend (python3 -m pysat.examples.rc2), and the
# tests read pq-sat's DIMACS and WCNF files with it.
if ! python3 -c "import pysat.examples.rc2" >/dev/null 2>&1; then
  echo "setup: installing python-sat (PyPI)" >&2
  python3 -m pip install -q --disable-pip-version-check python-sat
fi
python3 -c "import pysat.examples.rc2" >/dev/null 2>&1 || { echo "setup: python-sat is still missing" >&2; exit 1; }

for tool in kissat minisat cadical clasp rate acl2 parallel; do
  command -v "$tool" >/dev/null 2>&1 || { echo "setup: $tool is still missing" >&2; exit 1; }
done
echo "setup: ok (kissat $(kissat --version), minisat, cadical $(cadical --version), $(rate --version), acl2)" >&2
