"""Two builds' plans from the same positions, each computing one turn alone (`-t N`) on p0's
input of a match's games (rebuilt with `ysai arena replay --input-of 0 --tc 45000+5000`),
one thread, 5 s turns. Two kinds of turns:

  open     turn 0: the opening plan (moves to its fire, chain)
  counter  the turn on which p1 fired the game's first chain of 10 or more while p0 did not,
           where p0's -tm line in the match says Counter: the counter plan

Usage: python3 plans-from-the-same-position.py open|counter BUILD_A BUILD_B REPLAY_DIR GAMES
Prints one line per game: the plan in the match (counter only), then each build's plan as
(move on which it fires, chain) and its turn's elapsed ms.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

PLAN = re.compile(r"plan (\d+) moves to (\d+) \((\d+) ojama\)")
BLOCK = 43  # lines per turn in an input, after the 1,500 lines of packs and the header
INPUTS = tempfile.mkdtemp(prefix="plans-")


def turn_input(binary, replay, turn):
    text = subprocess.run([binary, "arena", "replay", replay, "--input-of", "0", "--tc",
                           "45000+5000"], capture_output=True, text=True, check=True).stdout
    path = os.path.join(INPUTS, f"{os.path.basename(replay)}-{turn}.txt")
    open(path, "w").write("".join(text.splitlines(True)[:1500 + BLOCK * (turn + 1)]))
    return path


def plan_of(line):
    """(move on which the plan fires, chain), counting this turn's move as move 1."""
    m = PLAN.search(line)
    return (int(m.group(1)) + 1, int(m.group(2))) if m else None


def decide(binary, path, turn):
    run = subprocess.run([binary, "--threads", "1", "--turn-ms", "5000", "-tm", "-t",
                          str(turn)], stdin=open(path), capture_output=True, text=True)
    # A build's first -tm line with a plan (the rush planner's own line comes first).
    lines = [l for l in run.stderr.splitlines() if l.startswith(f"Turn {turn} ") and " plan " in l]
    line = lines[0] if lines else ""
    elapsed = re.search(r"elapsed (\d+)", line)
    return plan_of(line), elapsed.group(1) if elapsed else "?"


def counter_turn(replay):
    turns = replay["turns"]
    for turn, t in enumerate(turns):
        if max(t["chains"]) >= 10:
            line = (t.get("turn_lines") or [""])[0]
            if t["chains"][1] >= 10 > t["chains"][0] and " Counter " in line:
                return turn, line
            return None
    return None


def main(kind, a, b, folder, games):
    shown = 0
    for path in sorted(glob.glob(f"{folder}/game-*.json")):
        if shown >= games:
            break
        replay = json.load(open(path))
        if kind == "open":
            turn, head = 0, ""
        else:
            found = counter_turn(replay)
            if not found:
                continue
            turn, line = found
            head = f"t{turn} winner p{replay['result']['winner']} | match {plan_of(line)} | "
        shown += 1
        inp = turn_input(a, path, turn)
        (pa, ea), (pb, eb) = decide(a, inp, turn), decide(b, inp, turn)
        print(f"{os.path.basename(path)} {head}{os.path.basename(a)} {pa} in {ea} ms | "
              f"{os.path.basename(b)} {pb} in {eb} ms", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
