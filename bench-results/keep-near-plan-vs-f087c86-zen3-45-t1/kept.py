"""Turns on which p0 kept a plan through a spike in the opponent's threat (the rule of build
e043461: a plan that fires within four moves and sends more than the threat is kept), read
from a match's replays (p0's `-tm` lines): a spike turn whose reason is not Counter, the
plan left before it at most four moves sending more than the threat. The spike rule (floors
40 and 30, turn 15, the last four threats) is that of src/policy/rules.rs.

Usage: python3 kept.py REPLAY_DIR
Prints, per game with such a turn: the turn, p0's reason there, whether p0 fired its plan
before p1's first chain of 10 or more, and the winner; then the games p0 won.
"""
import glob
import json
import re
import sys

LINE = re.compile(r"(\w+) (-?\d+ \d+|S) plan (\S+)(?: moves to (\d+) \((\d+) ojama\))?.*threat (-?\d+)")
HISTORY = 4


def spike(threats, turn):
    floor = 40 if turn < 15 else 30
    earlier = threats[max(0, turn - HISTORY):turn]
    return threats[turn] >= floor and all(t < threats[turn] for t in earlier)


def main(folder):
    games = won = 0
    for path in sorted(glob.glob(f"{folder}/game-*.json")):
        replay = json.load(open(path))
        turns = replay["turns"]
        lines = [LINE.search((t.get("turn_lines") or [""])[0]) for t in turns]
        threats = [int(m.group(6)) if m else 0 for m in lines]
        hits = []
        for turn in range(1, len(turns)):
            before, now = lines[turn - 1], lines[turn]
            if not (before and now and before.group(5) and spike(threats, turn)):
                continue
            left = int(before.group(3))
            if left <= 4 and int(before.group(5)) > threats[turn] and now.group(1) != "Counter":
                hits.append((turn, now.group(1)))
        if not hits:
            continue
        games += 1
        won += replay["result"]["winner"] == 0
        p0 = next((t for t, x in enumerate(turns) if x["chains"][0] >= 10), 999)
        p1 = next((t for t, x in enumerate(turns) if x["chains"][1] >= 10), 999)
        first = "p0 fired first" if p0 < p1 else "same turn" if p0 == p1 else "p1 fired first"
        for turn, why in hits:
            print(f"{path.rsplit('/', 1)[-1]} turn {turn}: {why}, threat {threats[turn]}, "
                  f"{first}, winner p{replay['result']['winner']}")
    print(f"{games} games with such a turn, p0 won {won}")


if __name__ == "__main__":
    main(sys.argv[1])
