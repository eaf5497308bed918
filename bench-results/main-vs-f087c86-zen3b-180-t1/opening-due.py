"""The default's turn-0 plan against what happened: for each replay, the turn its opening plan
was due to fire ("plan N moves": due on turn N), the turn each player fired its first chain of
10 or more, and the winner; then the games grouped by whether the default fired on the due
turn, the opponent fired before it, or the default fired later with no opponent fire before.

Usage: python3 opening-due.py REPLAY_DIR  (player 0 must be the default, run with -tm)
"""
import collections
import glob
import json
import re
import statistics
import sys


def first_big(turns, player):
    for t in turns:
        if t["chains"][player] >= 10:
            return t["turn"]
    return None


def main(folder):
    groups = collections.Counter()
    dues = []
    for path in sorted(glob.glob(f"{folder}/game-*.json")):
        game = json.load(open(path))
        line = game["turns"][0]["turn_lines"][0] or ""
        plan = re.search(r"plan (\d+) moves to (\d+)", line)
        if not plan:
            continue
        due = int(plan.group(1))
        dues.append(due)
        mine, theirs = (first_big(game["turns"], p) for p in (0, 1))
        mine = 99 if mine is None else mine
        theirs = 99 if theirs is None else theirs
        if theirs < due:
            group = "the opponent fired before the due turn"
        elif mine == due:
            group = "the default fired on the due turn"
        elif mine < due:
            group = "the default fired before the due turn"
        else:
            group = "the default fired later, the opponent not before the due turn"
        won = game["result"]["winner"] == 0
        groups[group, won] += 1
    print(f"turn-0 plans: {len(dues)}, due on turn {statistics.mean(dues):.2f} on average")
    for group in sorted({g for g, _ in groups}):
        wins, losses = groups[group, True], groups[group, False]
        print(f"{group}: {wins + losses} games, the default won {wins}")


if __name__ == "__main__":
    main(sys.argv[1])
