#!/usr/bin/env python3
"""Checks that the runtime's answers carry the same field names in Rust, C and Python.

Usage: check_api_names.py [--print]

Reads the table "One API in Rust, C and Python" in runtime/README.md: per answer, its
type in each language and its fields, and the fields one language adds (C has no
Option, so it adds `has_index`; C's answers that hold a slice add its length). Then it
reads each type's fields from the sources (runtime/src/**/*.rs, ffi/include/cardtables.h,
python/cardtables/__init__.pyi) and fails on any difference. `--print` lists the fields
it found.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rust_structs():
    found = {}
    for path in (ROOT / "runtime/src").rglob("*.rs"):
        text = path.read_text()
        for m in re.finditer(r"^pub struct (\w+)(?:<[^>]*>)? \{\n(.*?)^\}", text, re.S | re.M):
            found[m.group(1)] = re.findall(r"^    pub (\w+):", m.group(2), re.M)
    return found


def c_structs():
    text = (ROOT / "ffi/include/cardtables.h").read_text()
    found = {}
    for m in re.finditer(r"typedef struct (\w+) \{\n(.*?)\} (\w+);", text, re.S):
        body = re.sub(r"/\*.*?\*/", "", m.group(2), flags=re.S)
        found[m.group(3)] = re.findall(r"(\w+)(?:\[\d+\])?\s*;", body)
    return found


def python_classes():
    text = (ROOT / "python/cardtables/__init__.pyi").read_text()
    found = {}
    for m in re.finditer(r"^class (\w+)[:(].*?\n((?:    .*\n|\n)*)", text, re.M):
        found[m.group(1)] = re.findall(r"^    (\w+): ", m.group(2), re.M)
    return found


def readme_table():
    text = (ROOT / "runtime/README.md").read_text()
    start = text.index("## One API in Rust, C and Python")
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("## "):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] in ("answer", "---") or set(cells[0]) <= {"-"}:
            continue
        names = lambda cell: re.findall(r"`(\w+)`", cell)
        extras = {}
        for part in cells[5].split(";"):
            if ":" in part:
                lang, fields = part.split(":", 1)
                extras[lang.strip()] = names(fields)
        rows.append((cells[0], names(cells[1]), names(cells[2]), names(cells[3]), names(cells[4]), extras))
    if not rows:
        sys.exit("FAILED: runtime/README.md has no rows under 'One API in Rust, C and Python'")
    return rows


def main():
    sources = {"Rust": rust_structs(), "C": c_structs(), "Python": python_classes()}
    if "--print" in sys.argv:
        for lang, types in sources.items():
            for name, fields in sorted(types.items()):
                print(f"{lang:7} {name}: {', '.join(fields)}")
        return
    failures = 0
    rows = readme_table()
    for answer, rust, c, python, common, extras in rows:
        for lang, names in (("Rust", rust), ("C", c), ("Python", python)):
            if len(names) != 1:
                sys.exit(f"FAILED: {answer}: the {lang} column names {len(names)} types")
            got = sources[lang].get(names[0])
            if got is None:
                print(f"FAILED: {answer}: no {lang} type {names[0]}")
                failures += 1
                continue
            want = set(common) | set(extras.get(lang, []))
            if set(got) != want:
                print(f"FAILED: {answer}: {lang} {names[0]} has {sorted(got)}, the table says {sorted(want)}")
                failures += 1
    if failures:
        sys.exit(1)
    print(f"runtime API: {len(rows)} answers have the same field names in Rust, C and Python")


main()
