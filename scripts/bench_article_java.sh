#!/usr/bin/env bash
# Times the Java exactProbability() of the Niuniu tutorial article the project started
# from, the baseline for the category-count benchmark. The article is not part of this
# repository: pass the path of its text. The Java source is cut from it at run time and
# compiled in a temp folder; nothing of it is stored here.
# Usage: scripts/bench_article_java.sh ARTICLE.txt [RUNS]   (needs javac and java)
set -euo pipefail
article=${1:?usage: scripts/bench_article_java.sh ARTICLE.txt [RUNS]}
runs=${2:-15}
[ -f "$article" ] || { echo "no such file: $article" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The class runs from 'import java.util.*;' to the line before the prose after it.
awk '/^import java.util/{on=1} on&&/^算法复杂度分析/{exit} on{print}' "$article" > "$work/BullFight.java"
cat > "$work/ArticleTiming.java" <<JAVA
public class ArticleTiming {
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
        System.out.printf("article exactProbability(): first %.1f ms, median of %d runs %.1f ms, min %.1f ms%n",
            first / 1e6, runs, ns[runs / 2] / 1e6, ns[0] / 1e6);
    }
}
JAVA
javac -d "$work" "$work/BullFight.java" "$work/ArticleTiming.java"
java -cp "$work" ArticleTiming "$runs" | grep -v '总组合数'
