"""Why the default fired the game's first chain of 10 or more (when it fired first or on the
same turn), and whether the opponent answered with a longer chain within six turns (while
the rows of the first attack were still falling on it).

Usage: python3 first-fire-answer.py REPLAY_DIR  (player 0 must be the default, run with -tm)
"""
import collections
import glob
import json
import re
import sys

WINDOW = 6


def main(folder):
    groups = collections.Counter()
    for path in sorted(glob.glob(f"{folder}/game-*.json")):
        game = json.load(open(path))
        turns = game["turns"]
        fires = [(t["turn"], p, t["chains"][p]) for t in turns for p in (0, 1) if t["chains"][p] >= 10]
        if not fires or fires[0][1] != 0:
            continue
        turn, _, chains = fires[0]
        line = next(t for t in turns if t["turn"] == turn)["turn_lines"][0] or ""
        why = re.search(r"\b(Plan|Replan|Counter|HoldFire|Outbuild|Greedy|Lethal|Survive)\b", line)
        why = why.group(1) if why else "?"
        answered = any(
            p == 1 and turn <= t <= turn + WINDOW and c > chains for t, p, c in fires
        )
        won = game["result"]["winner"] == 0
        groups[why, answered, won] += 1
    for why in sorted({w for w, _, _ in groups}):
        for answered in (False, True):
            wins, losses = groups[why, answered, True], groups[why, answered, False]
            if wins + losses:
                said = "answered longer" if answered else "not answered longer"
                print(f"{why}, {said} within {WINDOW} turns: {wins + losses} games, won {wins}")


if __name__ == "__main__":
    main(sys.argv[1])
