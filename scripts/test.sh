#!/usr/bin/env bash
# The one test command (README, CI): formatting, lints, every Rust test in release mode,
# then real runs of the fast jobs (and quick variants of the long ones) whose Parquet is
# read back with DuckDB, and questions to the runtime tables they wrote.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --release -- -D warnings

step "cargo test --workspace --release"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --release 2>&1 | tee "$log"
read -r passed failed < <(awk '/^test result:/ { p += $4; f += $6 } END { print p + 0, f + 0 }' "$log")

step "python environment for the Parquet readers (.venv)"
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import duckdb" 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements.txt
fi

step "run the shipped jobs and read their Parquet back with DuckDB"
out=$(mktemp -d)
trap 'rm -rf "$out" "$log"' EXIT
# Every shipped job that finishes in seconds; the long Monte Carlo jobs run here with a
# loose standard error or few rounds (and the blackjack grid on three shoes) so their
# Parquet is checked too.
sed -e 's/^target_std_error = .*/target_std_error = 0.02/' -e 's/^name = .*/name = "zhajinhua_multiway_quick"/' \
  jobs/zhajinhua_multiway.toml > "$out/zhajinhua_multiway_quick.toml"
sed -e 's/^headsup_decks = .*/headsup_decks = [28]/' -e 's/^name = .*/name = "showhand_quick"/' \
  jobs/showhand.toml > "$out/showhand_quick.toml"
names=()
sed -e 's/^rounds = .*/rounds = 2_000_000/' -e 's/^name = .*/name = "blackjack_quick"/' \
  -e 's/^decks = \[.*/decks = [1, 6, "infinite"]/' jobs/blackjack.toml > "$out/blackjack_quick.toml"
sed -e 's/^target_std_error = .*/target_std_error = 0.01/' -e 's/^name = .*/name = "holdem_multiway_quick"/' \
  jobs/holdem_multiway.toml > "$out/holdem_multiway_quick.toml"
for job in jobs/niuniu.toml jobs/holdem_preflop.toml jobs/holdem_headsup.toml "$out/holdem_multiway_quick.toml" jobs/blackjack_6d_s17.toml "$out/blackjack_quick.toml" "$out/showhand_quick.toml" jobs/zhajinhua.toml jobs/zhajinhua_a23_*.toml jobs/zhajinhua_235.toml \
  jobs/zhajinhua_caller_loses.toml "$out/zhajinhua_multiway_quick.toml"; do
  cargo run --release --quiet -- run "$job" --out "$out" --quiet
  names+=("$(basename "$job" .toml)")
done
.venv/bin/python scripts/check_parquet.py "$out" "${names[@]}"
passed=$((passed + ${#names[@]}))

step "ask the runtime tables those jobs wrote"
expect() { # expect TEXT COMMAND...: the command's output must contain TEXT
  local text=$1; shift
  local got
  got=$("$@")
  if [[ "$got" != *"$text"* ]]; then
    echo "FAILED: $* printed:"; echo "$got"; echo "expected: $text"; exit 1
  fi
  passed=$((passed + 1))
}
bin=target/release/pipeline
expect "wins 787966, ties 6732, losses 917606 of 1712304 boards" \
  $bin query holdem "As Ks" "Qd Qc" --headsup-table "$out/tables/holdem_headsup/holdem_headsup.bin"
expect "AKs vs QQ: equity 0.4605" \
  $bin query holdem AKs QQ --headsup-table "$out/tables/holdem_headsup/holdem_headsup.bin"
expect "(Monte Carlo, s.e." \
  $bin query holdem AKs --opponents 3 --table "$out/tables/holdem_multiway_quick/holdem.bin"
expect "best: split (-0.4749)" \
  $bin query blackjack "8 8" T --rules 6d-s17-das --table "$out/tables/blackjack_6d_s17/blackjack.bin"

if [ "${CI:-}" = "true" ] || [ "${PIPELINE_TEST_SLURM:-}" = "1" ]; then
  step "a 4-shard Slurm array + merge on a one-node cluster (scripts/test_slurm.sh)"
  scripts/test_slurm.sh
  passed=$((passed + 1))
fi

step "all checks passed"
echo "$passed passed, $failed failed"
