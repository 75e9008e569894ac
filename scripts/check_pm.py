#!/usr/bin/env python3
"""No ± means exact: every Monte Carlo figure a report prints carries its standard error.

Usage: check_pm.py REPORTS_A REPORTS_B NAME [NAME ...]

REPORTS_A and REPORTS_B hold the reports (NAME.md) of the same jobs run with two different
seeds. An exact figure is the same under any seed; a sampled one almost always moves. So
every number that differs between the two reports must be written as a sampled figure:
followed by `±` (the estimate) or preceded by it (its standard error), or followed by the
report's words for a figure whose error is unknown or zero. A whole number is a tally of
the simulation (rounds, deals, sessions), printed as counted. Any other bare number that
moves with the seed is a Monte Carlo figure printed as if it were exact, and fails.

Lines whose words (everything but the numbers) differ between the runs, such as a list of
the sampled close calls, are compared as a whole: each must carry a `±`.
"""

import re
import sys
from pathlib import Path

NUMBER = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")
# What may follow a sampled figure whose standard error cannot be given or is zero.
UNKNOWN = ("(s.e. unknown", "(no deal lost)", "(no deal won)")
# A whole number is a tally of the simulation (rounds played, deals, sessions lost,
# classes found), printed as counted: estimates are never printed as whole numbers.
WHOLE = re.compile(r"[-+−]?\d[\d,]*")


def split(line: str):
    """The line's words between numbers, and its numbers, in order."""
    numbers = [(m.start(), m.end(), m.group()) for m in NUMBER.finditer(line)]
    words = NUMBER.sub("#", line)
    return words, numbers


def attached(line: str, start: int, end: int) -> bool:
    """Whether the number at line[start:end] is an estimate with its ± or the error itself."""
    after = line[end:].lstrip()
    before = line[:start].rstrip()
    if after.startswith("±") or before.endswith("±"):
        return True
    if WHOLE.fullmatch(line[start:end]) and not after.startswith("%"):
        return True
    # A standard error itself: "the largest standard error of a gain is 0.173".
    if "standard error" in before[-60:] or "s.e." in before[-60:]:
        return True
    # `0.512 (± 0.003)` and `0.512 ± 0.003 %` forms, and unknown errors.
    return after.startswith("(±") or any(after.startswith(u) for u in UNKNOWN)


def check(a: Path, b: Path) -> list[str]:
    problems = []
    lines_a = a.read_text().splitlines()
    lines_b = b.read_text().splitlines()
    if len(lines_a) != len(lines_b):
        return [f"{a.name}: {len(lines_a)} lines under one seed, {len(lines_b)} under another"]
    for number, (x, y) in enumerate(zip(lines_a, lines_b), start=1):
        if x == y:
            continue
        words_x, nums_x = split(x)
        words_y, nums_y = split(y)
        if words_x != words_y:
            marked = ("±",) + UNKNOWN
            if not (any(m in x for m in marked) and any(m in y for m in marked)):
                problems.append(f"{a.name}:{number}: changes with the seed and has no ±: {x}")
            continue
        for (s, e, vx), (_, _, vy) in zip(nums_x, nums_y):
            if vx != vy and not attached(x, s, e):
                problems.append(
                    f"{a.name}:{number}: {vx} (another seed: {vy}) is sampled but has no ±: {x}"
                )
    return problems


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit("usage: check_pm.py REPORTS_A REPORTS_B NAME [NAME ...]")
    a, b = Path(sys.argv[1]), Path(sys.argv[2])
    problems = []
    moved = 0
    for name in sys.argv[3:]:
        ra, rb = a / f"{name}.md", b / f"{name}.md"
        if ra.read_text() != rb.read_text():
            moved += 1
        problems += check(ra, rb)
    if problems:
        print("\n".join(problems[:400]))
        sys.exit(f"check_pm: FAILED: {len(problems)} sampled figures printed without ±")
    if moved == 0:
        sys.exit("check_pm: FAILED: no report changed with the seed: the check saw nothing")
    print(f"check_pm: ok: {moved} of {len(sys.argv) - 3} reports move with the seed, every moving figure with its ±")


if __name__ == "__main__":
    main()
