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
