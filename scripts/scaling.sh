#!/usr/bin/env bash
# How the jobs scale across cores: runs each job at 1, 2, 4, … threads up to the cores
# present (and the core count itself), then prints, from each run's manifest, the wall time
# of each phase (units, build, write), the speed-up over one thread and the efficiency
# (speed-up ÷ threads), and flags any phase that takes over 10 % of the wall time at the
# highest thread count while barely speeding up (a serial phase to parallelise or explain).
#
# Usage: scripts/scaling.sh [JOB.toml …]
#   With no job files: the fast jobs and quick variants of scripts/quick_jobs.sh.
#   SCALING_RUNS=N (default 3): runs per job and thread count; the median wall time is kept.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${SCALING_RUNS:-3}
case $runs in
  '' | *[!0-9]*) echo "SCALING_RUNS must be a whole number of runs, got '$runs'" >&2; exit 2 ;;
esac
if [ "$runs" -lt 1 ] || [ "$runs" -gt 20 ]; then
  echo "SCALING_RUNS must be 1 to 20, got $runs" >&2
  exit 2
fi

cargo build --release --quiet
bin=target/release/pipeline
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ $# -gt 0 ]; then
  jobs=("$@")
else
  mapfile -t jobs < <(scripts/quick_jobs.sh "$work/jobs")
fi

cores=$(nproc)
threads=()
t=1
while [ "$t" -lt "$cores" ]; do
  threads+=("$t")
  t=$((t * 2))
done
threads+=("$cores")

echo "machine: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "runs per point: $runs (median wall time kept)"
results="$work/results.tsv"
: > "$results"
for job in "${jobs[@]}"; do
  for t in "${threads[@]}"; do
    for run in $(seq "$runs"); do
      out="$work/out-$t-$run"
      rm -rf "$out"
      "$bin" run "$job" --out "$out" --threads "$t" --quiet > /dev/null
      # Keep the manifest: the outputs folder is reused.
      kept="$work/manifest-$(basename "$job" .toml)-$t-$run.json"
      cp "$(find "$out/tables" -name manifest.json | head -1)" "$kept"
      printf '%s\t%s\t%s\n' "$job" "$t" "$kept" >> "$results"
    done
  done
done

python3 - "$results" <<'PY'
import json, statistics, sys
from collections import defaultdict

rows = defaultdict(list)
for line in open(sys.argv[1]):
    job, threads, path = line.rstrip("\n").split("\t")
    m = json.load(open(path))
    p = m["phases"]
    rows[(job, int(threads))].append(
        (m["wall_seconds"], p["units_seconds"], p["build_seconds"], p["write_seconds"], m["job"])
    )

def median_run(runs):
    # The run with the median wall time, whole (its phases add up to its wall time).
    return sorted(runs)[len(runs) // 2]

jobs = sorted({j for j, _ in rows}, key=lambda j: list(rows).index((j, 1)))
print()
print(f"{'job':<28} {'threads':>7} {'wall s':>8} {'units s':>8} {'build s':>8} {'write s':>8}"
      f" {'speed-up':>8} {'effic.':>7}")
flags = []
for job in jobs:
    counts = sorted(t for j, t in rows if j == job)
    base = median_run(rows[(job, counts[0])])
    for t in counts:
        wall, units, build, write, name = median_run(rows[(job, t)])
        speedup = base[0] / wall if wall > 0 else float("nan")
        print(f"{name:<28} {t:>7} {wall:>8.3f} {units:>8.3f} {build:>8.3f} {write:>8.3f}"
              f" {speedup:>8.2f} {speedup / t:>7.0%}")
    top = counts[-1]
    if top > 1:
        wall = median_run(rows[(job, top)])[0]
        for i, phase in ((1, "units"), (2, "build"), (3, "write")):
            seconds = median_run(rows[(job, top)])[i]
            gain = base[i] / seconds if seconds > 0 else float("inf")
            if wall > 0 and seconds / wall > 0.10 and gain < 0.5 * top:
                flags.append(f"{base[4]}: {phase} is {seconds / wall:.0%} of the wall time at "
                             f"{top} threads and sped up {gain:.2f}x")
print()
if flags:
    print("phases over 10 % of the wall time that do not scale:")
    for f in flags:
        print("  " + f)
else:
    print("no phase over 10 % of the wall time fails to scale")
PY
