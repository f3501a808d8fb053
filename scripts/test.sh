#!/usr/bin/env bash
# The whole test suite, as CI runs it (README's second command, `.ci/run`): set up what the
# machine lacks, then the team's habits as checks (format, clippy with the workspace's lints
# as errors, documentation without broken links), then every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
cargo test --workspace
