#!/usr/bin/env bash
# The one test command (README, CI): formatting, lints, every Rust test in release mode,
# then real runs of the fast jobs (and quick variants of the long ones) whose Parquet is
# read back with DuckDB, and questions to the runtime tables they wrote.
#
# Usage: scripts/test.sh [--quick]
#   --quick: formatting, module structure, lints and the Rust tests only (no job runs, no
#            C, Python or signal checks): the loop while editing. CI runs the full script.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
case "${1:-}" in
  --quick) quick=true ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac

# Each step prints its name; the next one (and the end) prints how long it took.
step_name=""
step_start=$SECONDS
script_start=$SECONDS
step() {
  if [ -n "$step_name" ]; then
    printf '    (%s: %d s)\n' "$step_name" $((SECONDS - step_start))
  fi
  step_name=$1
  step_start=$SECONDS
  printf '\n==> %s\n' "$*"
}

step "cargo fmt --check"
cargo fmt --all -- --check

step "module structure: no import cycle between files, the engine imports no game; the runtime API has the same names in Rust, C and Python"
python3 scripts/module_cycles.py
python3 scripts/check_api_names.py

step "declared minimum Rust version covers every locked dependency (scripts/msrv.py)"
python3 scripts/msrv.py

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --release -- -D warnings

step "cargo test --workspace --release"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --release 2>&1 | tee "$log"
read -r passed failed < <(awk '/^test result:/ { p += $4; f += $6 } END { print p + 0, f + 0 }' "$log")

if $quick; then
  step "quick mode: done"
  echo "$passed passed, $failed failed (quick mode: no job runs; $((SECONDS - script_start)) s in all)"
  exit 0
fi

step "python environment (.venv): the Parquet readers, and maturin, NumPy and pytest for the Python package"
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import duckdb, pyarrow, numpy, pytest" 2>/dev/null \
  || [ ! -x .venv/bin/maturin ]; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements.txt
fi

step "run the shipped jobs, compare their outputs with scripts/golden.sha256, read their Parquet back with DuckDB"
out=$(mktemp -d)
trap 'rm -rf "$out" "$log"' EXIT
# Every shipped job that finishes in seconds, and quick variants of the long ones
# (scripts/quick_jobs.sh), run from the scratch folder with relative job paths as a user
# would, so the outputs are byte for byte those of scripts/golden.sh.
repo=$PWD
bin=$repo/target/release/pipeline
cargo build --release --quiet
names=()
while read -r job; do
  (cd "$out" && "$bin" run "$job" --out . --quiet > /dev/null)
  names+=("$(basename "$job" .toml)")
done < <(cd "$out" && "$repo/scripts/quick_jobs.sh" jobs)
(cd "$out" && find tables reports -type f ! -name manifest.json -print0 | sort -z | xargs -0 sha256sum) \
  > "$out/golden.sha256"
if ! diff -u scripts/golden.sha256 "$out/golden.sha256"; then
  echo "FAILED: outputs differ from scripts/golden.sha256 (a deliberate change: scripts/golden.sh --update)"
  exit 1
fi
passed=$((passed + 1))
.venv/bin/python scripts/check_parquet.py "$out" "${names[@]}"
passed=$((passed + ${#names[@]}))

step "no ± means exact: sampling jobs rerun under another seed; every figure that moves carries its ± (scripts/check_pm.py)"
# Every job that samples (its file sets a seed), under its own seed and under another.
pm_names=()
for name in "${names[@]}"; do
  if grep -q '^seed = ' "$out/jobs/$name.toml"; then pm_names+=("$name"); fi
done
mkdir -p "$out/seed2/jobs"
for name in "${pm_names[@]}"; do
  sed 's/^seed = .*/seed = 987654321/' "$out/jobs/$name.toml" > "$out/seed2/jobs/$name.toml"
  grep -q '^seed = 987654321$' "$out/seed2/jobs/$name.toml"
  (cd "$out/seed2" && "$bin" run "jobs/$name.toml" --out . --quiet > /dev/null)
done
python3 scripts/check_pm.py "$out/reports" "$out/seed2/reports" "${pm_names[@]}"
# The check itself fails on a bare sampled figure.
mkdir -p "$out/pm_a" "$out/pm_b"
printf 'EV 0.512 ± 0.003, sd 1.234 over 1000 rounds\n' > "$out/pm_a/x.md"
printf 'EV 0.515 ± 0.003, sd 1.240 over 1000 rounds\n' > "$out/pm_b/x.md"
if python3 scripts/check_pm.py "$out/pm_a" "$out/pm_b" x > /dev/null 2>&1; then
  echo "FAILED: check_pm.py let a bare sampled figure (sd 1.234) through"; exit 1
fi
passed=$((passed + 2))

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
expect "wins 787966, ties 6732, losses 917606 of 1712304 boards" \
  $bin query holdem "As Ks" "Qd Qc" --table "$out/tables/holdem_headsup/holdem_headsup.bin"
expect "AKs vs QQ: equity 0.4605" \
  $bin query holdem AKs QQ --table "$out/tables/holdem_headsup/holdem_headsup.bin"
expect "JTs vs AKs vs QQ: equity 0.1713 / 0.4049 / 0.4238 (exact, over 96 deals" \
  $bin query holdem JTs AKs QQ --table "$out/tables/holdem_threeway_quick/holdem_threeway.bin"
expect '"equity":[0.6697932913807535,0.17745732154225582,0.1527493870769907]' \
  $bin query holdem AA KK QQ --json --table "$out/tables/holdem_threeway_quick/holdem_threeway.bin"
expect "(Monte Carlo, s.e." \
  $bin query holdem AKs --opponents 3 --table "$out/tables/holdem_multiway_quick/holdem.bin"
expect "small blind: always push; EV push +1.6252 bb" \
  $bin query pushfold AKo --stack 8.5 --table "$out/tables/holdem_pushfold/pushfold.bin"
expect "big blind facing a push: call 0.62 % of the time" \
  $bin query pushfold QJo --stack 20.05 --table "$out/tables/holdem_pushfold/pushfold.bin"
expect "ante 0.125 bb" \
  $bin query pushfold "Ah 7c" --stack 10 --ante 0.125 --table "$out/tables/holdem_pushfold_ante_quick/pushfold.bin"
expect "SB call (BTN pushed): never call; faced 23.3 % of the time; EV call -2.40403, fold -0.50000 bb" \
  $bin query pushfold AKo --stack 10 --players 3 --position sb --facing push --table "$out/tables/holdem_pushfold3_quick/pushfold3.bin"
expect "BB call (BTN pushed, SB called)" \
  $bin query pushfold JTs --stack 11 --players 3 --position bb --payouts 0.5,0.3,0.2 --table "$out/tables/holdem_pushfold3_quick/pushfold3.bin"
expect "raise to 140.34 (fold 54.6%, callers top 45.3852 %, equity 0.7731): EV +117.469 (the optimum over every raise up to the cap)" \
  $bin query zhajinhua "Ks Kh Qd" --pot 100 --call 20 --table "$out/tables/zhajinhua/zhajinhua.bin"
expect "four_face     9/48 = 0.1875 (×20)" \
  $bin query niuniu "Ks Qh Jd Tc" --table "$out/tables/niuniu_bidding_quick/niuniu_bidding.bin"
expect "suggested bid:     ×4" \
  $bin query niuniu "Tc Jd Qh Ks" --table "$out/tables/niuniu_bidding_quick/niuniu_bidding.bin"
expect "category:        four_face (rank 11)" \
  $bin query niuniu "Ks Qh Jd Tc Qs" --table "$out/tables/niuniu/niuniu.bin"
expect "chart:  hit" \
  $bin query blackjack "T 6" T --count 3 --table "$out/tables/blackjack_indices_quick/blackjack_indices.bin"
expect "insurance: " \
  $bin query blackjack "T 6" A --count 3 --table "$out/tables/blackjack_indices_quick/blackjack_indices.bin"
expect "best: split (-0.4749)" \
  $bin query blackjack "8 8" T --rules 6d-s17-das --table "$out/tables/blackjack_6d_s17/blackjack.bin"

expect "Ah Kh on Qh Jh 2c (flop): E[HS] 0.763301, E[HS²] 0.646644 against one random hand over 1081 runouts (exact)" \
  $bin query holdem "Ah Kh" --board "Qh Jh 2c" --table "$out/tables/holdem_postflop_quick/strength_flop.bin"
expect "Ts 9s on 8s 7d 2c (flop): E[HS] 0.545446, E[HS²] 0.448479" \
  $bin query holdem "Ts 9s" --board "8s 7d 2c" --table "$out/tables/holdem_postflop_quick/strength_flop.bin"

step "every query with --json: one object, its fields equal to the Parquet columns of the same names"
.venv/bin/python scripts/check_query_json.py "$bin" "$out"
passed=$((passed + 1))

step "the counter job the indices job wrote plays every index play it found"
generated="$out/reports/blackjack_indices_quick/counter_0.toml"
plays=$(grep -o '<summary>[0-9]* index plays' "$out/reports/blackjack_indices_quick.md" | grep -o '[0-9]*')
expect "; 1 hand(s), 0 other player(s); $plays index play(s)" $bin check "$generated"
mkdir -p "$out/generated"
sed 's/^rounds = .*/rounds = 2_000_000/' "$generated" > "$out/generated/counter.toml"
(cd "$out/generated" && "$bin" run counter.toml --out . --quiet > /dev/null)
expect "$plays index play" cat "$out/generated/reports/blackjack_indices_quick_counter_0.md"

step "the C ABI: build examples/c/lookup.c against libcardtables_ffi and check its answers against pipeline query"
cargo build --release --quiet -p cardtables-ffi
"${CC:-cc}" -std=c99 -Wall -Wextra -Werror -Iffi/include examples/c/lookup.c \
  target/release/libcardtables_ffi.a -lpthread -ldl -lm -o "$out/lookup"
if command -v "${CXX:-c++}" > /dev/null; then # the header is also valid C++
  "${CXX:-c++}" -fsyntax-only -Wall -Wextra -Werror -x c++ ffi/include/cardtables.h
  passed=$((passed + 1))
fi
tables=$out/tables
# The C benchmark, one pass: it exits 1 unless single and batch calls give the same answers.
"${CC:-cc}" -O2 -std=c99 -Wall -Wextra -Werror -Iffi/include examples/c/bench.c \
  target/release/libcardtables_ffi.a -lpthread -ldl -lm -o "$out/c_bench"
expect "per open, per lookup" "$out/c_bench" "$tables/niuniu/niuniu.bin" "$tables/zhajinhua/zhajinhua.bin" 1
c_out=$("$out/lookup" niuniu="$tables/niuniu/niuniu.bin" zhajinhua="$tables/zhajinhua/zhajinhua.bin" \
  holdem="$tables/holdem_preflop/holdem.bin" headsup="$tables/holdem_headsup/holdem_headsup.bin" \
  pushfold="$tables/holdem_pushfold/pushfold.bin" stud="$tables/showhand_quick/stud.bin" \
  bidding="$tables/niuniu_bidding_quick/niuniu_bidding.bin" \
  blackjack="$tables/blackjack_6d_s17/blackjack.bin" \
  indices="$tables/blackjack_indices_quick/blackjack_indices.bin" \
  flop="$tables/holdem_postflop_quick/strength_flop.bin" \
  threeway="$tables/holdem_threeway_quick/holdem_threeway.bin")
val() { # val KEY: the C example's answer for KEY (it must have printed one)
  local v
  v=$(awk -v k="$1" '$1 == k { sub(/^[^ ]+ /, ""); print; found = 1 } END { exit !found }' <<< "$c_out") \
    || { echo "FAILED: the C example printed no $1:"; echo "$c_out"; exit 1; }
  printf '%s' "$v"
}
niuniu=(query niuniu "Ks Qh Jd Tc Qs" --table "$tables/niuniu/niuniu.bin")
expect "category:        $(val niuniu.category) (rank $(val niuniu.category_rank))" $bin "${niuniu[@]}"
expect "strength:        $(val niuniu.strength)" $bin "${niuniu[@]}"
expect "win probability: $(val niuniu.win_probability) ($(val niuniu.wins) of 1533939 opponent hands)" \
  $bin "${niuniu[@]}"
expect "banker EV:       $(val niuniu.banker_ev) per stake" $bin "${niuniu[@]}"
expect "Ks appears more than once" val niuniu.duplicate_error
expect 3 val niuniu.duplicate_status # CT_CARD_ERROR
expect "hand 1: Ks appears more than once" val niuniu.batch_error
expect 3 val niuniu.batch_status
zhajinhua=(query zhajinhua "Ks Kh Qd" --table "$tables/zhajinhua/zhajinhua.bin")
expect "Ks Kh Qd ($(val zhajinhua.category), strength $(val zhajinhua.strength))" $bin "${zhajinhua[@]}"
expect "win / tie / loss: $(val zhajinhua.win) / $(val zhajinhua.tie) / $(val zhajinhua.loss) (exact)" \
  $bin "${zhajinhua[@]}"
expect "equity:      $(val zhajinhua.equity)" $bin "${zhajinhua[@]}"
expect "AKs vs 1 random hand: win $(val holdem.win), tie $(val holdem.tie), equity $(val holdem.equity)" \
  $bin query holdem AKs --table "$tables/holdem_preflop/holdem.bin"
expect "Ah Kh on Qh Jh 2c (flop): E[HS] $(val flop.ehs), E[HS²] $(val flop.ehs2) against one random hand over $(val flop.runouts) runouts" \
  $bin query holdem "Ah Kh" --board "Qh Jh 2c" --table "$tables/holdem_postflop_quick/strength_flop.bin"
expect 1081 val flop.histogram_total
expect 4 val flop.turn_status # CT_QUERY_ERROR
blackjack=(query blackjack "8 8" T --rules 6d-s17-das --table "$tables/blackjack_6d_s17/blackjack.bin")
for action in stand hit double split; do
  expect "$(printf '  %-10s %s' "$action" "$(val "blackjack.ev.$action")")" $bin "${blackjack[@]}"
done
expect "best: $(val blackjack.best) ($(val blackjack.best_ev))" $bin "${blackjack[@]}"
expect "hit" val blackjack.t24_vs_t
expect "As Ks vs Qd Qc: wins $(val headsup.wins), ties $(val headsup.ties), losses $(val headsup.losses) of $(val headsup.boards) boards, equity $(val headsup.equity)" \
  $bin query holdem "As Ks" "Qd Qc" --table "$tables/holdem_headsup/holdem_headsup.bin"
expect "JTs vs AKs vs QQ: equity $(val threeway.equity_a) / $(val threeway.equity_b) / $(val threeway.equity_c) (exact, over $(val threeway.combos) deals" \
  $bin query holdem JTs AKs QQ --table "$tables/holdem_threeway_quick/holdem_threeway.bin"
expect "AKs vs QQ: equity $(val headsup.class_equity)" \
  $bin query holdem AKs QQ --table "$tables/holdem_headsup/holdem_headsup.bin"
expect "(Ks As | 2h 7c Qs)" val indexer.flop_index # the canonical state of As Ks | Qs 7h 2d
expect "1       QQ+, AKs  $(val headsup.range_equity)" \
  $bin equity "QQ+, AKs" random --table "$tables/holdem_headsup/holdem_headsup.bin"
pushfold=(query pushfold AKo --stack 8.5 --table "$tables/holdem_pushfold/pushfold.bin")
expect "(grid stack $(val pushfold.stack))" $bin "${pushfold[@]}"
expect "EV push $(val pushfold.push_ev) bb, fold $(val pushfold.push_fold_ev) bb" $bin "${pushfold[@]}"
expect "EV call $(val pushfold.call_ev) bb, fold $(val pushfold.call_fold_ev) bb" $bin "${pushfold[@]}"
expect "game value for the small blind: $(val pushfold.value) bb per hand" $bin "${pushfold[@]}"
expect 4 val pushfold.off_grid_status # CT_QUERY_ERROR
expect "exact over $(val stud.deals) deals: win $(val stud.win), tie $(val stud.tie), lose $(val stud.lose)" \
  $bin query stud "As Ah" "Ks Qs" --deck "$(val stud.deck)"
bidding=(query niuniu "Ks Qh Jd Tc" --table "$tables/niuniu_bidding_quick/niuniu_bidding.bin")
expect "four-card index:   $(val bidding.index) (rank class $(val bidding.rank_class))" $bin "${bidding[@]}"
expect "player EV:         $(val bidding.player_ev) per stake" $bin "${bidding[@]}"
expect "banker EV:         $(val bidding.banker_ev) per stake at ×1 against one player, $(val bidding.banker_ev_table) against" \
  $bin "${bidding[@]}"
expect "suggested bid:     ×$(val bidding.bid)" $bin "${bidding[@]}"
expect 48 val bidding.fifth_cards
indices=(query blackjack "T 6" T --count 3 --table "$tables/blackjack_indices_quick/blackjack_indices.bin")
expect "chart:  $(val indices.chart)" $bin "${indices[@]}"
expect "play:   $(val indices.action) (index at or above $(val indices.index)," $bin "${indices[@]}"

step "a job of minutes stopped by SIGINT, then by SIGTERM, then rerun with the plain command: its report and charts equal the committed ones byte for byte"
# jobs/niuniu_multiway.toml (about 3 minutes on 2 cores), run from the repository root as
# the committed report was, so the outputs must be reports/niuniu_multiway.md and its
# charts exactly.
sig=$(mktemp -d)
trap 'rm -rf "$out" "$log" "$sig"' EXIT
checkpoint=$sig/tables/niuniu_multiway/.checkpoint.bin
stop_mid_run() { # stop_mid_run SIGNAL EXPECTED_EXIT: start the job, signal it once it has saved
  local before started rc=0
  before=$(stat -c %Y.%s "$checkpoint" 2>/dev/null || true)
  PIPELINE_CHECKPOINT_MS=1000 "$bin" run jobs/niuniu_multiway.toml --out "$sig" --quiet \
    > /dev/null 2> "$sig/stderr" &
  local pid=$!
  started=$SECONDS
  while [ "$(stat -c %Y.%s "$checkpoint" 2>/dev/null || true)" = "$before" ]; do
    [ $((SECONDS - started)) -lt 300 ] || { echo "FAILED: no checkpoint after 300 s"; exit 1; }
    sleep 0.5
  done
  sleep 5
  kill "-$1" "$pid"
  wait "$pid" || rc=$?
  if [ "$rc" != "$2" ] || ! grep -q "^interrupted: [0-9]* of [0-9]* units saved" "$sig/stderr"; then
    echo "FAILED: SIG$1 gave exit $rc (expected $2):"; cat "$sig/stderr"; exit 1
  fi
  echo "SIG$1: $(grep '^interrupted' "$sig/stderr"), exit $rc"
  passed=$((passed + 1))
}
stop_mid_run INT 130
stop_mid_run TERM 143
"$bin" run jobs/niuniu_multiway.toml --out "$sig" --quiet > /dev/null 2> "$sig/stderr"
grep "^resuming: " "$sig/stderr" || { echo "FAILED: the plain rerun did not resume"; cat "$sig/stderr"; exit 1; }
cmp reports/niuniu_multiway.md "$sig/reports/niuniu_multiway.md"
for chart in reports/niuniu_multiway/*.svg; do
  cmp "$chart" "$sig/$chart"
done
echo "ok: stopped twice and resumed, the outputs equal the committed report and charts"
passed=$((passed + 1))

step "the Python package: build its abi3 wheel with maturin, install it, run its tests on the tables those jobs wrote"
cargo fmt --manifest-path python/Cargo.toml -- --check
PYO3_PYTHON=$repo/.venv/bin/python cargo clippy --manifest-path python/Cargo.toml --release --quiet -- -D warnings
.venv/bin/maturin build --release --quiet -m python/Cargo.toml -o "$out/wheels" --interpreter .venv/bin/python
.venv/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$out"/wheels/cardtables-*.whl
pytest_log=$(mktemp)
(cd "$out" && CARDTABLES_TABLES="$out/tables" "$repo/.venv/bin/python" -m pytest -q -p no:cacheprovider \
  "$repo/python/tests") | tee "$pytest_log"
passed=$((passed + $(grep -oE '[0-9]+ passed' "$pytest_log" | grep -oE '[0-9]+')))
rm -f "$pytest_log"

if [ "${CI:-}" = "true" ] || [ "${PIPELINE_TEST_SLURM:-}" = "1" ]; then
  step "a 4-shard Slurm array + merge on a one-node cluster (scripts/test_slurm.sh)"
  scripts/test_slurm.sh
  passed=$((passed + 1))
fi

step "all checks passed"
echo "$passed passed, $failed failed ($((SECONDS - script_start)) s in all)"
