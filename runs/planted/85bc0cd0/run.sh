#!/usr/bin/env bash
# The planted-bug study of pq-check against the line engine's certificate writer, rerun:
# for the unpatched writer of commit $BASE (the baseline) and then each patch in patches/
# (or the patches named as arguments), in a clean detached worktree: apply the patch, build
# the certify examples, run every step of suite.txt through the writer and pq-check built
# from the unpatched tree, and print the table (table.md is the full run's).
#
#   runs/planted/85bc0cd0/run.sh                 # baseline + every patch (~40 s a patch)
#   runs/planted/85bc0cd0/run.sh paired-03 ...   # baseline + the patches named
#
# Each patch is judged on its family's steps (paired: sq*/un*, torus: to*/ut*, armies: a*,
# common: every two-army step). Per step: the writer's exit (20 UNSAT, 10 SAT), pq-check
# --expect "<the step's board and armies>" on the part files together, its s line, exit code
# and first refusal, and whether the certificate bytes equal the unpatched writer's.
# harness/certify_uneven.rs is an extra example for armies of different sizes (copied into
# the worktree: the certify example certifies equal armies only); harness/table.py
# classifies; harness/mkpatch.py is how the patches were made; descriptions.txt has one line
# per patch.
#
# Env: WT (the worktree; default a new one in a temporary folder), OUT (results; default a
#      temporary folder), JOBS_TIMEOUT (seconds a run, default 120).
set -u
P=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$P" rev-parse --show-toplevel)
BASE=${BASE:-85bc0cd0}
WT=${WT:-$(mktemp -d)/worktree}
OUT=${OUT:-$(mktemp -d)}
TO=${JOBS_TIMEOUT:-120}
CHECK=$OUT/pq-check
mkdir -p "$OUT"
echo "worktree $WT, results $OUT" >&2
if [ ! -d "$WT" ]; then
    git -C "$repo" worktree add --detach "$WT" "$BASE" || exit 1
fi
git -C "$WT" checkout -q -- . && (cd "$WT" && nice cargo build -q --release -p pq-check) \
    && cp "$WT/target/release/pq-check" "$CHECK" || exit 1

if [ $# -gt 0 ]; then
    patches=()
    for name in "$@"; do patches+=("$P/patches/${name%.patch}.patch"); done
else
    patches=("$P"/patches/*.patch)
fi

# claim_of ARGS: the board and armies a step's writer arguments ask about (its first part).
claim_of() {
    local board=square
    if [ "$1" = --torus ]; then board=torus; shift; fi
    if [ "$1" = --armies ]; then
        echo "board square $3 armies $(yes "$4" | head -n "$2" | paste -sd' ')"
    elif [ "$prog" = certify_uneven ]; then
        echo "board $board $1 armies $2 $3"
    else
        echo "board $board $1 armies $2 $2"
    fi
}

# run_suite DIR: every step of suite.txt with the examples built in $WT, results in DIR.
run_suite() {
    local dir=$1 bin=$WT/target/release/examples
    mkdir -p "$dir"
    : > "$dir/runs.tsv"
    grep -v '^#' "$P/suite.txt" | while IFS=';' read -r name prog args expect; do
        [ -n "$name" ] || continue
        local files=() rcs=() k=0 part
        IFS='+' read -ra parts <<< "$args"
        for part in "${parts[@]}"; do
            local f="$dir/$name.$k.cert"
            # shellcheck disable=SC2086
            timeout "$TO" nice "$bin/$prog" $part > "$f" 2> "$dir/$name.$k.err"
            rcs+=("$?")
            files+=("$f")
            k=$((k + 1))
        done
        # The claim the step must prove, demanded as runs/certify.sh demands it.
        local expect_claim
        expect_claim=$(claim_of $args)
        timeout "$TO" "$CHECK" --expect "$expect_claim" "${files[@]}" > "$dir/$name.check" 2>&1
        local crc=$?
        local status refusal same=-
        status=$(grep '^s ' "$dir/$name.check" | tail -1)
        refusal=$(grep -m1 -E '^c (refused|expected)|^pq-check' "$dir/$name.check" | cut -c1-220)
        if [ "$dir" != "$OUT/baseline" ]; then
            same=same
            for ((j = 0; j < k; j++)); do
                cmp -s "$dir/$name.$j.cert" "$OUT/baseline/$name.$j.cert" || same=diff
            done
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$expect" "$(IFS=,; echo "${rcs[*]}")" \
            "$crc" "${status:-none}" "$same" "${refusal:-}" >> "$dir/runs.tsv"
    done
}

build() {
    cp "$P/harness/certify_uneven.rs" "$WT/crates/lines/examples/" &&
        (cd "$WT" && nice cargo build -q --release -p pq-lines --example certify \
            --example certify_uneven) > "$1" 2>&1
}

git -C "$WT" checkout -q -- .
echo "== baseline" >&2
build "$OUT/baseline.build" || { echo "baseline build failed" >&2; exit 1; }
run_suite "$OUT/baseline"

for patch in "${patches[@]}"; do
    id=$(basename "$patch" .patch)
    echo "== $id" >&2
    git -C "$WT" checkout -q -- .
    mkdir -p "$OUT/$id"
    if ! git -C "$WT" apply "$patch"; then
        echo "apply failed" > "$OUT/$id/build.log"
        : > "$OUT/$id/runs.tsv"
        echo BUILD-FAIL > "$OUT/$id/buildstatus"
        continue
    fi
    if build "$OUT/$id/build.log"; then
        echo ok > "$OUT/$id/buildstatus"
        run_suite "$OUT/$id"
    else
        echo BUILD-FAIL > "$OUT/$id/buildstatus"
        : > "$OUT/$id/runs.tsv"
    fi
    git -C "$WT" checkout -q -- .
done
git -C "$WT" checkout -q -- .
python3 "$P/harness/table.py" "$OUT" "${patches[@]}" | tee "$OUT/table.md"
