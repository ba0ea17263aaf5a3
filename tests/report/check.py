"""check.py - the static and DOM checks of tests/report/run.sh.

  python3 check.py static PAGE.html         the page as gpushare wrote it
  python3 check.py dom PAGE.html DOM.html   the page against Chromium's DOM
  python3 check.py expect PLAN.txt PLAN.json DOM.html
  python3 check.py cost COST.json DOM.html   a chargeback's page

Each prints one line per problem and exits 1 when there is any.
"""
import json
import re
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}
COUNTED = ("svg", "table", "tr", "th", "figure", "rect", "text", "title", "g")


class Tags(HTMLParser):
    """Counts elements and checks that every tag is closed in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.counts = {}
        self.stack = []
        self.problems = []

    def handle_starttag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            top = self.stack[-1] if self.stack else "nothing"
            self.problems.append(f"</{tag}> closes <{top}>")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
        else:
            self.stack.pop()


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    t = Tags()
    t.feed(text)
    t.close()
    return text, t


def static(page):
    text, t = parse(page)
    bad = []
    if not text.startswith("<!DOCTYPE html>\n"):
        bad.append("does not start with <!DOCTYPE html>")
    for needle in ("http://", "https://", "<script", "src=", "@import", "url(",
                   "<link", "<img", "<iframe", "<object", "<embed"):
        if needle in text.lower():
            bad.append(f"contains {needle!r}")
    for needle in ('<html lang="en">', '<meta charset="utf-8">',
                   '<meta name="viewport"'):
        if needle not in text:
            bad.append(f"lacks {needle!r}")
    bad += t.problems
    if t.stack:
        bad.append("unclosed: " + " ".join(t.stack))
    if text.count("<svg") != text.count("<title id="):
        bad.append("an <svg> without its <title>")
    return bad


def dom(page, dump):
    _, src = parse(page)
    _, got = parse(dump)
    bad = []
    for tag in COUNTED:
        a, b = src.counts.get(tag, 0), got.counts.get(tag, 0)
        if a != b:
            bad.append(f"<{tag}>: {a} in the page, {b} in the browser's DOM")
    return bad


def expect(plan_txt, plan_json, dump):
    """The figures the text output prints and every name must be shown."""
    with open(dump, encoding="utf-8") as f:
        text = f.read()
    with open(plan_txt, encoding="utf-8") as f:
        lines = f.read().splitlines()
    with open(plan_json, encoding="utf-8") as f:
        plan = json.load(f)
    want = []
    for line in lines:
        m = re.match(r"per hour\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", line)
        if m:
            want += [("before per hour", m.group(1)), ("after per hour", m.group(2)),
                     ("saved per hour", m.group(3)), ("saved percent", m.group(4))]
    if len(want) != 4:
        return ["no 'per hour' line in the text output"]
    want += [("team", t["team"]) for t in plan["teams"]]
    want += [("workload", w["name"]) for w in plan["workloads"]]
    return [f"{what} {value!r} is not in the DOM"
            for what, value in want if value not in text]


def cost(cost_json, dump):
    """The chargeback's total and idle, every team and node must be shown."""
    with open(dump, encoding="utf-8") as f:
        text = f.read()
    with open(cost_json, encoding="utf-8") as f:
        raw = f.read()
    doc = json.loads(raw)
    want = []
    for key in ("total_per_hour", "idle_per_hour"):
        m = re.search(r'"%s": ([0-9.]+)' % key, raw)
        want.append((key, "$" + m.group(1)))
    teams = {r["team"] for r in doc["rows"] if r["team"]}
    want += [("team", t) for t in sorted(teams)]
    want += [("node", n["name"]) for n in doc["nodes"]]
    return [f"{what} {value!r} is not in the DOM"
            for what, value in want if value not in text]


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "static" and len(argv) == 3:
        bad = static(argv[2])
    elif cmd == "dom" and len(argv) == 4:
        bad = dom(argv[2], argv[3])
    elif cmd == "expect" and len(argv) == 5:
        bad = expect(argv[2], argv[3], argv[4])
    elif cmd == "cost" and len(argv) == 4:
        bad = cost(argv[2], argv[3])
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
