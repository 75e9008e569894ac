#!/usr/bin/env bash
# Times the niuniu seed's Java exactProbability() (shared/seeds/003_*.txt), the baseline
# for the category-count benchmark. The Java source is cut from the seed at run time and
# compiled in a temp folder; nothing of it is stored in this repository.
# Usage: scripts/bench_seed_java.sh [RUNS]   (needs javac and java)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
seed=$(ls ../shared/seeds/003_*.txt 2>/dev/null | head -n1)
[ -n "$seed" ] || { echo "niuniu seed not found under ../shared/seeds" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The class runs from 'import java.util.*;' to the line before the prose after it.
awk '/^import java.util/{on=1} on&&/^算法复杂度分析/{exit} on{print}' "$seed" > "$work/BullFight.java"
cat > "$work/SeedTiming.java" <<JAVA
public class SeedTiming {
    public static void main(String[] args) {
        int runs = Integer.parseInt(args[0]);
        long[] ns = new long[runs];
        long first = 0;
        for (int i = 0; i < runs; i++) {
            long t = System.nanoTime();
            BullFight.exactProbability();
            ns[i] = System.nanoTime() - t;
            if (i == 0) first = ns[0];
        }
        java.util.Arrays.sort(ns);
        System.out.printf("seed exactProbability(): first %.1f ms, median of %d runs %.1f ms, min %.1f ms%n",
            first / 1e6, runs, ns[runs / 2] / 1e6, ns[0] / 1e6);
    }
}
JAVA
javac -d "$work" "$work/BullFight.java" "$work/SeedTiming.java"
java -cp "$work" SeedTiming "$runs" | grep -v '总组合数'
