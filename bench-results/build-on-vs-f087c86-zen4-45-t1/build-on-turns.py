"""The turns on which p0 built on instead of firing a plan short of the target (BuildOn on its
-tm line): the chain it gave up, the chain and moves of the plan it took instead, what it
fired next (within 15 turns) and whether it won.

Usage: python3 build-on-turns.py REPLAY_DIR
"""
import glob
import json
import re
import sys


def main(folder):
    turns_seen = kept = 0
    games = {}
    for path in sorted(glob.glob(f"{folder}/game-*.json")):
        replay = json.load(open(path))
        turns = replay["turns"]
        won = replay["result"]["winner"] == 0
        for turn, t in enumerate(turns):
            line = t["turn_lines"][0] or ""
            if " BuildOn " not in line:
                continue
            plan = re.search(r"plan (\d+) moves to (\d+)", line)
            moves, chain = int(plan.group(1)), int(plan.group(2))
            before = re.search(r"plan 1 moves to (\d+)", turns[turn - 1]["turn_lines"][0] or "")
            fired = next(((later - turn, turns[later]["chains"][0])
                          for later in range(turn, min(len(turns), turn + 15))
                          if turns[later]["chains"][0] >= 2), None)
            turns_seen += 1
            kept += bool(fired) and fired[1] >= chain
            games[path] = won
            print(f"{path.split('/')[-1]} turn {turn}: gave up {before.group(1) if before else '?'}, "
                  f"planned {chain} in {moves} moves, fired {fired}, {'won' if won else 'lost'}")
    print(f"{turns_seen} turns in {len(games)} games (won {sum(games.values())}); "
          f"the planned chain or longer fired in {kept}")


if __name__ == "__main__":
    main(sys.argv[1])
