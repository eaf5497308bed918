"""p0's replans past the opening (turn 11 on) and the chains it fired, over the first N games
of each replay folder: how many replans planned a chain short of 13, how many looked deeper
than 10 moves, and p0's fires by length.

Usage: python3 short-plans.py N REPLAY_DIR...
"""
import collections
import glob
import json
import re
import sys

DEEP_BEAM = re.compile(r"\[plan-w\d+(?::\d+)? bd (1[1-9]) ")
PLAN = re.compile(r"plan (\d+) moves to (\d+)")


def bucket(chain):
    return "2-9" if chain < 10 else ("10-12" if chain < 13 else "13+")


def main(games, folders):
    for folder in folders:
        fires = collections.Counter()
        replans = short = deep = 0
        for game in range(games):
            try:
                replay = json.load(open(f"{folder}/game-{game:06d}.json"))
            except FileNotFoundError:
                continue
            for turn, t in enumerate(replay["turns"]):
                chain = t["chains"][0]
                if chain >= 2:
                    fires[bucket(chain)] += 1
                line = t["turn_lines"][0] or ""
                if " Replan " not in line or turn <= 10:
                    continue
                replans += 1
                deep += bool(DEEP_BEAM.search(line))
                plan = PLAN.search(line)
                short += bool(plan) and int(plan.group(2)) < 13
        print(f"{folder.rstrip('/').split('/')[-1]}: {replans} replans past turn 10, {short} short "
              f"of 13, {deep} with a beam deeper than 10; fires "
              + ", ".join(f"{k}: {fires[k]}" for k in ("2-9", "10-12", "13+")))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2:])
