"""First chains of 10 or more by who fired first and whose was longer (wins-losses of p0), and
the counter plans that replaced a plan with one sending less and no sooner (or with none).
Usage: python3 exchange-shape.py RESULTS (a results file that keeps each game's -tm lines)."""
import json
import re
import sys
from collections import Counter

games = [json.loads(line) for line in open(sys.argv[1])]
shape = Counter()
for g in games:
    mine, theirs = g["first_big_chains"]
    if not mine or not theirs:
        continue
    when = "same" if mine["turn"] == theirs["turn"] else ("first" if mine["turn"] < theirs["turn"] else "second")
    size = "bigger" if mine["chains"] > theirs["chains"] else ("equal" if mine["chains"] == theirs["chains"] else "smaller")
    shape[(when, size, g["winner"] == 0)] += 1
for when in ["first", "same", "second"]:
    print(f"p0 fired {when}:", " ".join(f"{s} {shape[(when, s, True)]}-{shape[(when, s, False)]}" for s in ["bigger", "equal", "smaller"]))

line = re.compile(r" (\w+) \d+ \d+ plan (?:(\d+) moves to (\d+) \((\d+) ojama\)|-)")
events = worse = worse_lost = 0
for g in games:
    before = None
    for text in g["record"].get("turn_lines", [[]])[0]:
        m = line.search(text)
        if not m:
            before = None
            continue
        plan = (int(m.group(2)), int(m.group(4))) if m.group(2) else None
        if m.group(1) == "Counter" and before:
            events += 1
            if plan is None or (plan[1] < before[1] and plan[0] >= before[0] - 1):
                worse += 1
                worse_lost += g["winner"] == 1
        before = plan
print(f"counter plans replacing a plan: {events}; sending less and no sooner, or none: {worse}, {worse_lost} of them in games p0 lost")
