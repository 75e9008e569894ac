#!/usr/bin/env bash
# Golden outputs: runs every fast shipped job (and the quick variants scripts/test.sh runs)
# into a scratch folder and compares the SHA-256 of every output (Parquet, runtime tables,
# reports, SVG charts; not manifest.json, whose timings vary) with scripts/golden.sha256.
#
#   scripts/golden.sh          check (exit 1 and a diff on any change)
#   scripts/golden.sh --update rewrite scripts/golden.sha256 (only for a deliberate change,
#                              named in the commit message)
#
# Refactors must leave this unchanged: the outputs are a function of the job file alone.
set -euo pipefail
cd "$(dirname "$0")/.."
update=false
[ "${1:-}" = "--update" ] && update=true

cargo build --release --quiet
repo=$PWD
bin=$repo/target/release/pipeline
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Run from the scratch folder with relative job paths (jobs/NAME.toml), as a user would,
# so the job path that reports name is the same on every machine.
(
  cd "$out"
  "$repo/scripts/quick_jobs.sh" jobs > jobs.txt
  while read -r job; do
    "$bin" run "$job" --out . --quiet > /dev/null
  done < jobs.txt
)
got="$out/golden.sha256"
(cd "$out" && find tables reports -type f ! -name manifest.json -print0 \
  | sort -z | xargs -0 sha256sum) > "$got"
if $update; then
  cp "$got" scripts/golden.sha256
  echo "scripts/golden.sha256: $(wc -l < "$got") files"
elif diff -u scripts/golden.sha256 "$got"; then
  echo "golden outputs: $(wc -l < "$got") files identical"
else
  echo "golden outputs changed (see the diff above)" >&2
  exit 1
fi
