"""How often plan refining moved the plan's fire: for every `Refine` turn of the `-tm` side,
the fire's turn against the plan's the turn before (later, the same turn, sooner), in the
opening (turns up to 10) and after it.

Usage: python3 refine-later.py results.jsonl   (a results file whose games kept their -tm lines)
"""
import collections, json, re, sys

LINE = re.compile(r'Turn (\d+) .* (\w+) \d+ \d+ plan (?:(\d+) moves to (\d+)|-)')
moved = collections.Counter()
games = 0
for text in open(sys.argv[1]):
    record = json.loads(text)['record']
    lines = next(l for l in record.get('turn_lines') or [] if l)
    games += 1
    before = None
    for line in lines:
        m = LINE.match(line)
        if not m:
            before = None
            continue
        turn, why = int(m.group(1)), m.group(2)
        fire = turn + int(m.group(3)) - 1 if m.group(3) else None
        if why == 'Refine' and before is not None and fire is not None:
            when = 'later' if fire > before else ('same turn' if fire == before else 'sooner')
            moved[('opening' if turn <= 10 else 'after the opening', when)] += 1
        before = fire
print(f'{games} games')
for key, n in sorted(moved.items()):
    print(f'  {key[0]}, fire {key[1]}: {n}')
