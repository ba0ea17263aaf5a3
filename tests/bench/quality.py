#!/usr/bin/env python3
"""quality.py - gpushare's plan against the proven optimum and a first-fit-decreasing
baseline on seeded small fleets (tests/bench/README.md, "Plan quality").

  quality.py [--classes ts,hetero,mig] [--sizes 20,40,80] [--seeds 10] [--no-optimum]
             [--rules aligned|file] [--gpushare ./gpushare] [--dir build/bench/quality]

Run from the repository top. Exit 1 when a reported lower bound is above a proven optimum
or check_plan.py rejects a plan, 0 otherwise (a missed quality target prints FAIL only);
2 on bad arguments or when a plan or a tool cannot run."""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import baseline  # noqa: E402
import fleet     # noqa: E402

TOP = os.path.dirname(os.path.dirname(HERE))
EPS = 1e-6
# The MIG profiles gpushare plans with: the base profiles, no media-engine variants
# (gpushare-workloads(5) ADVICE). optimum.py's default, classic, lacks 1g.20gb on H100.
MIG_SET = "base"


def tools_dir():
    d = os.environ.get("OPTIMUM_DIR") or os.path.join(TOP, "..", "shared", "tools", "bench")
    return d if os.path.isfile(os.path.join(d, "optimum.py")) else None


def tool_models(tools, gpus):
    """The models the tools know (capacities.json, by name or alias): their --gpu-json
    refuses any other."""
    if not tools:
        return gpus
    with open(os.path.join(tools, "capacities.json")) as f:
        known = set()
        for g in json.load(f)["gpus"]:
            known.update(x.lower() for x in [g["name"]] + g.get("aliases", []))
    return [g for g in gpus if g["name"].lower() in known]


def sha256(path, *extra):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    for e in extra:
        h.update(b"\0" + e.encode())
    return h.hexdigest()


def planner_copy(path, rules):
    """The file the planner reads. Under `aligned` rules it adds memoryHeadroom: 0%, the
    one rule of gpushare that optimum.py and check_plan.py do not model (they read no such
    key, so the file they read leaves it out)."""
    if rules == "file":
        return path
    out = path[:-5] + ".plan.yaml"
    with open(path) as f:
        text = f.read()
    text = text.replace("version: 1\n", "version: 1\nmemoryHeadroom: 0%\n", 1)
    with open(out, "w") as f:
        f.write(text)
    return out


def run_plan(gpushare, path, out, placement="pinned"):
    t0 = time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.run([gpushare, "plan", path, "--placement", placement, "--format",
                            "json"], stdout=f, stderr=subprocess.PIPE)
    secs = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError("gpushare plan %s exited %d: %s"
                           % (path, p.returncode, p.stderr.decode(errors="replace")[:400]))
    after, lb, gap, _ = baseline.plan_figures(out)
    return after, lb, gap, secs


def run_optimum(tools, path, caps, cache, timeout):
    """optimum.py's JSON, cached under the fleet's, the capacities' and the options' hash."""
    key = sha256(path, sha256(caps), sha256(os.path.join(tools, "optimum.py")), str(timeout),
                 MIG_SET)
    hit = os.path.join(cache, key + ".json")
    if os.path.isfile(hit):
        with open(hit) as f:
            return json.load(f)
    p = subprocess.run([sys.executable, os.path.join(tools, "optimum.py"), path,
                        "--gpu-json", caps, "--timeout", str(timeout), "--mig-set", MIG_SET],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        res = json.loads(p.stdout)
    except ValueError:
        res = {"status": "error", "optimal_cost": None,
               "error": p.stderr.decode(errors="replace")[-300:]}
    if res.get("status") in ("optimal", "optimal-restricted", "optimal-relaxed", "timeout",
                             "infeasible"):
        os.makedirs(cache, exist_ok=True)
        with open(hit + ".tmp", "w") as f:
            json.dump(res, f)
        os.replace(hit + ".tmp", hit)
    return res


# The classes optimum.py proves (fleet.py: mixed has no optimum).
QUALITY_CLASSES = ("ts", "hetero", "mig", "varied", "migx")


def run_check(tools, path, plan, caps):
    p = subprocess.run([sys.executable, os.path.join(tools, "check_plan.py"), path, plan,
                        "--gpu-json", caps, "--no-warnings"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    lines = p.stdout.decode(errors="replace").strip().splitlines()
    return ("ok" if p.returncode == 0 else "FAIL"), (lines[0] if lines else "")


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def parse_args(argv):
    ap = argparse.ArgumentParser(description="plan vs optimum vs FFD on seeded fleets")
    ap.add_argument("--classes", default="ts,hetero,mig")
    ap.add_argument("--sizes", default="20,40,80")
    ap.add_argument("--seeds", default="10",
                    help="a count N (seeds 0..N-1) or a list such as 3,7")
    ap.add_argument("--no-optimum", action="store_true", help="skip optimum.py and check_plan.py")
    ap.add_argument("--rules", default="aligned", choices=["aligned", "file"])
    ap.add_argument("--gpushare", default=os.path.join(TOP, "gpushare"))
    ap.add_argument("--dir", default=os.path.join(TOP, "build", "bench", "quality"))
    ap.add_argument("--cache", default=os.path.join(TOP, "build", "bench", "opt-cache"))
    ap.add_argument("--timeout", type=int, default=60, help="optimum.py's CBC time limit")
    a = ap.parse_args(argv)
    try:
        a.classes = a.classes.split(",")
        a.sizes = [int(x) for x in a.sizes.split(",")]
        a.seeds = ([int(x) for x in a.seeds.split(",")] if "," in a.seeds
                   else list(range(int(a.seeds))))
    except ValueError:
        ap.error("sizes and seeds are whole numbers")
    if any(c not in QUALITY_CLASSES for c in a.classes):
        ap.error("classes: " + ", ".join(QUALITY_CLASSES))
    return a


HDR = ("class  repl seed   plan_$/h    opt_$/h plan/opt    FFD_$/h plan/FFD     LB_$/h  gap%"
       "  bound  plan_s  robust_$/h  check")


def main(argv):
    a = parse_args(argv)
    os.makedirs(a.dir, exist_ok=True)
    tools = None if a.no_optimum else tools_dir()
    try:
        cat = baseline.Catalog(a.gpushare)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write("quality.py: %s: %s\n" % (a.gpushare, e))
        return 2
    caps = os.path.join(a.dir, "gpus-usable.json")
    with open(caps, "w") as f:
        json.dump(tool_models(tools, cat.usable_json()), f, indent=1)
    print("gpushare plan --placement pinned vs optimum.py (CBC) and FFD; rules: %s%s"
          % (a.rules, " (memoryHeadroom: 0%, usable memory)" if a.rules == "aligned" else ""))
    if tools is None:
        print("optimum: NOT RUN (%s)" % ("--no-optimum" if a.no_optimum else
                                         "no optimum.py; set OPTIMUM_DIR"))
    print()
    print(HDR)
    rows, errors = [], 0
    for cls in a.classes:
        for n in a.sizes:
            for seed in a.seeds:
                path = os.path.join(a.dir, "%s-%d-%d.yaml" % (cls, n, seed))
                head, wls = fleet.write(cls, n, seed, path)
                r = {"cls": cls, "n": n, "seed": seed}
                try:
                    mine = planner_copy(path, a.rules)
                    r["plan"], r["lb"], r["gap"], r["secs"] = run_plan(
                        a.gpushare, mine, path[:-5] + ".json")
                    r["robust"] = run_plan(a.gpushare, mine, path[:-5] + ".robust.json",
                                           "robust")[0]
                except (RuntimeError, ValueError, KeyError) as e:
                    print("%-6s %4d %4d  PLAN FAILED: %s" % (cls, n, seed, e))
                    errors += 1
                    continue
                r["ffd"] = baseline.ffd(cat, head, wls,
                                        0.0 if a.rules == "aligned" else 0.1)[0]
                r["opt"] = r["status"] = r["bound_ok"] = None
                r["check"], r["why"] = "-", ""
                if tools:
                    o = run_optimum(tools, path, caps, a.cache, a.timeout)
                    r["status"] = o.get("status")
                    if r["status"] == "error":
                        # A tool that cannot run (no `cbc`: apt-get install coinor-cbc)
                        # is an error, not a fleet without an optimum.
                        why = str(o.get("error", "")).strip().splitlines()
                        print("%-6s %4d %4d  OPTIMUM FAILED: %s"
                              % (cls, n, seed, why[-1] if why else "no output"))
                        errors += 1
                    if r["status"] == "optimal":
                        r["opt"] = o["optimal_cost"]
                        if r["lb"] is not None:
                            r["bound_ok"] = r["lb"] <= r["opt"] + EPS
                    r["check"], r["why"] = run_check(tools, path, path[:-5] + ".json", caps)
                rows.append(r)
                print_row(r)
    return summary(rows, tools, errors)


def print_row(r):
    ratio_opt = r["plan"] / r["opt"] if r["opt"] else None
    bound = "-" if r["bound_ok"] is None else ("ok" if r["bound_ok"] else "INVALID")
    opt = fmt(r["opt"], "10.4f") if r["opt"] else "%10s" % (r["status"] or "-")[:10]
    print("%-6s %4d %4d %10.4f %s %8s %10.4f %8.4f %10s %5s %6s %7.2f %11.4f  %s%s"
          % (r["cls"], r["n"], r["seed"], r["plan"], opt, fmt(ratio_opt, ".4f"), r["ffd"],
             r["plan"] / r["ffd"], fmt(r["lb"], ".4f"), fmt(r["gap"], ".2f"), bound,
             r["secs"], r["robust"], r["check"],
             (": " + r["why"]) if r["check"] == "FAIL" else ""))
    sys.stdout.flush()


def summary(rows, tools, errors):
    print()
    solved = [r for r in rows if r["opt"]]
    ratios = [r["plan"] / r["opt"] for r in solved]
    vs_ffd = [r["plan"] / r["ffd"] for r in rows]
    invalid = [r for r in rows if r["bound_ok"] is False]
    failed = [r for r in rows if r["check"] == "FAIL"]
    print("fleets: %d planned, %d with a proven optimum" % (len(rows), len(solved)))
    if solved:
        opt = sum(1 for x in ratios if x <= 1 + EPS)
        above = sum(1 for x in ratios if x > 1.01 + EPS)
        print("optimal: %d of %d; more than 1 %% above the optimum: %d" % (opt, len(solved),
                                                                            above))
        print("plan/opt: mean %.4f, worst %.4f" % (sum(ratios) / len(ratios), max(ratios)))
        below = sum(1 for x in ratios if x < 1 - EPS)
        if below:
            print("note: %d plans cost less than the proven optimum: the rules the tools read "
                  "differ from gpushare's (see README.md)" % below)
        print("target: plan <= 1.01 x optimum on every fleet: %s"
              % ("PASS" if above == 0 else "FAIL"))
    elif not tools:
        print("optimum: NOT RUN")
    if vs_ffd:
        worst = max(rows, key=lambda r: r["plan"] / r["ffd"])
        print("plan/FFD: worst %.4f (%s %d seed %d); target: never above FFD: %s"
              % (max(vs_ffd), worst["cls"], worst["n"], worst["seed"],
                 "PASS" if max(vs_ffd) <= 1 + EPS else "FAIL"))
    have_lb = [r for r in rows if r["lb"] is not None]
    print("lower bound reported on %d of %d fleets; invalid bounds (above the optimum): %d"
          % (len(have_lb), len(rows), len(invalid)))
    for r in invalid:
        print("  INVALID bound: %s %d seed %d: %.4f > optimum %.4f"
              % (r["cls"], r["n"], r["seed"], r["lb"], r["opt"]))
    if rows:
        dear = [r for r in rows if r["robust"] > r["plan"] + EPS]
        print("placement robust (the default) costs more than pinned on %d of %d fleets; "
              "robust/pinned mean %.4f, worst %.4f"
              % (len(dear), len(rows), sum(r["robust"] / r["plan"] for r in rows) / len(rows),
                 max(r["robust"] / r["plan"] for r in rows)))
    print("check_plan.py failures: %s" % (len(failed) if tools else "NOT RUN"))
    if errors:
        return 2
    return 1 if invalid or failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
