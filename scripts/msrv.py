#!/usr/bin/env python3
"""Checks the workspace's declared minimum Rust version (`rust-version` in Cargo.toml).

It must be at least every locked dependency's own `rust-version` (so the locked build can
work on it at all), and at least 1.89, the release that stabilised `File::try_lock`, the
newest standard-library API the code uses. Run by scripts/test.sh; prints the figures.
"""
import json
import subprocess
import sys

# The newest std API the code calls, and the release that made it stable.
OWN_NEEDS = ((1, 89), "std::fs::File::try_lock")


def version(text):
    return tuple(int(part) for part in text.split("."))


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    members = set(meta["workspace_members"])
    declared = {p["name"]: p["rust_version"] for p in meta["packages"] if p["id"] in members}
    deps = [
        (version(p["rust_version"]), p["name"], p["version"])
        for p in meta["packages"]
        if p["id"] not in members and p["rust_version"]
    ]
    need, name, ver = max(deps)
    need = max(need, OWN_NEEDS[0])
    ok = True
    for crate, rv in sorted(declared.items()):
        if rv is None or version(rv) < need:
            print(f"FAILED: {crate} declares rust-version {rv}, but it needs {'.'.join(map(str, need))}")
            ok = False
    print(
        f"rust-version {', '.join(f'{c} {v}' for c, v in sorted(declared.items()))}: "
        f"newest dependency requirement {name} {ver} needs {'.'.join(map(str, max(deps)[0]))}, "
        f"{OWN_NEEDS[1]} needs {'.'.join(map(str, OWN_NEEDS[0]))}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
