"""What became of p0's turn-0 plan, read from a match's replays (p0's `-tm` lines): the first
turn on which the plan was not simply followed (Counter, HoldFire, Replan, ...) before it was
due, or whether it fired as planned; with whether p1 had fired its first chain of 10 or more
before, on or after that turn, and the games p0 won. Then, for the counter plans that replaced
it before p1 fired, on a threat of 45 ojama (a 12-chain on offer) with the plan one to three
turns from its fire: when p1 fired, against the turn the plan was due. The mean turn the
turn-0 plans were due on is printed with their count.

Usage: python3 plan-fate.py REPLAY_DIR...
"""
import collections
import glob
import json
import re
import sys

LINE = re.compile(r"(\w+) (-?\d+ \d+|S) plan (\S+)(?: moves to (\d+))?.*threat (-?\d+)")


def main(folders):
    fate, won = collections.Counter(), collections.Counter()
    dues = []
    late, late_won = collections.Counter(), collections.Counter()
    for folder in folders:
        for path in sorted(glob.glob(f"{folder}/game-*.json")):
            replay = json.load(open(path))
            turns = replay["turns"]
            p0_won = replay["result"]["winner"] == 0
            first = LINE.search((turns[0].get("turn_lines") or [""])[0])
            if not first or first.group(3) == "-":
                continue
            due = int(first.group(3))  # moves left after turn 0's: the fire is on turn `due`
            dues.append(due)
            p1_fired = next((t for t, x in enumerate(turns) if x["chains"][1] >= 10), None)
            kind = "no line"
            for turn in range(1, min(due + 1, len(turns))):
                line = LINE.search((turns[turn].get("turn_lines") or [""])[0])
                if line and line.group(1) != "Plan":
                    when = ("p1 not yet fired" if p1_fired is None or p1_fired > turn
                            else "p1 fires that turn" if p1_fired == turn else "p1 fired before")
                    kind = f"{line.group(1)}, {when}"
                    threat = int(line.group(5))
                    if line.group(1) == "Counter" and when == "p1 not yet fired" \
                            and threat == 45 and 1 <= due - turn <= 3:
                        key = ("p1 fired after the plan's turn" if p1_fired is None or p1_fired > due
                               else "p1 fired on the plan's turn" if p1_fired == due
                               else "p1 fired before the plan's turn")
                        late[key] += 1
                        late_won[key] += p0_won
                    break
                if turn == due:
                    kind = "fired as planned" if turns[turn]["chains"][0] >= 10 else "due, no chain"
            fate[kind] += 1
            won[kind] += p0_won
    print(f"{sum(fate.values())} games with a turn-0 plan, due on turn {sum(dues) / len(dues):.2f} "
          "on average:")
    for kind, n in fate.most_common():
        print(f"  {kind}: {n} (p0 won {won[kind]})")
    print("counter plans on a threat of 45, the plan 1 to 3 turns from its fire, p1 not yet fired:")
    for key, n in late.most_common():
        print(f"  {key}: {n} (p0 won {late_won[key]})")


if __name__ == "__main__":
    main(sys.argv[1:])
