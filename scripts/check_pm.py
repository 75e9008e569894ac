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

The reports are aligned line by line on their words (everything but the numbers); lines
only one run printed, or printed with other words (a list whose rows depend on the sample),
must each carry a `±` unless every number in them is a tally.
"""

import difflib
import re
import sys
from pathlib import Path

NUMBER = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")
# What may follow a sampled figure whose standard error cannot be given or is zero.
UNKNOWN = ("(s.e. unknown", "(no deal lost)", "(no deal won)", "(no deal differed)")
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


def marked(line: str) -> bool:
    """Whether a line carries a sampled figure's mark: a ± or an error-unknown phrase."""
    return any(m in line for m in ("±",) + UNKNOWN)


def fractional(line: str) -> bool:
    """Whether a line holds a number that is not a whole-number tally."""
    return any(
        not WHOLE.fullmatch(m.group()) or line[m.end():].startswith("%")
        for m in NUMBER.finditer(line)
    )


def check(a: Path, b: Path) -> list[str]:
    problems = []
    lines_a = a.read_text().splitlines()
    lines_b = b.read_text().splitlines()
    # Align the two reports on their words, so a table or list whose length depends on
    # the sample (rows past a sampled threshold) does not shift every line after it.
    words_a = [split(x)[0] for x in lines_a]
    words_b = [split(y)[0] for y in lines_b]
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            # Lines only one run printed, or printed with other words: each that holds a
            # figure other than a tally must mark it as sampled.
            for number, x in list(enumerate(lines_a[i1:i2], start=i1 + 1)) + list(
                enumerate(lines_b[j1:j2], start=j1 + 1)
            ):
                if fractional(x) and not marked(x):
                    problems.append(f"{a.name}:{number}: changes with the seed and has no ±: {x}")
            continue
        for k in range(i2 - i1):
            x, y = lines_a[i1 + k], lines_b[j1 + k]
            if x == y:
                continue
            _, nums_x = split(x)
            _, nums_y = split(y)
            for (s, e, vx), (_, _, vy) in zip(nums_x, nums_y):
                if vx != vy and not attached(x, s, e):
                    problems.append(
                        f"{a.name}:{i1 + k + 1}: {vx} (another seed: {vy}) is sampled but "
                        f"has no ±: {x}"
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
