#!/usr/bin/env bash
# The one test command (README, CI): formatting, lints, every Rust test in release mode,
# then a real run of jobs/niuniu.toml whose Parquet is read back with DuckDB.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --release -- -D warnings

step "cargo test --workspace --release"
cargo test --workspace --release

step "python environment for the Parquet readers (.venv)"
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import duckdb" 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements.txt
fi

step "run jobs/niuniu.toml and read it back with DuckDB"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run --release --quiet -- run jobs/niuniu.toml --out "$out" --quiet
.venv/bin/python scripts/check_parquet.py "$out" niuniu

step "all checks passed"
