"""Games with and without a HoldFire turn, read from p0's -tm lines in replays.

Usage: python3 holds.py REPLAY_DIR [REPLAY_DIR ...]
"""
import glob
import json
import sys
from collections import Counter


def p0_line(turn):
    return (turn.get("turn_lines") or [None])[0] or ""


games = Counter()
ended_soon = Counter()
for folder in sys.argv[1:]:
    for path in sorted(glob.glob(f"{folder}/*.json")):
        replay = json.load(open(path))
        turns = replay["turns"]
        won = replay["result"]["winner"] == 0
        holds = [i for i, t in enumerate(turns) if " HoldFire " in p0_line(t)]
        games[(bool(holds), won)] += 1
        if holds:
            ended_soon[(won, len(turns) - holds[0] <= 10)] += 1

for held in (True, False):
    n = games[(held, True)] + games[(held, False)]
    print(f"{'with' if held else 'without'} a HoldFire turn: {n} games, won {games[(held, True)]}")
for won in (True, False):
    print(
        f"games {'won' if won else 'lost'} with a hold: ended within 10 turns of the first in "
        f"{ended_soon[(won, True)]}, later in {ended_soon[(won, False)]}"
    )
