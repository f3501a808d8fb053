# Sourced by the bench-*.sh scripts. bench_setup NAME checks for hyperfine, builds the
# release binary and sets $bin and $out (bench-results/NAME-<unix time>.md).
bench_setup() {
  command -v hyperfine >/dev/null || { echo "bench: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
  cargo build --release -q
  bin=${CARGO_TARGET_DIR:-target}/release/pq-sat
  mkdir -p bench-results
  out="bench-results/$1-$(date +%s).md"
}

# bench_backends B...: sets $backends to the solvers given, or to cadical and kissat.
bench_backends() {
  backends=("$@")
  [ ${#backends[@]} -gt 0 ] || backends=(cadical kissat)
}

# estimate_header UNIT: the head of the table estimate_row fills.
estimate_header() {
  echo "| step | $1 | sample | mean per unit (s) | CPU, 95% interval |"
  echo "| --- | ---: | ---: | ---: | --- |"
}

# estimate_row STEP SAMPLE FILE: one row from `pq-sat estimate --format json` output in FILE.
estimate_row() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
e = json.load(open(sys.argv[3]))
t = [u["seconds"] for u in e["sample"]]
c = e["total_cpu"]
h = lambda s: f"{s / 3600:.2f} h"
print(f"| {sys.argv[1]} | {e['cubes']:,} | {sys.argv[2]} | {sum(t) / len(t):.4f} | {h(c['estimate'])} ({h(c['low'])}–{h(c['high'])}) |")
PY
}
