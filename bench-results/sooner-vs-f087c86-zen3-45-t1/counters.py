"""What p0's plan was about to do when its first counter plan replaced it, and what p0 did
from the opening plan to its fire, read from a match's replays (p0's `-tm` lines).

Usage: python3 counters.py REPLAY_DIR
The first table: for each game's first `Counter` turn past turn 7, whether the plan it
replaced was due to fire on that very turn ("due now"), on the next ("due next") or later,
and whether its fire sent at least the threat that set the counter off; games and games won.
The second: the first rule that changed the plan held on turn 7 before it was due (none:
the plan fired as planned), and whether p0 fired a 10+ chain on the turn it was due.
"""
import collections
import glob
import json
import re
import sys

PLAN = re.compile(r"plan (\d+) moves to (\d+) \((\d+) ojama")
WHY = re.compile(r"tt \d+% (\w+)")


def lines_of(turns):
    return [(t.get("turn_lines") or [""])[0] for t in turns]


def first_counter(lines):
    for i in range(8, len(lines)):
        if " Counter " not in lines[i]:
            continue
        m = PLAN.search(lines[i - 1])
        if not m:
            return "no plan"
        threat = int(re.search(r"threat (-?\d+)", lines[i]).group(1))
        n, ojama = int(m.group(1)), int(m.group(3))
        due = "due now" if n == 1 else "due next" if n == 2 else "later"
        return f"{due}, {'at least' if ojama >= threat else 'under'} the threat"
    return None


def opening_plan_fate(turns, lines):
    m = PLAN.search(lines[7]) if len(lines) > 7 else None
    if not m:
        return None
    due = 7 + int(m.group(1))
    whys = [w.group(1) for w in (WHY.search(lines[i]) for i in range(8, min(due + 1, len(lines)))) if w]
    changed = next((w for w in whys if w != "Plan"), "none")
    fired = due < len(turns) and turns[due]["chains"][0] >= 10
    return f"{changed}, {'fired' if fired else 'no 10+ chain'} on the turn it was due"


def main(folder):
    tables = [collections.Counter(), collections.Counter()]
    wins = [collections.Counter(), collections.Counter()]
    for path in sorted(glob.glob(f"{folder}/game-*.json")):
        replay = json.load(open(path))
        turns = replay["turns"]
        lines = lines_of(turns)
        won = replay["result"]["winner"] == 0
        for table, win, key in zip(tables, wins, (first_counter(lines), opening_plan_fate(turns, lines))):
            if key:
                table[key] += 1
                win[key] += won
    for title, table, win in zip(("first counter plan, the plan it replaced",
                                  "the opening plan held on turn 7"), tables, wins):
        print(title)
        for key, games in table.most_common():
            print(f"  {key}: {games} games, won {win[key]}")


if __name__ == "__main__":
    main(sys.argv[1])
