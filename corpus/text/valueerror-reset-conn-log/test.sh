#!/usr/bin/env bash
# Interesting iff the log analyser below still crashes on proxy.log with
# exactly (last line of the traceback):
#   ValueError: invalid literal for int() with base 10: '-'
# The crash needs two lines: a "conn close ... bytes=-" line (connection reset
# before the byte counters were flushed) AND an earlier "conn open" line with
# the same id. Close lines for ids opened before the log rotation (several of
# them also have bytes=-) are counted as orphans and skipped.
F=proxy.log
[ -s "$F" ] || exit 1
export LC_ALL=C
err=$(timeout 10 python3 -c '
import re
from collections import Counter, defaultdict
from datetime import datetime

LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z (DEBUG|INFO|WARN|ERROR) +\[([\w.-]+)\] (.*)$")

def fields(text):
    return dict(p.split("=", 1) for p in text.split() if "=" in p)

levels = Counter()
unparsed = orphans = 0
open_conns = {}
traffic = defaultdict(int)
lifetimes = []
latency = defaultdict(list)
statuses = Counter()
with open("proxy.log", encoding="utf-8", errors="replace") as f:
    for raw in f:
        m = LINE.match(raw.rstrip("\n"))
        if not m:
            unparsed += 1
            continue
        stamp, level, thread, msg = m.groups()
        levels[level] += 1
        when = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%f")
        if msg.startswith("conn open "):
            kv = fields(msg)
            open_conns[kv["id"]] = (when, kv.get("peer", "?"))
        elif msg.startswith("conn close "):
            kv = fields(msg)
            if kv.get("id") not in open_conns:
                orphans += 1
                continue
            opened, peer = open_conns.pop(kv["id"])
            b_in, b_out = (int(x) for x in kv["bytes"].split("/"))
            traffic[peer] += b_in + b_out
            lifetimes.append((when - opened).total_seconds())
        elif msg.startswith("req "):
            kv = fields(msg)
            statuses[kv["status"]] += 1
            latency[kv["path"].split("?")[0]].append(int(kv["ms"]))

print("levels:", dict(levels), "unparsed:", unparsed, "orphan closes:", orphans)
for peer, n in sorted(traffic.items()):
    print(f"{peer:>20} {n:>12} bytes")
if lifetimes:
    print("mean conn lifetime: %.1fs" % (sum(lifetimes) / len(lifetimes)))
for path, ms in sorted(latency.items(), key=lambda kv: -max(kv[1]))[:5]:
    print(f"{path:40} max={max(ms)}ms n={len(ms)}")
print("statuses:", dict(statuses), "still open:", len(open_conns))
' 2>&1 >/dev/null)
[ "$(printf '%s\n' "$err" | tail -n 1)" = "ValueError: invalid literal for int() with base 10: '-'" ] || exit 1
exit 0
