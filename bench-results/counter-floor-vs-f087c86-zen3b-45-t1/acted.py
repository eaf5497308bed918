"""Turns on which the raised floor acted: before turn 15, a threat of 40 to 59 above each of
the four before it (a spike at main's floor, none at 60), read from p0's `-tm` lines; and how
those games ended. Usage: python3 acted.py REPLAY_DIR"""
import glob
import json
import re
import sys

acted_games = won = 0
acted_turns = 0
for path in sorted(glob.glob(f"{sys.argv[1]}/game-*.json")):
    game = json.load(open(path))
    threats = []
    acted = False
    for t in game["turns"]:
        line = (t.get("turn_lines") or [None])[0] or ""
        m = re.search(r" threat (-?\d+)$", line)
        if not m:
            continue
        threat = int(m.group(1))
        if t["turn"] < 15 and 40 <= threat < 60 and all(x < threat for x in threats[-4:]):
            acted = True
            acted_turns += 1
            print(f"{path.split('/')[-1]} turn {t['turn']}: {line}")
        threats.append(threat)
    if acted:
        acted_games += 1
        won += game["result"]["winner"] == 0
print(f"acted on {acted_turns} turns of {acted_games} games; p0 won {won} of them")
