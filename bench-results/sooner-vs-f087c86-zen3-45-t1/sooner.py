"""Where the sooner-fire rule acted, read from a match's replays (p0's `-tm` lines).

Usage: python3 sooner.py REPLAY_DIR
Prints the games in which p0's opening plan gave way to a sooner fire (`Sooner` on a turn's
line), how many turns sooner and at what chain, and how those games and the others went: who
fired the first chain of 10 or more first, and who won.
"""
import glob
import json
import re
import sys

PLAN = re.compile(r"plan (\d+) moves to (\d+)")


def fire_turn(turn, line):
    """The turn the plan on this line fires, and its chain, or None."""
    m = PLAN.search(line)
    return (turn + int(m.group(1)), int(m.group(2))) if m else None


def first_big(turns, player):
    return next((t["turn"] for t in turns if t["chains"][player] >= 10), None)


def main(folder):
    rows = {True: [], False: []}
    for path in sorted(glob.glob(f"{folder}/game-*.json")):
        replay = json.load(open(path))
        turns = replay["turns"]
        lines = [(t["turn"], (t.get("turn_lines") or [""])[0]) for t in turns]
        acted = [(turn, line) for turn, line in lines if " Sooner " in line]
        for turn, line in acted:
            before = fire_turn(turn - 1, lines[turn - 1][1])
            after = fire_turn(turn, line)
            print(path.split("/")[-1], "turn", turn, "fire", before, "->", after)
        mine, theirs = first_big(turns, 0), first_big(turns, 1)
        first = mine is not None and (theirs is None or mine < theirs)
        won = replay["result"]["winner"] == 0
        rows[bool(acted)].append((first, won))
    for acted, games in rows.items():
        if games:
            print(f"{'with' if acted else 'without'} a sooner fire: {len(games)} games, "
                  f"won {sum(w for _, w in games)}, p0's first 10+ chain strictly first in "
                  f"{sum(f for f, _ in games)}")


if __name__ == "__main__":
    main(sys.argv[1])
