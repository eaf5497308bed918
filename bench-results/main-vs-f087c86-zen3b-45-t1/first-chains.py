"""Sorts a match's games by who fired the first chain of 10 or more and how its length
compared, from p0's side: python3 first-chains.py results.jsonl"""
import collections
import json
import sys


def cell(mine, theirs):
    if mine is None and theirs is None:
        return "neither fired one"
    if theirs is None:
        return "p0 alone"
    if mine is None:
        return "p1 alone"
    when = mine["turn"] - theirs["turn"]
    length = mine["chains"] - theirs["chains"]
    order = "p0 first" if when < 0 else "p1 first" if when > 0 else "same turn"
    size = "longer" if length > 0 else "shorter" if length < 0 else "as long"
    return f"{order}, p0's {size}"


games = collections.Counter()
won = collections.Counter()
for line in open(sys.argv[1]):
    game = json.loads(line)
    key = cell(*game["first_big_chains"])
    games[key] += 1
    won[key] += game["winner"] == 0
for key in sorted(games):
    print(f"{key:28} p0 won {won[key]:3} of {games[key]:3}")
