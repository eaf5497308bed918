"""The first exchange of a match's games, read from its replays: who fired the first chain of
10 or more, how soon and how big the other side's answer (its next chain of 5 or more) came,
and who won; and how ready each side was, as the longest chain on offer (every move of the
turn's pack tried, after the turn's ojama row) that `ysai arena replay --html` writes into
each game's page.

Usage: python3 exchanges.py YSAI_BINARY REPLAY_DIR...
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

PAGES = tempfile.mkdtemp(prefix="exchanges-")


def on_offer(binary, path):
    """Per turn, both sides' longest chain on offer."""
    page = os.path.join(PAGES, path.replace("/", "_") + ".html")
    subprocess.run([binary, "arena", "replay", path, "--html", page], check=True,
                   capture_output=True)
    text = open(page).read()
    return [tuple(map(int, m)) for m in re.findall(r'"best":\[(\d+),(\d+)\]', text)]


def first_exchange(turns):
    """(turn, firer) of the first chain of 10 or more fired by one side alone, else None."""
    for turn, t in enumerate(turns):
        chains = t["chains"]
        if max(chains) >= 10:
            if min(chains) >= 10:
                return None
            return turn, 0 if chains[0] >= 10 else 1
    return None


def answer(turns, turn, side):
    """(delay, chain) of `side`'s next chain of 5 or more after `turn`, else None."""
    for later in range(turn + 1, len(turns)):
        if turns[later]["chains"][side] >= 5:
            return later - turn, turns[later]["chains"][side]
    return None


def main(binary, folders):
    rows = collections.defaultdict(list)
    for folder in folders:
        for path in sorted(glob.glob(f"{folder}/game-*.json")):
            replay = json.load(open(path))
            turns = replay["turns"]
            found = first_exchange(turns)
            if not found:
                continue
            turn, firer = found
            other = 1 - firer
            best = on_offer(binary, path)
            rows[firer].append({
                "chain": turns[turn]["chains"][firer],
                "answer": answer(turns, turn, other),
                "warned": turn >= 1 and best[turn - 1][firer] >= 12,
                "ready": best[turn][other],
                "ready_next": best[turn + 1][other] if turn + 1 < len(best) else 0,
                "firer_won": replay["result"]["winner"] == firer,
            })
    for firer in (0, 1):
        games = rows[firer]
        other = 1 - firer
        print(f"p{firer} fires first: {len(games)} games, won {sum(g['firer_won'] for g in games)}; "
              f"a 12+ on offer the turn before in {sum(g['warned'] for g in games)} "
              f"(won {sum(g['firer_won'] for g in games if g['warned'])})")
        mean = lambda key: sum(g[key] for g in games) / max(1, len(games))
        print(f"  p{other}'s longest chain on offer that turn {mean('ready'):.2f}, "
              f"the next {mean('ready_next'):.2f}")
        by_delay = collections.defaultdict(list)
        for g in games:
            if g["answer"]:
                delay, chain = g["answer"]
                by_delay[min(delay, 8)].append((chain - g["chain"], not g["firer_won"]))
        for delay in sorted(by_delay):
            cases = by_delay[delay]
            label = f"{delay}+" if delay == 8 else str(delay)
            print(f"  p{other} answers after {label} turns: {len(cases)} games, "
                  f"{sum(d for d, _ in cases) / len(cases):+.2f} chains against the first, "
                  f"p{other} won {sum(w for _, w in cases)}")
        unanswered = [g for g in games if not g["answer"]]
        print(f"  no answer: {len(unanswered)}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
