# Shared by the scripts of long runs (sourced, not run): a syncer that calls the script's
# `keep` every SECONDS, and a run that one signal stops cleanly. The script defines `keep`
# (copy what is finished back into the repository, whole) before it calls these.

# Starts the syncer: `keep` every $1 seconds, in the background.
start_syncer() {
  ( while sleep "$1"; do keep; done ) &
  syncer=$!
  run=""
  trap on_signal INT TERM
}

# Ends the syncer and the `sleep` it is in (a plain kill would leave the sleep behind).
stop_syncer() {
  pkill -P "$syncer" 2>/dev/null || true
  kill "$syncer" 2>/dev/null || true
  wait "$syncer" 2>/dev/null || true
}

# One SIGINT or SIGTERM: stop the run (its own files keep what it finished), end the
# syncer, keep what is finished, and exit 130. The final copy ignores further signals.
on_signal() {
  trap '' INT TERM
  if [ -n "$run" ]; then
    # The run may be a wrapper (nice, /usr/bin/time) that would die without passing the
    # signal on and leave its child running: the children get it first, and the wrapper
    # ends when they do.
    pkill -TERM -P "$run" 2>/dev/null || kill -TERM "$run" 2>/dev/null || true
    wait "$run" 2>/dev/null || true
  fi
  stop_syncer
  keep
  if declare -F stopped >/dev/null; then stopped; fi
  exit 130
}

# Runs "$@" in the background (bash runs a trap only between commands, so a foreground run
# would delay the signal until it ended) and waits; `rc` is its exit code.
run_stoppable() {
  "$@" &
  run=$!
  rc=0
  wait "$run" || rc=$?
  run=""
}

# What `journal_step` needs, for a step script in its run's folder runs/FOLDER: here (where
# the kept files go: $KEEP, or that folder), repo (the repository), work ($WORK, or
# target/scratch/FOLDER in the repository), bin ($BIN, or pq-sat's release build), name ($1:
# the step, which names its journal) and nice ($2: the run's niceness).
journal_settings() {
  local folder
  folder=$(cd "$(dirname "$0")" && pwd)
  repo=$(cd "$folder/../.." && pwd)
  here=${KEEP:-$folder}
  work=${WORK:-$repo/target/scratch/$(basename "$folder")}
  bin=${BIN:-$repo/target/release/pq-sat}
  name=$1
  nice=$2
}

# One `pq-sat solve` step with a journal, resumable across machines: the journal (the units
# searched to their end) is kept in the run's folder $here as $name.journal.xz, copied back
# every five minutes and at the end; the scratch copy, the answer ($name.<time>.json, exit
# 10 SAT, 20 UNSAT, 0 unknown) and its timing (.err) go to $work. Each part, finished or
# stopped, adds a line to $here/$name.parts.tsv (runs/record-part.py: its CPU, wall, nodes
# and pairs, and the commit its binary was built from: for the default build, built first,
# the repository's HEAD, `-dirty` if files outside runs/ differ from it; for a binary given
# as $BIN, $BIN_COMMIT). `solve` gets the rest of the arguments, and `--journal`, `--format
# json` and `--progress lines`; it runs under `nice -n $nice` (the caller sets here, repo,
# work, bin, name and nice: `journal_settings`).
journal_step() {
  local built
  if [ -n "${BIN:-}" ]; then
    built=${BIN_COMMIT:-not known (BIN without BIN_COMMIT)}
  else
    # Built every time (a no-op when up to date), so that the commit recorded is the one run.
    (cd "$repo" && cargo build --release -q)
    built=$(git -C "$repo" rev-parse --short=8 HEAD 2>/dev/null || echo "not known")
    # The runs' own kept files change as they run; any other change is not in the commit.
    git -C "$repo" diff --quiet HEAD -- . ':!runs' 2>/dev/null || built="$built-dirty"
  fi
  mkdir -p "$work" "$here"
  here=$(cd "$here" && pwd)
  cd "$work"
  journal=$name.journal
  kept=$here/$journal.xz
  if [ -f "$kept" ] && [ ! -f "$journal" ]; then
    xz -dc "$kept" > "$journal"
  fi
  local stamp start
  stamp=$(date +%Y%m%d-%H%M%S)
  start=$(date -u "+%Y-%m-%d %H:%M")
  keep() {
    if [ -f "$journal" ]; then xz -9 -c "$journal" > "$kept.tmp" && mv "$kept.tmp" "$kept"; fi
  }
  stopped() { record_part; }
  record_part() {
    python3 "$repo/runs/record-part.py" "$here/$name.parts.tsv" "$name.$stamp.json" \
      "$name.$stamp.err" "$journal" "$start" "$built" || true
  }
  start_syncer 300
  run_stoppable nice -n "$nice" /usr/bin/time -v "$bin" solve "$@" \
    --journal "$journal" --format json --progress lines \
    > "$name.$stamp.json" 2> "$name.$stamp.err"
  stop_syncer
  keep
  record_part
  echo "exit $rc (10 SAT, 20 UNSAT, 0 unknown): $work/$name.$stamp.json"
  tail -3 "$name.$stamp.err"
}

# The `journal_step` of a problem file on a square board: encodings/$3 with board=DxD ($4), N
# ($5) of each maximised group, on JOBS ($6, default 1) threads; the step is named $1D-N and
# runs at niceness $2.
board_step() {
  local d=$4 n=$5 jobs=${6:-1}
  journal_settings "$1$d-$n" "$2"
  journal_step --problem "$repo/encodings/$3" --set "board=${d}x${d}" --n "$n" --jobs "$jobs"
}
