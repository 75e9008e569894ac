"""Times the Python package's table opens and vectorised lookups (issue 19's Python goal:
at least 50 M lookups a second).

    python scripts/bench_python.py TABLES_DIR

TABLES_DIR holds `niuniu/niuniu.bin` and `zhajinhua/zhajinhua.bin` (what
`scripts/quick_jobs.sh` or `pipeline run jobs/niuniu.toml` and `jobs/zhajinhua.toml`
write). Each figure is the best of five runs, timed with `time.perf_counter`; the first
vectorised Niuniu call, which builds the per-hand values, is timed on its own.
"""

import sys
import time
from math import comb
from pathlib import Path

import numpy as np

import cardtables


def best_of(runs, f):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tables = Path(sys.argv[1])
    niuniu_path = tables / "niuniu" / "niuniu.bin"
    zhajinhua_path = tables / "zhajinhua" / "zhajinhua.bin"
    rng = np.random.default_rng(19)

    def line(what, seconds, lookups=None):
        rate = f"  {lookups / seconds / 1e6:8.1f} M lookups/s" if lookups else ""
        print(f"{what:<58} {seconds * 1e3:10.3f} ms{rate}")

    line("open niuniu.bin", best_of(5, lambda: cardtables.Niuniu.open(niuniu_path)))
    niuniu = cardtables.Niuniu.open(niuniu_path)
    start = time.perf_counter()
    niuniu.win_probability_many([0])
    line("Niuniu: first vectorised call (builds per-hand values)", time.perf_counter() - start)
    every = np.arange(2_598_960, dtype=np.uint32)
    line(
        "Niuniu.win_probability_many, all 2,598,960 in order",
        best_of(5, lambda: niuniu.win_probability_many(every)),
        every.size,
    )
    random = rng.integers(0, 2_598_960, 1_000_000, dtype=np.uint32)
    line(
        "Niuniu.win_probability_many, 1 M random indices",
        best_of(5, lambda: niuniu.win_probability_many(random)),
        random.size,
    )

    line("open zhajinhua.bin", best_of(5, lambda: cardtables.Zhajinhua.open(zhajinhua_path)))
    zhajinhua = cardtables.Zhajinhua.open(zhajinhua_path)
    hands = rng.integers(0, 22_100, 1_000_000, dtype=np.uint32)
    line(
        "Zhajinhua.win_rate_many, 1 M random indices, 1 opponent",
        best_of(5, lambda: zhajinhua.win_rate_many(hands, 1)),
        hands.size,
    )
    single = [_ids(int(i)) for i in hands[:100_000]]
    line(
        "Zhajinhua.win_rate, one call per hand (card ids), 100,000",
        best_of(5, lambda: [zhajinhua.win_rate(cards, 1) for cards in single]),
        len(single),
    )


def _ids(index):
    """The three card ids of colex index `index`, largest first."""
    ids = []
    for k in (3, 2, 1):
        n = k - 1
        while comb(n + 1, k) <= index:
            n += 1
        ids.append(n)
        index -= comb(n, k)
    return ids


if __name__ == "__main__":
    main()
