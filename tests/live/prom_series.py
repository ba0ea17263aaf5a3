#!/usr/bin/env python3
"""prom_series.py OUT START STEP FILE... - the DCGM samples of metrics files
as one OpenMetrics text that `promtool tsdb create-blocks-from openmetrics`
backfills, so that a real Prometheus serves the same samples the files hold.

FILE is a dcgm-exporter scrape (Prometheus text format) or a Prometheus query
result (JSON), as `gpushare import --metrics` reads them. Every series (its
name and labels) keeps its samples in the order the files give them (files in
order, then timestamps); the i-th sample of a series is put at START + i*STEP
(unix seconds). Values are copied as written. Prints "UNTIL WINDOW": the last
time any series has a sample and the span back to START, in seconds.

Why a range query then returns exactly these samples: Prometheus evaluates
query_range at START, START+STEP, ... and each point takes the newest sample
at most 5 minutes (the lookback delta) old. Every sample sits on a point, and
with STEP above 5 minutes no point reaches back to the sample before it, so no
sample is repeated (a series that ends early, or pauses, is not carried on)
and none is skipped. Only samples are compared: gpushare's percentiles never
read a timestamp.
"""
import json
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?')
UNESCAPE = {"\\\\": "\\", '\\"': '"', "\\n": "\n"}


def unescape(v):
    return re.sub(r'\\[\\"n]', lambda m: UNESCAPE[m.group(0)], v)


def text_samples(text):
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = NAME.match(line)
        name, rest, labels = m.group(0), line[m.end():], {}
        if rest.startswith("{"):
            end = rest.index("}")  # the fixtures' values hold no '}'
            for lm in LABEL.finditer(rest[1:end]):
                labels[lm.group(1)] = unescape(lm.group(2))
            rest = rest[end + 1:]
        fields = rest.split()
        ts = int(fields[1]) if len(fields) > 1 else None
        yield name, labels, fields[0], ts


def json_samples(doc):
    for series in doc["data"]["result"]:
        labels = dict(series["metric"])
        name = labels.pop("__name__")
        points = series["values"] if "values" in series else [series["value"]]
        for t, v in points:
            yield name, labels, v, int(float(t) * 1000)


def read(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if text.lstrip().startswith("{"):
        return list(json_samples(json.loads(text)))
    return list(text_samples(text))


def escape(v):
    return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def main():
    out, start, step, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    series = {}  # (name, labels) -> values, in order
    for f in files:
        # Within a file, timestamped samples of a series in time order.
        got = read(f)
        order = sorted(range(len(got)), key=lambda i: (got[i][3] is not None, got[i][3] or 0, i))
        for i in order:
            name, labels, value, _ = got[i]
            key = (name, tuple(sorted((k, v) for k, v in labels.items() if v != "")))
            series.setdefault(key, []).append(value)
    families = {}
    for (name, labels), values in series.items():
        families.setdefault(name, []).append((labels, values))
    longest = 0
    with open(out, "w", encoding="utf-8") as fh:
        for name in sorted(families):
            # No TYPE line: an OpenMetrics counter must end in _total.
            for labels, values in families[name]:
                ls = ",".join(f'{k}="{escape(v)}"' for k, v in labels)
                for i, v in enumerate(values):
                    fh.write(f"{name}{{{ls}}} {v} {start + i * step}\n")
                longest = max(longest, len(values))
        fh.write("# EOF\n")
    print(start + (longest - 1) * step, (longest - 1) * step)


if __name__ == "__main__":
    main()
