#!/usr/bin/env python3
"""Side-by-side timings against peer programs, run here, alternately, whole process.

Usage: scripts/bench_peers.py PIPELINE PEERS_DIR [--runs N] [--only TEXT]
(--only: time only the workloads whose name holds TEXT, such as "eval" or "MC AsAh")

PEERS_DIR holds the peers built from their public sources (scripts/peers/build.sh):
  omp_driver   OMPEval's EquityCalculator behind scripts/peers/omp_driver.cpp
  omp_test     OMPEval's own test and benchmark program (its random-order evaluation)
  strategy     Eric Farmer's blackjack strategy calculator, as shipped
  strategy_trimmed (optional) the same with its second, unused analysis removed; timed
               only when its screen text and output file equal the shipped one's
A peer that is missing is skipped, and said so.

Each workload runs ours and the peer's alternately N times (default 7), one thread each,
and compares medians: for Monte Carlo, trials per second of wall time, the whole process
(start-up included); for exact and blackjack work, the whole process's seconds. The
ratio is ours over the peer's speed (above 1: we are faster). Random-order 7-card
evaluation is timed inside each program instead (evaluations per second of its timed loop
over the same 10^7 hands, 50 passes): examples/eval_random.rs, found beside PIPELINE
(target/release/examples/eval_random), against OMPEval's own benchmark program
(PEERS_DIR/omp_test, its line "Random order evaluation (card arrays)"), once per batch
path this CPU has (PIPELINE_EVAL_BATCH forces each).
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time


def wall(cmd, stdin=None, cwd=None):
    """Runs cmd, returns (seconds, stdout)."""
    start = time.perf_counter()
    done = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True,
                          cwd=cwd)
    return time.perf_counter() - start, done.stdout


def ours_mc(pipeline, ranges, std_error):
    def run():
        t, out = wall([pipeline, "equity", *ranges, "--threads", "1",
                       "--std-error", str(std_error), "--json"])
        return json.loads(out)["trials"] / t
    return run


def peer_mc(driver, ranges, seconds):
    def run():
        t, out = wall([driver, "mc", "1", str(seconds), "-", *ranges])
        hands = int(re.search(r"hands (\d+)", out).group(1))
        return hands / t
    return run


def ours_time(cmd):
    def run():
        return 1.0 / wall(cmd)[0]
    return run


def peer_time(cmd, stdin=None, cwd=None):
    def run():
        return 1.0 / wall(cmd, stdin, cwd)[0]
    return run


def eval_env(path):
    """The environment with PIPELINE_EVAL_BATCH forcing `path` (None: the CPU's fastest)."""
    env = dict(os.environ)
    env.pop("PIPELINE_EVAL_BATCH", None)
    if path:
        env["PIPELINE_EVAL_BATCH"] = path
    return env


def ours_eval(example, mode, path=None):
    """Our random-order evaluation rate (evaluations/s of its timed loop), from
    examples/eval_random.rs; `path` forces the batch path (PIPELINE_EVAL_BATCH)."""
    env = eval_env(path)

    def run():
        out = subprocess.run([example, mode], capture_output=True, text=True, check=True,
                             env=env).stdout
        return float(re.search(r"([0-9.]+) M/s", out).group(1)) * 1e6
    return run


def peer_eval(omp_test):
    """OMPEval's random-order evaluation rate: the line after "Random order evaluation
    (card arrays):" of its own test program (the same 10^7 hands x 50 passes)."""
    def run():
        out = subprocess.run([omp_test], capture_output=True, text=True, check=True).stdout
        line = re.search(r"Random order evaluation \(card arrays\):\s*\n\s*\d+ evals\s+([0-9.]+)M/s",
                         out)
        return float(line.group(1)) * 1e6
    return run


def batch_path(example, path=None):
    """The batch path examples/eval_random takes (with `path` forced, if given)."""
    out = subprocess.run([example, "batch"], capture_output=True, text=True, check=True,
                         env=eval_env(path)).stdout
    return out.split(":")[0]


def same_output(programs, stdin, scratch):
    """Whether every program (those present) writes the same screen text and output
    file for the same input: the trimmed peer must do exactly the shipped one's work."""
    seen = set()
    for i, program in enumerate(p for p in programs if os.access(p, os.X_OK)):
        folder = os.path.join(scratch, f"same_{i}")
        os.makedirs(folder, exist_ok=True)
        _, screen = wall([os.path.abspath(program)], stdin, folder)
        with open(os.path.join(folder, "out.txt"), "rb") as f:
            seen.add((screen, f.read()))
    return len(seen) <= 1


def cpu_model():
    """The CPU's name and the features that pick the evaluation paths, as Linux gives
    them (a table of ratios means little without the machine)."""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
    except OSError:
        return "unknown CPU"
    name = re.search(r"(?m)^model name\s*:\s*(.*)$", text)
    family = re.search(r"(?m)^cpu family\s*:\s*(\d+)$", text)
    model = re.search(r"(?m)^model\s*:\s*(\d+)$", text)
    flags_line = re.search(r"(?m)^flags\s*:\s*(.*)$", text)
    flags = set(flags_line.group(1).split()) if flags_line else set()
    has = [f for f in ("avx2", "avx512bw", "avx512vbmi") if f in flags]
    return (f"{name.group(1).strip() if name else 'unknown CPU'}"
            f"{f' (family {family.group(1)} model {model.group(1)})' if family and model else ''}"
            f", {' '.join(has) if has else 'no AVX2'}")


def main():
    args = sys.argv[1:]

    def option(name, default):
        """The value after `name` (removed from args), or `default` without it."""
        if name not in args:
            return default
        i = args.index(name)
        if i + 1 >= len(args):
            sys.exit(f"{name} needs a value\n{__doc__}")
        value = args[i + 1]
        del args[i:i + 2]
        return value
    runs = option("--runs", "7")
    if not runs.isdigit() or int(runs) < 1:
        sys.exit(f"--runs takes a whole number of runs, 1 or more, not {runs!r}")
    runs = int(runs)
    only = option("--only", "")
    if len(args) != 2:
        sys.exit(__doc__)
    pipeline, peers = args
    omp = os.path.join(peers, "omp_driver")
    farmer = os.path.join(peers, "strategy")
    trimmed = os.path.join(peers, "strategy_trimmed")
    scratch = os.path.join(peers, "scratch")
    os.makedirs(scratch, exist_ok=True)
    job = os.path.join(scratch, "bj6d_analysis.toml")
    with open("jobs/blackjack_6d_s17.toml") as f:
        text = re.sub(r"(?m)^rounds = .*$", "rounds = 0", f.read())
    with open(job, "w") as f:
        f.write(text)
    farmer_input = "\n".join("6 n y y n y y n y n 1.5 out.txt 0 0".split()) + "\n"
    ours_all3 = ours_mc(pipeline, ["random"] * 3, 5e-5)
    # Known hands against random ones (one fixed holding, then two), up to the six
    # players both programs take; each beside our all-random rate for as many players.
    # (Against one random hand the answer is exact, every deal: no Monte Carlo rate.)
    work = []
    for fixed in (["AsAh"], ["AsAh", "KdKc"]):
        for k in range(2, 7 - len(fixed)):
            ranges = fixed + ["random"] * k
            players = len(ranges)
            work.append((f"MC {' '.join(fixed)} vs {k} random (trials/s)", "M/s",
                         ours_mc(pipeline, ranges, 5e-5),
                         omp, peer_mc(omp, ranges, 1),
                         ours_all3 if players == 3 else ours_mc(pipeline, ["random"] * players,
                                                                5e-5)))
    work += [
        ("MC random x3 (trials/s)", "M/s", ours_all3,
         omp, peer_mc(omp, ["random"] * 3, 1), None),
        ("exact QQ+,AK vs JJ-99 on Ks 7d 2c (1/s)", "/s",
         ours_time([pipeline, "equity", "QQ+,AK", "JJ-99", "--board", "Ks 7d 2c",
                    "--threads", "1", "--json"]),
         omp, peer_time([omp, "enum", "1", "0", "Ks7d2c", "QQ+,AK", "JJ-99"]), None),
        ("exact TT+,AQs+,AQo+ vs QQ+,AK vs TT on Ks 7d 2c (1/s)", "/s",
         ours_time([pipeline, "equity", "TT+,AQs+,AQo+", "QQ+,AK", "TT", "--board",
                    "Ks 7d 2c", "--threads", "1", "--json"]),
         omp, peer_time([omp, "enum", "1", "0", "Ks7d2c", "TT+,AQs+,AQo+", "QQ+,AK", "TT"]),
         None),
    ]
    # Random-order 7-card evaluation, each of our paths against OMPEval's own benchmark
    # loop (both time only their loop over the same 10^7 hands x 50: evaluations/s).
    example = os.path.join(os.path.dirname(pipeline), "examples", "eval_random")
    omp_test = os.path.join(peers, "omp_test")
    if os.access(example, os.X_OK):
        rows = [("one hand a call", "one", None)]
        fastest = batch_path(example)
        rows.append((f"batch, {fastest} (fastest here)", "batch", None))
        for forced in ("avx2",):
            if forced != fastest and batch_path(example, forced) == forced:
                rows.append((f"batch, {forced} forced", "batch", forced))
        for label, mode, forced in rows:
            work.append((f"eval random order, {label} (evals/s)", "M/s",
                         ours_eval(example, mode, forced), omp_test, peer_eval(omp_test),
                         None))
    else:
        print(f"skipped the evaluation rows: no {example} "
              "(cargo build --release --example eval_random)")
    bj = ours_time([pipeline, "run", job, "--out", os.path.join(scratch, "bj"), "--quiet",
                    "--threads", "1"])
    peers_same = same_output([farmer, trimmed], farmer_input, scratch)
    for name, path in [("as shipped", farmer), ("unused analysis removed", trimmed)]:
        if path == trimmed and not peers_same:
            print(f"skipped: {trimmed} writes other output than {farmer}, not timed")
            continue
        work.append((f"blackjack 6d S17 DAS, rounds = 0 vs Farmer {name} (1/s)", "/s", bj,
                     path, peer_time([os.path.abspath(path)], farmer_input, scratch), None))
    print(f"machine: {os.cpu_count()} cores, {cpu_model()}")
    print(f"{'workload':<58} {'ours':>10} {'peer':>10} {'ratio':>7} {'vs all-random':>14}")
    for name, unit, ours, peer_path, peer, baseline in work:
        if only not in name:
            continue
        if not os.access(peer_path, os.X_OK):
            print(f"{name:<58} skipped: no {peer_path}")
            continue
        a, b, c = [], [], []
        for _ in range(runs):
            a.append(ours())
            b.append(peer())
            if baseline:
                c.append(baseline())
        ma, mb = statistics.median(a), statistics.median(b)
        scale = 1e-6 if unit == "M/s" else 1.0
        base = f"{ma / statistics.median(c):>13.2f}x" if c else ""
        print(f"{name:<58} {ma * scale:>10.3f} {mb * scale:>10.3f} {ma / mb:>6.2f}x {base:>14}")
    print(f"medians of {runs} alternating runs, one thread, whole process "
          "(the evaluation rows: each program's timed loop)")


if __name__ == "__main__":
    main()
