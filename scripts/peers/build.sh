#!/usr/bin/env bash
# Builds the peers of scripts/bench_peers.py into OUT from checkouts of their public
# sources (fetched by you; nothing of theirs is kept in this repository):
#   scripts/peers/build.sh OMPEVAL_SRC FARMER_SRC OUT
# OMPEVAL_SRC: github.com/zekyll/OMPEval; FARMER_SRC: github.com/possibly-wrong/blackjack.
# Both are built with -O3 -march=native into a scratch copy. OMPEval needs two one-line
# fixes to build with a current g++ (a missing #include <functional>, and constexpr
# min/max in its random engine), applied to the copy.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 OMPEVAL_SRC FARMER_SRC OUT" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
omp_src=$1 farmer_src=$2 out=$3
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$omp_src" "$work/omp"
grep -q '#include <functional>' "$work/omp/omp/EquityCalculator.h" ||
  sed -i 's|#include <chrono>|#include <chrono>\n#include <functional>|' "$work/omp/omp/EquityCalculator.h"
sed -i 's/static uint64_t min()/static constexpr uint64_t min()/; s/static uint64_t max()/static constexpr uint64_t max()/' \
  "$work/omp/omp/Random.h"
make -C "$work/omp" CXXFLAGS='-O3 -march=native -std=c++11 -pthread' lib/ompeval.a >/dev/null
g++ -O3 -march=native -std=c++11 -pthread -I"$work/omp" "$here/omp_driver.cpp" \
  "$work/omp/lib/ompeval.a" -o "$out/omp_driver"
# OMPEval's own test and benchmark program, for its random-order evaluation figure.
make -C "$work/omp" CXXFLAGS='-O3 -march=native -std=c++11 -pthread' test >/dev/null
cp "$work/omp/test" "$out/omp_test"
cp -r "$farmer_src" "$work/farmer"
(cd "$work/farmer/src" && g++ -O3 -march=native -I. -Ipdf strategy.cpp blackjack.cpp \
  pdf/blackjack_pdf.cpp indices.cpp -o "$out/strategy")
# (The source has CRLF line ends.) strategy_trimmed: the same program with its second analysis made lazy. `main` builds an
# IndexStrategy (a whole second strategy computation) that only the outcome distribution
# uses, and that distribution is computed only without resplits and with CDZ-; the trimmed
# copy builds it inside that branch, so every answer and output file is byte-identical
# (scripts/bench_peers.py checks the two output files are equal before it times them).
grep -q '^    IndexStrategy no_insurance(rules, std::vector<double>(11), 26, \*shoe);' \
  "$work/farmer/src/strategy.cpp" || { echo "strategy.cpp changed: trim not applied" >&2; exit 1; }
sed -i -e '/^    IndexStrategy no_insurance(rules, std::vector<double>(11), 26, \*shoe);/d' \
  -e 's|^        pdf = compute_pdf(\*shoe, rules, \*player, no_insurance);|        IndexStrategy no_insurance(rules, std::vector<double>(11), 26, *shoe);\n&|' \
  "$work/farmer/src/strategy.cpp"
(cd "$work/farmer/src" && g++ -O3 -march=native -I. -Ipdf strategy.cpp blackjack.cpp \
  pdf/blackjack_pdf.cpp indices.cpp -o "$out/strategy_trimmed")
echo "built $out/omp_driver, $out/omp_test, $out/strategy and $out/strategy_trimmed"
