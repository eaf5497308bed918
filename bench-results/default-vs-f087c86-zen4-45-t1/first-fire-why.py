"""The game's first chain of 10 or more, by who fired it (p0 alone, p1 alone, both on the same
turn) and by why p0 played its move that turn (the reason on its -tm line), with p0's wins; and of p0's counter plans among them, how many
came on the turn its plan was due to fire, the counter firing a chain as long.

Usage: python3 first-fire-why.py REPLAY_DIR
"""
import collections
import glob
import json
import re
import sys

REASON = re.compile(r" (Plan|Replan|Counter|HoldFire|BuildOn|Outbuild|Greedy|Lethal|Survive) ")


def first_fire(turns):
    """(turn, who) of the first chain of 10 or more: 'p0', 'p1' or 'both'."""
    for turn, t in enumerate(turns):
        chains = t["chains"]
        if max(chains) >= 10:
            who = "both" if min(chains) >= 10 else ("p0" if chains[0] >= 10 else "p1")
            return turn, who
    return None


def main(folder):
    games = collections.Counter()
    won = collections.Counter()
    counters = due = 0
    for path in sorted(glob.glob(f"{folder}/game-*.json")):
        replay = json.load(open(path))
        found = first_fire(replay["turns"])
        if not found:
            continue
        turn, who = found
        line = replay["turns"][turn]["turn_lines"][0] or ""
        reason = REASON.search(line)
        key = (who, reason.group(1) if reason else "?")
        if key[1] == "Counter" and who != "p1":
            counters += 1
            before = replay["turns"][turn - 1]["turn_lines"][0] or ""
            planned = re.search(r"plan 1 moves to (\d+) ", before)
            due += bool(planned) and int(planned.group(1)) == replay["turns"][turn]["chains"][0]
        games[key] += 1
        won[key] += replay["result"]["winner"] == 0
    print("first 10+ chain by | p0's reason that turn | games | p0 won")
    for key in sorted(games):
        print(f"{key[0]} | {key[1]} | {games[key]} | {won[key]}")
    print(f"p0's counter plans that fired it: {counters}, on the turn the plan was due with a "
          f"chain as long: {due}")


if __name__ == "__main__":
    main(sys.argv[1])
