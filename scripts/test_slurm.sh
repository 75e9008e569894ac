#!/usr/bin/env bash
# Runs a real job as a 4-task Slurm array plus the merge step on a one-node Slurm cluster
# started here (Debian's slurmctld, slurmd and munge; config and state in a temp folder),
# then checks that the merged outputs are byte-identical to a single-process run. Then
# preemption: a task of a longer array gets SIGTERM mid-run (scancel --signal=TERM, as
# Slurm preempts), is requeued (scontrol requeue), resumes from its checkpoint, and the
# merged outputs are again byte-identical to a single-process run.
# scripts/test.sh runs this when CI=true or PIPELINE_TEST_SLURM=1. Needs root for apt.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

say() { printf 'test_slurm: %s\n' "$*"; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  say "installing Slurm and munge from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    slurmctld slurmd slurm-client munge >/dev/null
fi

cargo build --release --quiet
export PIPELINE="$repo/target/release/pipeline"

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# munge: a fresh key and socket in the temp folder.
mkdir -p "$work/munge"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/seed"
pids+=("$(cat "$work/munge/munged.pid")")

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool" "$work/out"
cat > "$work/slurm.conf" <<CONF
ClusterName=pipelinetest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"

slurmctld -i
slurmd
for _ in $(seq 1 50); do
  [ -s "$work/slurmctld.pid" ] && [ -s "$work/slurmd.pid" ] && break
  sleep 0.2
done
pids+=("$(cat "$work/slurmctld.pid")" "$(cat "$work/slurmd.pid")")
for _ in $(seq 1 100); do
  sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 0.3
done
sinfo -h -o '%T' | grep -qE '^(idle|mixed|allocated)' || {
  say "the node never became ready"; tail -20 "$work/slurmctld.log" "$work/slurmd.log"; exit 1; }
say "one-node cluster up ($cpus CPUs)"

job=jobs/niuniu.toml
ids=$(scripts/slurm/submit.sh "$job" "$work/out" 4)
say "submitted: $ids"
for _ in $(seq 1 600); do
  [ -z "$(squeue -h 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h)" ] || { say "jobs still queued after 5 minutes"; squeue; exit 1; }
for log in "$work"/out/pipeline-*.out; do
  [ -s "$log" ] && { say "output of $(basename "$log"):"; cat "$log"; }
done
for i in 0 1 2 3; do
  [ -f "$work/out/tables/niuniu/parts/part-0000$i-of-00004.bin" ] || {
    say "shard $i wrote no part"; exit 1; }
done
[ -f "$work/out/tables/niuniu/manifest.json" ] || { say "the merge step did not run"; exit 1; }

# The same job path the array tasks were given, so the reports name the same file.
"$PIPELINE" run "$(realpath "$job")" --out "$work/single" --quiet
status=0
for f in hands.parquet categories.parquet niuniu.bin; do
  if cmp -s "$work/out/tables/niuniu/$f" "$work/single/tables/niuniu/$f"; then
    say "$f: merged = single run"
  else
    say "$f: merged and single-run outputs differ"; status=1
  fi
done
cmp -s "$work/out/reports/niuniu.md" "$work/single/reports/niuniu.md" || {
  say "reports differ"; status=1; }
[ "$status" = 0 ] || exit 1
say "ok: 4-task Slurm array + merge is byte-identical to a single run"

# Preemption and requeue. A Monte Carlo job of about 10 s a shard on one thread.
pjob=$work/preempt.toml
cat > "$pjob" <<'TOML'
[job]
kind = "zhajinhua.multiway"
name = "preempt"
[run]
seed = 5
target_std_error = 0.001
threads = 1
TOML
mkdir -p "$work/pout"
array=$(sbatch --parsable --array=0-1 --chdir="$work/pout" \
  scripts/slurm/pipeline-array.sbatch "$pjob" "$work/pout")
array=${array%%;*}
checkpoint=$work/pout/tables/preempt/.checkpoint-part-00001-of-00002.bin
for _ in $(seq 1 600); do
  [ -f "$checkpoint" ] && break
  sleep 0.1
done
[ -f "$checkpoint" ] || { say "task 1 never wrote a checkpoint"; squeue; exit 1; }
scancel --batch --signal=TERM "${array}_1"
for _ in $(seq 1 300); do
  [ -z "$(squeue -h -j "${array}_1" 2>/dev/null)" ] && break
  sleep 0.2
done
log=$work/pout/pipeline-${array}_1.out
grep -q "^interrupted: [0-9]* of [0-9]* units saved" "$log" || {
  say "the signalled task did not save and say so:"; cat "$log"; exit 1; }
[ -f "$checkpoint" ] || { say "the signalled task left no checkpoint"; exit 1; }
say "task 1 stopped by SIGTERM: $(grep '^interrupted' "$log")"
scontrol requeue "${array}_1"
for _ in $(seq 1 600); do
  [ -z "$(squeue -h 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h)" ] || { say "the requeued task did not finish"; squeue; exit 1; }
grep -q "^resuming: " "$log" || { say "the requeued task did not resume:"; cat "$log"; exit 1; }
say "task 1 requeued: $(grep '^resuming' "$log" | tail -1)"
for i in 0 1; do
  [ -f "$work/pout/tables/preempt/parts/part-0000$i-of-00002.bin" ] || {
    say "shard $i wrote no part"; cat "$work"/pout/pipeline-*.out; exit 1; }
done
"$PIPELINE" merge "$work/pout/tables/preempt/parts" --out "$work/pout" --quiet > /dev/null
"$PIPELINE" run "$pjob" --out "$work/psingle" --quiet > /dev/null
for f in tables/preempt/hands.parquet tables/preempt/zhajinhua.bin reports/preempt.md; do
  cmp -s "$work/pout/$f" "$work/psingle/$f" || { say "$f: preempted+merged and single run differ"; exit 1; }
done
say "ok: a task preempted by SIGTERM and requeued resumes; the merge is byte-identical to a single run"
