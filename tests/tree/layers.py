#!/usr/bin/env python3
"""layers.py - the library's rooms depend on each other one way only.

Checks, from the sources and the release objects (run after `make`):
  1. Includes follow the layers. base < doc < catalog < scenario < plan <
     {emit, report, lint, import} < cost: a room includes only its own
     headers and those of rooms below it; emit, report, lint and import
     never include each other; base includes nothing of ours but the public
     header. cost (chargeback) reads an import's inventory.
  2. The packer's headers (every plan/*.h but strategy.h) are included only
     from lib/plan/.
  3. cli/ includes only the public header and its own headers.
  4. No cycles between files: file A depends on file B when A's code uses a
     symbol B's object defines; a cycle of such dependencies means two files
     that cannot be read, tested or replaced apart. A table that names
     functions (the command table, the emit registry) registers them rather
     than using them, so references from data are not dependencies. Only
     the cycles listed in ALLOWED may remain, each with its reason.
"""
import os
import re
import subprocess
import sys

RANK = {"base": 0, "doc": 1, "catalog": 2, "scenario": 3, "plan": 4,
        "emit": 5, "report": 5, "lint": 5, "import": 5, "cost": 6}
OPEN_TO_ALL = {"plan/strategy.h"}  # the strategy table, read by renderers

# Cycles that are genuine, as sorted tuples of source files, each with its
# reason. None is left: the one genuine recursion (a ConfigMap value that
# holds a config is linted again by the dispatcher) goes through the
# `embedded` callback of lint/kit.h, so no checker depends on the
# dispatcher's file.
ALLOWED = {}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(top):
    for root in ("lib", "cli"):
        for dirpath, _, files in os.walk(os.path.join(top, root)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, f), top)


def resolve(top, src, name):
    here = os.path.normpath(os.path.join(os.path.dirname(src), name))
    if os.path.exists(os.path.join(top, here)):
        return here
    for base in ("lib", "include", "cli"):
        cand = os.path.join(base, name)
        if os.path.exists(os.path.join(top, cand)):
            return cand
    return name


def room(path):
    parts = path.split("/")
    return parts[1] if parts[0] == "lib" and len(parts) > 2 else None


def check_includes(top):
    errors = []
    for src in sources(top):
        with open(os.path.join(top, src), encoding="utf-8") as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            dst = resolve(top, src, name)
            why = include_error(src, dst)
            if why:
                errors.append(f"{src}: includes {dst}: {why}")
    return errors


def include_error(src, dst):
    if dst == "include/gpushare.h":
        return None
    if src.startswith("cli/"):
        return None if dst.startswith("cli/") else "cli/ sees only the public header"
    a, b = room(src), room(dst)
    if b is None:
        return "not a library header"
    if a == b:
        return None
    if a == "base":
        return "base includes nothing of ours but the public header"
    rel = dst[len("lib/"):]
    if b == "plan" and rel not in OPEN_TO_ALL:
        return "only lib/plan/ includes the packer's headers"
    if rel in OPEN_TO_ALL:
        return None if RANK[a] >= RANK[b] else "a lower layer includes a higher one"
    if RANK[a] == RANK[b]:
        return f"{a} and {b} are siblings and never include each other"
    if RANK[a] < RANK[b]:
        return "a lower layer includes a higher one"
    return None


def symbols(obj):
    """What obj defines, and what its code (not its tables) refers to."""
    out = subprocess.run(["nm", "--defined-only", "-g", obj], capture_output=True,
                         text=True, check=True).stdout
    defined = {l.split()[-1] for l in out.splitlines() if len(l.split()) == 3}
    out = subprocess.run(["objdump", "-r", obj], capture_output=True, text=True,
                         check=True).stdout
    used, in_code = set(), False
    for line in out.splitlines():
        if line.startswith("RELOCATION RECORDS FOR ["):
            in_code = line[len("RELOCATION RECORDS FOR ["):].startswith(".text")
        elif in_code and len(line.split()) == 3:
            used.add(re.split(r"[-+]", line.split()[2])[0])
    return defined, used - defined


def check_cycles(top):
    objs = {}
    for src in sources(top):
        if src.endswith(".c"):
            obj = os.path.join(top, "build", src[:-2] + ".o")
            if not os.path.exists(obj):
                return [f"{obj}: missing; run make first"]
            objs[src] = symbols(obj)
    owner = {}
    for src, (defined, _) in objs.items():
        for sym in defined:
            owner[sym] = src
    edges = {src: sorted({owner[s] for s in used if s in owner and owner[s] != src})
             for src, (_, used) in objs.items()}
    errors = []
    for comp in strongly_connected(edges):
        if len(comp) < 2:
            continue
        key = tuple(sorted(comp))
        if key not in ALLOWED:
            errors.append("cycle: " + " <-> ".join(key))
    return errors


def strongly_connected(edges):
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
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
            comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return comps


def main():
    top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    errors = check_includes(top) + check_cycles(top)
    for e in errors:
        print("layers: " + e)
    if errors:
        print(f"layers: {len(errors)} problem(s)")
        return 1
    print("layers: includes follow the layers; no cycles between files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
