"""How the games of a gauntlet were decided: each pairing's games by the first chains of 10 or
more (longer, equal, who fired first) and the second chains after them (how many turns after
the later first chain, how long), for the engine named ENGINE against each other engine.

Usage: python3 first-and-second.py results.jsonl REPLAY_DIR ENGINE
REPLAY_DIR holds OPPONENT-K.json for game K of the pairing with OPPONENT, each from
`ysai arena replay results.jsonl --game K --pairing ENGINE-vs-OPPONENT --json REPLAY_DIR/OPPONENT-K.json`.
"""
import collections, json, statistics, sys

results, replays, me = sys.argv[1:4]
lines = [json.loads(l) for l in open(results)]
by_opp = collections.defaultdict(list)
for g in lines:
    if me in g['engines']:
        by_opp[[e for e in g['engines'] if e != me][0]].append(g)


def chains(replay, side):
    return [(t['turn'], t['chains'][side]) for t in replay['turns'] if t['chains'][side] >= 10]


for opp, games in sorted(by_opp.items()):
    firsts = collections.Counter()
    gaps = {0: [], 1: []}
    sizes = {0: [], 1: []}
    for g in games:
        m = g['engines'].index(me)
        replay = json.load(open(f"{replays}/{opp}-{g['game']}.json"))
        big = [chains(replay, m), chains(replay, 1 - m)]
        won = g['winner'] == m
        if not big[0] or not big[1]:
            firsts[('only one side (or none) fired 10+', won)] += 1
            continue
        (t0, c0), (t1, c1) = big[0][0], big[1][0]
        length = 'longer' if c0 > c1 else ('shorter' if c0 < c1 else 'equal')
        when = 'sooner' if t0 < t1 else ('later' if t0 > t1 else 'same turn')
        firsts[(f'{me} first chain {length}, fired {when}', won)] += 1
        after = max(t0, t1)
        for s in (0, 1):
            if len(big[s]) > 1:
                gaps[s].append(big[s][1][0] - after)
                sizes[s].append(big[s][1][1])
    print(f'== {me} against {opp}: {len(games)} games')
    for key in sorted({k for k, _ in firsts}):
        w, l = firsts[(key, True)], firsts[(key, False)]
        print(f'  {key}: {w}-{l}')
    for s, who in ((0, me), (1, opp)):
        if gaps[s]:
            print(f'  {who}: second chain of 10+ in {len(gaps[s])} games, '
                  f'{statistics.mean(gaps[s]):.1f} turns after both first chains, '
                  f'{statistics.mean(sizes[s]):.1f} chains')
