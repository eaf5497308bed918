"""Second chains in the games of a match whose first chains of 10 or more were as long.

Usage: python3 second-chains.py results.jsonl REPLAY_DIR
REPLAY_DIR holds gK.json for every game K, each from
`ysai arena replay results.jsonl --game K --json REPLAY_DIR/gK.json`.
"""
import json,re,sys,collections
res={}
for l in open(sys.argv[1]):
    g=json.loads(l); res[g['game']]=g
rows=[]
for k,g in res.items():
    r=json.load(open(f'{sys.argv[2]}/g{k}.json'))
    ch=[(t['turn'],t['chains']) for t in r['turns']]
    big=[[(t,c[s]) for t,c in ch if c[s]>=10] for s in (0,1)]
    if not big[0] or not big[1]: continue
    rows.append((k,g['winner'],big, r['result']['turn']))
# equal first chains
eq=[x for x in rows if x[2][0][0][1]==x[2][1][0][1]]
print('games with both firing 10+:',len(rows),'equal first:',len(eq))
# winner by who fires the second 10+ first / bigger
stats=collections.Counter()
for k,w,big,end in eq:
    s0=big[0][1] if len(big[0])>1 else None
    s1=big[1][1] if len(big[1])>1 else None
    def key(s): return 'none' if s is None else s
    if s0 and s1:
        if s0[1]>s1[1]: c='p0 second bigger'
        elif s0[1]<s1[1]: c='p1 second bigger'
        else: c='second equal; p0 first' if s0[0]<s1[0] else ('second equal; p1 first' if s1[0]<s0[0] else 'second equal same turn')
    elif s0: c='only p0 second'
    elif s1: c='only p1 second'
    else: c='no second'
    stats[(c, 'p0 won' if w==0 else 'p1 won')]+=1
for k,v in sorted(stats.items()): print(k,v)
# time from first exchange to second chain
gaps=[]
for k,w,big,end in eq:
    for s in (0,1):
        if len(big[s])>1: gaps.append((big[s][1][0]-big[s][0][0], big[s][1][1]))
import statistics
print('second chain: turns after first', statistics.mean(g for g,_ in gaps), 'size', statistics.mean(c for _,c in gaps), len(gaps))
print('--- bigger second: when relative to the smaller one')
c2=collections.Counter()
for k,w,big,end in eq:
    if len(big[0])>1 and len(big[1])>1:
        s0,s1=big[0][1],big[1][1]
        if s0[1]==s1[1]: continue
        b,sm=(0,1) if s0[1]>s1[1] else (1,0)
        tb,ts=big[b][1][0],big[sm][1][0]
        rel='bigger later' if tb>ts else ('bigger sooner' if tb<ts else 'same turn')
        c2[(rel, 'bigger won' if w==b else 'bigger lost')]+=1
for k,v in sorted(c2.items()): print(k,v)
