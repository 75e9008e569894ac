#!/usr/bin/env python3
"""Lists import cycles between the source files of src/ (a `use` of one module by
another, through `super::`, `crate::` or `self::` paths), and checks that the engine
imports nothing from the games. Exit 1 when either is found.

    python3 scripts/module_cycles.py
"""
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def module_of(path: Path) -> tuple:
    """`src/games/niuniu/job.rs` -> ("games", "niuniu", "job"); mod.rs names its folder."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def files() -> dict:
    return {module_of(p): p for p in SRC.rglob("*.rs")}


def strip_tests(text: str) -> str:
    """Drops `#[cfg(test)] mod x { ... }` blocks: tests may import anything."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while depth and j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def resolve(module: tuple, path: list, known: dict):
    """The longest known module a `use` path names, from `module`."""
    if not path:
        return None
    if path[0] == "crate":
        base, rest = (), path[1:]
    elif path[0] == "super":
        base, rest = module, path
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    elif path[0] == "self":
        base, rest = module, path[1:]
    else:
        return None
    best = None
    for k in range(len(rest) + 1):
        cand = base + tuple(rest[:k])
        if cand in known:
            best = cand
    return best


def edges(known: dict) -> dict:
    graph = {m: set() for m in known}
    for module, path in known.items():
        text = strip_tests(path.read_text())
        if path.name != "mod.rs" and path.stem not in ("lib", "main"):
            own = module
        else:
            own = module
        for use in re.finditer(r"\b(?:use|pub use)\s+([^;]+);", text):
            body = use.group(1).replace(" ", "").replace("\n", "")
            # Expand one level of braces: a::{b, c::d} -> a::b, a::c::d.
            m = re.match(r"^([\w:]*?)::\{(.*)\}$", body)
            paths = [body] if not m else [m.group(1) + "::" + x for x in m.group(2).split(",") if x]
            for p in paths:
                segs = [s for s in re.split(r"::", re.sub(r"\{.*", "", p)) if s]
                target = resolve(own, segs, known)
                # A parent module re-exporting its children is not a dependency back.
                if target and target != module and target[: len(module)] != module:
                    graph[module].add(target)
        for call in re.finditer(r"\b(crate(?:::\w+)+)", text):
            target = resolve(own, call.group(1).split("::"), known)
            if target and target != module and target[: len(module)] != module:
                graph[module].add(target)
    return graph


def cycles(graph: dict) -> list:
    found, index, low, stack, on, counter = [], {}, {}, [], set(), [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return found


def main() -> int:
    known = files()
    graph = edges(known)
    bad = 0
    for comp in cycles(graph):
        print("cycle:", " <-> ".join("::".join(m) for m in comp))
        bad += 1
    for module, targets in graph.items():
        if module[:1] == ("engine",):
            for t in targets:
                if t[:1] == ("games",):
                    print(f"engine imports a game: {'::'.join(module)} -> {'::'.join(t)}")
                    bad += 1
    if bad == 0:
        print(f"module graph: {len(graph)} files, no import cycle, the engine imports no game")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
