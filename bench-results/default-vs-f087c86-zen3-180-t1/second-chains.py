"""Each player's first and second chains of 10 or more, read from a match's replays.

Usage: python3 second-chains.py REPLAY_DIR
Prints, per game where both first chains were as long, each side's first and next chain of 6
or more (turn, length); then, over all games, past turn 12, how long p0 thought on turns
where it replayed a plan (its -tm line says `Plan`) and on the others, and how long p1
thought; and the turns from each side's first 10+ chain to its second.
"""
import glob
import json
import re
import statistics
import sys


def big(turns, player, least):
    return [(t["turn"], t["chains"][player]) for t in turns if t["chains"][player] >= least]


def main(folder):
    gaps = [[], []]
    games = sorted(glob.glob(f"{folder}/game-*.json"))
    for path in games:
        replay = json.load(open(path))
        turns = replay["turns"]
        firsts = [big(turns, p, 10)[:1] for p in (0, 1)]
        for p in (0, 1):
            chains = big(turns, p, 10)
            if len(chains) >= 2:
                gaps[p].append(chains[1][0] - chains[0][0])
        if not all(firsts) or firsts[0][0][1] != firsts[1][0][1]:
            continue
        nexts = []
        for p in (0, 1):
            after = [c for c in big(turns, p, 6) if c[0] > firsts[p][0][0]]
            nexts.append(after[0] if after else None)
        won = "W" if replay["result"]["winner"] == 0 else "L"
        print(path.split("/")[-1], "first", firsts[0][0], firsts[1][0], "next", nexts, won)
    thinking(games)
    for p in (0, 1):
        print(f"p{p}: second 10+ chain in {len(gaps[p])} of {len(games)} games, "
              f"{statistics.median(gaps[p])} turns after the first in the median")


def thinking(games):
    replaying, other, opponent = [], [], []
    for path in games:
        for turn in json.load(open(path))["turns"][12:]:
            why = re.search(r"tt \d+% (\w+)", turn.get("turn_lines", [None])[0] or "")
            mine, theirs = turn["think_ms"]
            if why and mine is not None:
                (replaying if why.group(1) == "Plan" else other).append(mine)
            if theirs is not None:
                opponent.append(theirs)
    print(f"past turn 12: p0 replaying {len(replaying)} turns, median "
          f"{statistics.median(replaying):.0f} ms; p0 on {len(other)} other turns, median "
          f"{statistics.median(other):.0f} ms; p1 median {statistics.median(opponent):.0f} ms, "
          f"mean {statistics.mean(opponent):.0f} ms")


main(sys.argv[1])
