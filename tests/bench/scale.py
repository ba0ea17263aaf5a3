#!/usr/bin/env python3
"""scale.py - times the command a user runs, `gpushare plan FILE --format json > out`, on
mixed fleets of 10^5 and 10^6 replicas (tests/bench/README.md, "Speed at scale"), or on
fleet.py's other classes, whose shapes find what the mixed ones do not (a tenant of
100,000 dedicated replicas on one model made a why-text quadratic).

  scale.py [--sizes 100000,1000000] [--classes mixed] [--seed 1] [--timeout 120] [--no-ffd]
           [--placement robust|pinned] [--instructions 100000] [--gpushare ./gpushare]
           [--dir build/bench/scale]

Wall time and peak RSS are the child's alone (os.wait4's ru_maxrss); writing the fleet is
not counted. The fleets are written, FFD computed and the plans read in processes forked
for each (in_child): Linux hands a child the peak RSS of the process it was forked from,
and once this one had held a fleet of 10^6 replicas, every later plan was reported at
that size, not at its own.

--instructions N,...: the same command again, for those sizes, under valgrind's
callgrind, which counts the instructions it executes (every thread's): a figure of the
binary and its input alone, where wall time is one of the machine too (the same binary
planned mixed 10^5 replicas in 0.79 s on one 2-core machine and in 1.27 s on another).
The plan it writes must be the one timed, byte for byte. Exit 0 unless a plan fails (a missed target or a timeout
prints FAIL or TIMEOUT only); 2 on bad arguments."""

import argparse
import filecmp
import os
import re
import pickle
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import baseline  # noqa: E402
import fleet     # noqa: E402

TOP = os.path.dirname(os.path.dirname(HERE))
# replicas -> (seconds, MiB); sizes without a target print "-"
TARGETS = {100000: (1.0, 256.0), 1000000: (10.0, 2048.0)}
GAP_TARGET = 2.0       # %, on 10^3..10^5 replicas


def timed(argv, out, timeout):
    """Runs argv with stdout to `out`; returns (exit status or None on timeout, seconds,
    peak RSS MiB, at the kill on a timeout)."""
    with open(out, "wb") as f:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdout=f, stderr=subprocess.PIPE)
        deadline = t0 + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                secs = time.monotonic() - t0
                p.returncode = os.waitstatus_to_exitcode(status)
                p.stderr.close()
                return p.returncode, secs, ru.ru_maxrss / 1024.0
            if time.monotonic() > deadline:
                p.send_signal(signal.SIGKILL)
                _, _, ru = os.wait4(p.pid, 0)
                p.returncode = -signal.SIGKILL
                p.stderr.close()
                return None, timeout, ru.ru_maxrss / 1024.0
            time.sleep(0.01)


def in_child(fn, *args):
    """fn(*args) in a process forked for it, so that what it holds never adds to this
    one's size."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            data = pickle.dumps((True, fn(*args)))
        except BaseException as e:  # noqa: B902 - handed to the parent
            data = pickle.dumps((False, repr(e)))
        with os.fdopen(w, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    ok, val = pickle.loads(data)
    if not ok:
        raise RuntimeError(val)
    return val


def write_fleet(cls, n, seed, path):
    """In the worker: writes the fleet; returns its workload count."""
    return len(fleet.write(cls, n, seed, path)[1])


def ffd_cost(gpushare, cls, n, seed):
    """In the worker: the FFD baseline's cost of the fleet."""
    head, wls = fleet.generate_fleet(cls, n, seed)
    return baseline.ffd(baseline.Catalog(gpushare), head, wls, 0.1)[0]


def read_plan(out):
    after, lb, gap, doc = baseline.plan_figures(out)
    return after, lb, gap, doc.get("pinned_per_hour"), doc["gpus"]["after"]


def parse_args(argv):
    ap = argparse.ArgumentParser(description="times gpushare plan --format json at scale")
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--classes", default="mixed", help="fleet.py classes, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per plan")
    ap.add_argument("--no-ffd", action="store_true", help="skip the FFD baseline")
    ap.add_argument("--placement", choices=["robust", "pinned"], default=None,
                    help="passed to gpushare plan (default: the file's, robust)")
    ap.add_argument("--instructions", default="",
                    help="sizes to run again under callgrind, comma-separated")
    ap.add_argument("--gpushare", default=os.path.join(TOP, "gpushare"))
    ap.add_argument("--dir", default=os.path.join(TOP, "build", "bench", "scale"))
    a = ap.parse_args(argv)
    try:
        a.sizes = [int(x) for x in a.sizes.split(",")]
        a.instructions = [int(x) for x in a.instructions.split(",") if x]
    except ValueError:
        ap.error("sizes are whole numbers")
    a.classes = a.classes.split(",")
    for c in a.classes:
        if c not in ("ts", "hetero", "mig", "mixed", "varied", "migx"):
            ap.error("no fleet class %r" % c)
    return a


def verdict(n, secs, mib):
    if n not in TARGETS:
        return "-"
    ts, tm = TARGETS[n]
    ok = secs is not None and mib is not None and secs <= ts and mib <= tm
    return "%s (<= %g s, <= %g MiB)" % ("PASS" if ok else "FAIL", ts, tm)


def main(argv):
    a = parse_args(argv)
    os.makedirs(a.dir, exist_ok=True)
    extra = ["--placement", a.placement] if a.placement else []
    failed = 0
    for cls in a.classes:
        failed += run_class(a, extra, cls)
    return 1 if failed else 0


def run_class(a, extra, cls):
    print("gpushare plan FILE%s --format json > out: %s fleets (cloud aws, on-demand), "
          "seed %d" % ("".join(" " + x for x in extra), cls, a.seed))
    print()
    print(" replicas workloads  gen_s   wall_s  peak_MiB    plan_$/h  plan_GPUs  pinned_$/h"
          "      LB_$/h   gap%     FFD_$/h plan/FFD  target")
    failed = 0
    for n in a.sizes:
        path = os.path.join(a.dir, "%s-%d-%d.yaml" % (cls, n, a.seed))
        t0 = time.monotonic()
        nw = in_child(write_fleet, cls, n, a.seed, path)
        gen = time.monotonic() - t0
        out = path[:-5] + ".json"
        # The last plan's output (890 MB at 10^6) is still being written
        # back to disk: flushed during this run, it took the cores from
        # it (mixed 10^6: 10.75 s after other runs, 9.39 s after a sync).
        os.sync()
        rc, secs, mib = timed([a.gpushare, "plan", path, "--format", "json"] + extra, out,
                              a.timeout)
        ffd = None if a.no_ffd else in_child(ffd_cost, a.gpushare, cls, n, a.seed)
        if rc is None:
            print("%9d %9d %6.1f  TIMEOUT after %g s (killed at %.1f MiB) %s  %s"
                  % (n, nw, gen, a.timeout, mib, fmt_ffd(ffd, None),
                     verdict(n, None, None)))
            continue
        if rc != 0:
            print("%9d %9d %6.1f   FAILED: exit %d" % (n, nw, gen, rc))
            failed += 1
            continue
        cost, lb, gap, pinned, gpus = in_child(read_plan, out)
        gap_txt = "-" if gap is None else "%.2f" % gap
        print("%9d %9d %6.1f %8.2f %9.1f %11.2f %10d %11s %11s %6s %s  %s"
              % (n, nw, gen, secs, mib, cost, gpus,
                 "-" if pinned is None else "%.2f" % pinned,
                 "-" if lb is None else "%.2f" % lb,
                 gap_txt, fmt_ffd(ffd, cost), verdict(n, secs, mib)))
        if n in a.instructions:
            failed += count_instructions(a.gpushare, [path, "--format", "json"] + extra, out)
        if gap is not None and cls == "mixed" and 1000 <= n <= 100000:
            print("%9s gap target <= %.0f %%: %s" % ("", GAP_TARGET,
                                                     "PASS" if gap <= GAP_TARGET else "FAIL"))
        sys.stdout.flush()
    print()
    return failed


def count_instructions(gpushare, args, timed_out):
    """Runs `gpushare plan ARGS` under callgrind and prints the instructions it counted;
    1 when it fails or writes another plan than the timed run's (timed_out)."""
    out = timed_out + ".callgrind"
    argv = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", gpushare,
            "plan"] + args
    try:
        with open(out, "wb") as f:
            p = subprocess.run(argv, stdout=f, stderr=subprocess.PIPE)
    except OSError as e:
        print("%9s instructions: FAILED (%s: %s)" % ("", argv[0], e.strerror))
        return 1
    m = re.search(rb"Collected : (\d+)", p.stderr)
    same = p.returncode == 0 and filecmp.cmp(out, timed_out, shallow=False)
    os.unlink(out)
    if not m or not same:
        print("%9s instructions: FAILED (%s)" % ("", "exit %d" % p.returncode if not m
                                                   else "not the timed run's plan"))
        return 1
    print("%9s instructions: %.2f billion (callgrind, every thread; the same plan)"
          % ("", int(m.group(1)) / 1e9))
    return 0


def fmt_ffd(ffd, cost):
    if ffd is None:
        return "%11s %8s" % ("-", "-")
    return "%11.2f %8s" % (ffd, "-" if cost is None else "%.4f" % (cost / ffd))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
