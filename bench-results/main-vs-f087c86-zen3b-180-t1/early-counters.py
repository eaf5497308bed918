"""Counter turns before turn 15 in p0's `-tm` lines, by the threat they answered, and how
those games ended: python3 early-counters.py REPLAY_DIR"""
import collections
import glob
import json
import re
import sys

games = collections.Counter()
won = collections.Counter()
turns = collections.Counter()
for path in sorted(glob.glob(f"{sys.argv[1]}/game-*.json")):
    game = json.load(open(path))
    kinds = set()
    for t in game["turns"]:
        line = (t.get("turn_lines") or [None])[0] or ""
        m = re.search(r"\bCounter\b.* threat (-?\d+)", line)
        if t["turn"] < 15 and m:
            kind = "threat under 60" if int(m.group(1)) < 60 else "threat of 60 or more"
            turns[kind] += 1
            kinds.add(kind)
    for kind in kinds or {"no counter before turn 15"}:
        games[kind] += 1
        won[kind] += game["result"]["winner"] == 0
for kind in sorted(games):
    print(f"{kind:26} turns {turns[kind]:3}  games {games[kind]:3}  p0 won {won[kind]:3}")
