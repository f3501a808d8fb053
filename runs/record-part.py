#!/usr/bin/env python3
"""Appends one part of a journalled step to its record: what the part did and cost.

A step that runs over several sessions keeps its journal (the units searched to their end)
in runs/, but each part's time and counts lived only in the scratch folder, and twice a
part's figures were lost with the machine (RESULTS.md, "a(20) = 58" and "Three armies:
a(15) = 16"). `journal_step` (runs/lib.sh) calls this after every part, stopped or finished,
so that the whole step's CPU, wall, nodes and pairs add up from the record alone.

usage: record-part.py RECORD ANSWER.json TIME.err JOURNAL START BINARY

RECORD is a tab-separated file, written with its header line when new. ANSWER.json is
`solve --format json`'s output (empty if the part was killed), TIME.err what `/usr/bin/time
-v` wrote, JOURNAL the journal after the part, START the part's start (UTC), BINARY the
commit the binary was built from (or a word saying it is not known).
"""
import json
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

COLUMNS = [
    "start (UTC)", "end (UTC)", "binary", "status", "units resumed", "units done after",
    "wall s", "user s", "sys s", "peak MiB", "nodes", "pairs",
]


def seconds(clock):
    """'h:mm:ss' or 'm:ss.ss' as seconds."""
    total = 0.0
    for part in clock.split(":"):
        total = total * 60 + float(part)
    return total


def timing(text):
    """The wall, user, sys and peak memory `/usr/bin/time -v` reported ('' where absent)."""
    found = {}
    patterns = {
        "user": r"User time \(seconds\): ([\d.]+)",
        "sys": r"System time \(seconds\): ([\d.]+)",
        "wall": r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)",
        "peak": r"Maximum resident set size \(kbytes\): (\d+)",
    }
    for key, pattern in patterns.items():
        m = re.search(pattern, text)
        found[key] = m.group(1) if m else None
    return {
        "wall": f"{seconds(found['wall']):.1f}" if found["wall"] else "",
        "user": found["user"] or "",
        "sys": found["sys"] or "",
        "peak": f"{int(found['peak']) / 1024:.1f}" if found["peak"] else "",
    }


def answer(path):
    """The part's status and counts from its JSON answer, or blanks when it wrote none."""
    try:
        a = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {"status": "no answer", "resumed": "", "nodes": "", "pairs": ""}
    search = a.get("search", {})
    status = a.get("status", "")
    if a.get("reason"):
        status += f" ({a['reason']})"
    return {
        "status": status,
        "resumed": str(search.get("resumed", 0)),
        "nodes": str(search.get("nodes", "")),
        "pairs": str(search.get("pairs", "")),
    }


def main(argv):
    if len(argv) != 7:
        sys.exit(__doc__.split("\n\n")[2])
    record, answer_path, time_path, journal, start, binary = argv[1:]
    try:
        err = Path(time_path).read_text()
    except OSError:
        err = ""
    try:
        done = sum(1 for line in Path(journal).read_text().splitlines()
                   if line.startswith("done "))
    except OSError:
        done = ""
    t, a = timing(err), answer(answer_path)
    end = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M")
    row = [start, end, binary, a["status"], a["resumed"], str(done), t["wall"], t["user"],
           t["sys"], t["peak"], a["nodes"], a["pairs"]]
    out = Path(record)
    new = not out.exists()
    with out.open("a") as f:
        if new:
            f.write("\t".join(COLUMNS) + "\n")
        f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main(sys.argv)
