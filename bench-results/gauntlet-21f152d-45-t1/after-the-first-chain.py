"""Each side after its first chain of 10 or more: the numbered blocks its field kept, how many
turns its next chain of 10 or more took (by blocks kept), and both fields three turns after
the later of the two first chains (numbered blocks, ojama blocks, tallest column, stock).

Usage: python3 after-the-first-chain.py 'REPLAY_DIR/OPPONENT-*.json'
(replays rebuilt with `ysai arena replay results.jsonl --game K --pairing ENGINE-vs-OPPONENT
--json REPLAY_DIR/OPPONENT-K.json`).
"""
import glob, json, statistics as st, sys


def numbered(field):
    return sum(1 for row in field for v in row if 1 <= v <= 9)


def ojama(field):
    return sum(1 for row in field for v in row if v > 9)


def tallest(field):
    return max(next((16 - y for y in range(16) if field[y][x]), 0) for x in range(10))


games = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[1]))]
kept, later = {0: [], 1: []}, {0: [], 1: []}
for game in games:
    firsts = [None, None]
    for p in (0, 1):
        first = None
        for turn in game["turns"]:
            chain = turn["chains"][p]
            if chain >= 10 and first is None:
                first = (turn["turn"], numbered(turn["state"][p]["field"]))
                firsts[p] = turn["turn"]
            elif chain >= 10:
                kept[p].append((first[1], turn["turn"] - first[0], chain))
                break
        else:
            if first:
                kept[p].append((first[1], None, 0))
    if None in firsts:
        continue
    at = [t for t in game["turns"] if t["turn"] == max(firsts) + 3]
    for p in (0, 1):
        if at:
            s = at[0]["state"][p]
            later[p].append((numbered(s["field"]), ojama(s["field"]), tallest(s["field"]), s["stock"]))
for p in (0, 1):
    rows = kept[p]
    second = [r for r in rows if r[1] is not None]
    print(f"p{p}: first chain in {len(rows)} games, {st.mean(r[0] for r in rows):.1f} numbered blocks kept; "
          f"a second 10+ in {len(second)}, {st.mean(r[1] for r in second):.1f} turns later, {st.mean(r[2] for r in second):.1f} chains")
    for lo, hi in ((0, 8), (8, 12), (12, 16), (16, 99)):
        band = [r for r in rows if lo <= r[0] < hi]
        got = [r for r in band if r[1] is not None]
        if got:
            print(f"  {lo}-{hi - 1} blocks kept: {len(band)} games, a second in {len(got)}, {st.mean(r[1] for r in got):.1f} turns later")
    if later[p]:
        n, o, h, s = (st.mean(r[i] for r in later[p]) for i in range(4))
        print(f"  3 turns after both first chains ({len(later[p])} games): {n:.1f} numbered, {o:.1f} ojama, tallest {h:.1f}, stock {s:.1f}")
