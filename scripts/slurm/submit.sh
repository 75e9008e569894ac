#!/usr/bin/env bash
# Submits a job as an N-task Slurm array plus a merge step that runs when every task
# succeeded. Prints the two Slurm job ids.
#   scripts/slurm/submit.sh JOB.toml OUT_DIR SHARDS
set -euo pipefail
job=${1:?usage: submit.sh JOB.toml OUT_DIR SHARDS}
out=${2:?usage: submit.sh JOB.toml OUT_DIR SHARDS}
shards=${3:?usage: submit.sh JOB.toml OUT_DIR SHARDS}
here=$(cd "$(dirname "$0")" && pwd)
# The output folder name is the job's [job] name.
name=$(awk -F'"' '/^\[job\]/{in_job=1; next} /^\[/{in_job=0} in_job && /^name *=/{print $2; exit}' "$job")
[ -n "$name" ] || { echo "submit.sh: no [job] name in $job" >&2; exit 2; }
mkdir -p "$out"
array=$(sbatch --parsable --array="0-$((shards - 1))" --chdir="$out" \
  "$here/pipeline-array.sbatch" "$(realpath "$job")" "$(realpath "$out")")
merge=$(sbatch --parsable --dependency="afterok:${array%%;*}" --chdir="$out" \
  "$here/pipeline-merge.sbatch" "$name" "$(realpath "$out")")
echo "array ${array%%;*} merge ${merge%%;*}"
