#!/usr/bin/env bash
# Benchmarks: the criterion micro-benchmarks of every bench target (niuniu, zhajinhua,
# holdem, blackjack), then end-to-end `pipeline run` timings of the two Niuniu jobs on one
# thread and on every core (hyperfine when installed, else a plain loop reporting the
# median), then the runtime tables opened and queried from C (examples/c/bench.c) and from
# Python (scripts/bench_python.py, when scripts/test.sh has installed the wheel in .venv).
# The other jobs' timings in reports/BENCHMARKS.md come from their manifests.
# Usage: scripts/bench.sh [--quick]    (--quick skips criterion)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--quick" ]; then
  cargo bench --bench niuniu
  cargo bench --bench zhajinhua
  cargo bench --bench holdem
  cargo bench --bench blackjack
fi

cargo build --release --quiet
bin=target/release/pipeline
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
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
        "$bin" run "$job" --out "$out" --quiet --threads "$threads"
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
