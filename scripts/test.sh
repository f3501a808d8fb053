#!/usr/bin/env bash
# The whole test suite, as CI runs it (README's second command, `.ci/run`): set up what the
# machine lacks, then the team's habits as checks (format, the tracked text without work-log
# numbers, machine paths or broken links, clippy with the workspace's lints as errors,
# documentation without broken links), then every test of the workspace, then the Python
# binding's (scripts/python.sh: its wheel built on what `cargo test` built).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# rustfmt and clippy come with rustup's default profile; a toolchain without them skips
# that check, loudly, rather than failing the tests.
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all --check
else
  echo "test.sh: rustfmt is not installed: formatting NOT checked" >&2
fi
python3 scripts/check-text.py
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --workspace --all-targets -- -D warnings
else
  echo "test.sh: clippy is not installed: lints NOT checked" >&2
fi
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
# The Python binding has no cargo tests (pytest runs them), but stays in this build: its
# crates' features are resolved with the others', so the wheel's build reuses what this one
# compiled.
cargo test --workspace
bash scripts/python.sh
