"""What the default's turn after each of its turns was, from the -tm lines of a match's replays:
(this turn's reason, the next turn's reason, whether the opponent fired a chain of 3 or more on
this turn). Usage: python3 counter-turns.py REPLAY_DIR"""
import collections
import json
import pathlib
import re
import sys

REASON = re.compile(r" (Plan|Replan|Counter|HoldFire|Outbuild|Greedy|Lethal|Survive) ")

counts = collections.Counter()
for path in sorted(pathlib.Path(sys.argv[1]).glob("game-*.json")):
    previous = None
    for turn in json.loads(path.read_text())["turns"]:
        line = (turn.get("turn_lines") or [""])[0] or ""
        found = REASON.search(line)
        reason = found.group(1) if found else "?"
        if previous:
            counts[(previous[0], reason, previous[1])] += 1
        previous = (reason, "opponent fired" if turn["chains"][1] >= 3 else "-")
for key, n in sorted(counts.items()):
    print(*key, n, sep="\t")
