#!/usr/bin/env bash
# Benchmarks: the criterion micro-benchmarks of every bench target (niuniu, zhajinhua,
# holdem, blackjack), then end-to-end `pipeline run` timings of the two Niuniu jobs on one
# thread and on every core (hyperfine when installed, else a plain loop reporting the
# median), then the runtime tables opened and queried from C (examples/c/bench.c) and from
# Python (scripts/bench_python.py, when scripts/test.sh has installed the wheel in .venv),
# then the side-by-side workloads (one thread, whole process), each with the peer command
# to run beside it. The other jobs' timings in reports/BENCHMARKS.md come from their
# manifests.
# With --peers DIR (peers built by scripts/peers/build.sh), it also runs the peers itself,
# alternately with ours, and prints each ratio (scripts/bench_peers.py).
# Usage: scripts/bench.sh [--quick] [--peers DIR]    (--quick skips criterion)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=no
peers=
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=yes; shift ;;
    --peers)
      [ $# -ge 2 ] || { echo "--peers needs a folder (scripts/peers/build.sh builds one)" >&2; exit 2; }
      peers=$2; shift 2 ;;
    *) echo "unknown argument $1; usage: scripts/bench.sh [--quick] [--peers DIR]" >&2; exit 2 ;;
  esac
done

if [ "$quick" = no ]; then
  cargo bench --bench niuniu
  cargo bench --bench zhajinhua
  cargo bench --bench holdem
  cargo bench --bench blackjack
fi

cargo build --release --quiet
bin=target/release/pipeline
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
batch=scalar # the path Tables::evaluate_many takes here (PIPELINE_EVAL_BATCH forces one)
grep -qw avx2 /proc/cpuinfo && batch=avx2
grep -qw avx512vbmi /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo && batch=avx512
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "fastest batch evaluator: $batch${PIPELINE_EVAL_BATCH:+ (PIPELINE_EVAL_BATCH=$PIPELINE_EVAL_BATCH asks for a path; one the CPU lacks falls back)}"
for job in jobs/niuniu.toml jobs/niuniu_extended.toml; do
  for threads in 1 0; do
    label="$job --threads $threads"
    if command -v hyperfine >/dev/null; then
      hyperfine --warmup 1 --runs 7 -N --style basic --command-name "$label" \
        --export-json "$out/h.json" "$bin run $job --out $out --quiet --threads $threads"
      python3 - "$out/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"{r['command']:<40} median of {len(r['times'])}: {r['median']:.3f} s "
      f"(user {r['user']:.3f} s, system {r['system']:.3f} s, mean)")
PY
    else
      times=()
      for _ in 1 2 3 4 5 6 7; do
        start=$(date +%s.%N)
        "$bin" run "$job" --out "$out" --quiet --threads "$threads" > /dev/null
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc -l)")
      done
      median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 4p)
      printf '%-40s median of 7: %.3f s\n' "$label" "$median"
    fi
  done
done

# The runtime from C and from Python, on the tables of jobs/niuniu.toml (written above)
# and jobs/zhajinhua.toml.
"$bin" run jobs/zhajinhua.toml --out "$out" --quiet
cargo build --release --quiet -p cardtables-ffi
"${CC:-cc}" -O2 -std=c99 -Wall -Wextra -Werror -Iffi/include examples/c/bench.c \
  target/release/libcardtables_ffi.a -lpthread -ldl -lm -o "$out/c_bench"
echo "C ABI, from C (examples/c/bench.c):"
"$out/c_bench" "$out/tables/niuniu/niuniu.bin" "$out/tables/zhajinhua/zhajinhua.bin"
if .venv/bin/python -c "import cardtables" 2>/dev/null; then
  echo "Python package (scripts/bench_python.py):"
  .venv/bin/python scripts/bench_python.py "$out/tables"
else
  echo "Python package: skipped (scripts/test.sh installs its wheel into .venv)"
fi

# Side by side with peers (reports/BENCHMARKS.md keeps the dated ratio tables): each
# workload's whole-process median of 7 runs on one thread, with the peer command to run
# beside it. Peers are built from their public sources in a scratch folder, never here:
#   OMPEval (github.com/zekyll/OMPEval): g++ -O3 -march=native, a driver calling
#     EquityCalculator::start(ranges, board, 0, enumerate, 0, callback, 0.05, threads);
#   Eric Farmer's strategy calculator (github.com/possibly-wrong/blackjack, src/):
#     g++ -O3 -march=native -I. -Ipdf strategy.cpp blackjack.cpp pdf/blackjack_pdf.cpp indices.cpp
median_of_7() { # median_of_7 CMD...: whole-process seconds, median of 7 runs
  local times=() start end
  for _ in 1 2 3 4 5 6 7; do
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 4p
}
side() { # side LABEL PEER -- CMD...
  local label=$1 peer=$2
  shift 3
  printf '%-52s %8.4f s   peer: %s\n' "$label" "$(median_of_7 "$@")" "$peer"
}
echo "side by side (one thread, whole process, median of 7):"
sed -e 's/^rounds = .*/rounds = 0/' jobs/blackjack_6d_s17.toml > "$out/bj6d_analysis.toml"
side "blackjack 6d S17 DAS split to 4, rounds = 0" \
  "printf '6 n y y n y y n y n 1.5 out.txt 0 0' | tr ' ' '\n' | ./strategy" -- \
  "$bin" run "$out/bj6d_analysis.toml" --out "$out/bj" --quiet --threads 1
side "equity QQ+,AK vs JJ-99 on Ks 7d 2c, exact" "driver enum 1 Ks7d2c QQ+,AK JJ-99" -- \
  "$bin" equity "QQ+,AK" "JJ-99" --board "Ks 7d 2c" --threads 1 --json
side "equity TT+,AQs+,AQo+ vs QQ+,AK vs TT on Ks 7d 2c, exact" \
  "driver enum 1 Ks7d2c TT+,AQs+,AQo+ QQ+,AK TT" -- \
  "$bin" equity "TT+,AQs+,AQo+" "QQ+,AK" TT --board "Ks 7d 2c" --threads 1 --json
side "equity random x3, Monte Carlo to s.e. 1e-4" "driver mc 1 (trials/s)" -- \
  "$bin" equity random random random --threads 1 --std-error 1e-4 --json
side "equity random x6, Monte Carlo to s.e. 1e-4" "driver mc 1 (trials/s)" -- \
  "$bin" equity random random random random random random --threads 1 --std-error 1e-4 --json
echo "calculation alone: cargo bench --bench holdem -- holdem_range_equity (RAYON_NUM_THREADS=1 for one thread);"
echo "random-order evaluation: cargo bench --bench holdem -- 'holdem_eval/random_order_10m'"
echo "  (one hand a call, and the batch API), or target/release/examples/eval_random one|batch,"
echo "  timed as OMPEval's own benchmark times its loop: make CXXFLAGS='-O3 -march=native"
echo "  -std=c++11 -pthread' && ./test, its line 'Random order evaluation (card arrays)'"
echo "  (10^7 hands x 50, as ours); --peers runs both"
if [ -n "$peers" ]; then
  cargo build --release --quiet --example eval_random
  echo "side by side with the peers in $peers (scripts/bench_peers.py):"
  python3 scripts/bench_peers.py "$bin" "$peers"
fi
