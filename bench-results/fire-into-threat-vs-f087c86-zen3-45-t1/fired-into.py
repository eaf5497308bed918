"""Turns on which p0's plan was due to fire into a spike in the opponent's threat with at
least the threat's ojama, read from a match's replays (p0's `-tm` lines): the turns the rule
"a plan due now fires into a threat it matches" acts on. For builds without the rule the same
turns are the ones its counter plan took over.

Usage: python3 fired-into.py REPLAY_DIR
Prints, per game with such a turn: the turn, what p0 did there (its `-tm` reason), p0's and
p1's chains on that turn, and the game's winner; then how many such games p0 won.
"""
import glob
import json
import re
import sys

PLAN = re.compile(r"plan (\d+) moves to (\d+) \((\d+) ojama")
WHY = re.compile(r"(?:tt \d+%|n 0/0) (\w+)")
THREAT = re.compile(r"threat (-?\d+)")
HISTORY = 4


def spike(threats, turn):
    floor = 40 if turn < 15 else 30
    latest = threats[turn]
    earlier = threats[max(0, turn - HISTORY):turn]
    return latest >= floor and all(t < latest for t in earlier)


def due_into_spike(lines):
    threats = [int(m.group(1)) if (m := THREAT.search(l)) else 0 for l in lines]
    for turn in range(1, len(lines)):
        plan = PLAN.search(lines[turn - 1])
        if plan and int(plan.group(1)) == 1 and spike(threats, turn) \
                and int(plan.group(3)) >= threats[turn]:
            yield turn


def main(folder):
    games = won = 0
    for path in sorted(glob.glob(f"{folder}/game-*.json")):
        replay = json.load(open(path))
        turns = replay["turns"]
        lines = [(t.get("turn_lines") or [""])[0] for t in turns]
        hits = list(due_into_spike(lines))
        if not hits:
            continue
        games += 1
        won += replay["result"]["winner"] == 0
        for turn in hits:
            why = WHY.search(lines[turn])
            print(f"{path.rsplit('/', 1)[-1]} turn {turn}: {why.group(1) if why else '?'}, "
                  f"chains {turns[turn]['chains'][0]} vs {turns[turn]['chains'][1]}, "
                  f"winner p{replay['result']['winner']}")
    print(f"{games} games with such a turn, p0 won {won}")


if __name__ == "__main__":
    main(sys.argv[1])
