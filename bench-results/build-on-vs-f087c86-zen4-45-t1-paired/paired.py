"""Two matches played on the same packs, compared game by game (by seed): how often each
result changed, and a sign test on the games whose winner changed.

Usage: python3 paired.py BASE_RESULTS NEW_RESULTS
"""
import json
import math
import sys


def wins(path):
    """seed -> whether p0 won."""
    return {g["seed"]: g["winner"] == 0 for g in map(json.loads, open(path))}


def sign_test(gained, lost):
    """Two-sided p-value of `gained` against `lost` under a fair coin."""
    n = gained + lost
    k = min(gained, lost)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def main(base_path, new_path):
    base, new = wins(base_path), wins(new_path)
    seeds = sorted(base.keys() & new.keys())
    both = sum(base[s] and new[s] for s in seeds)
    neither = sum(not base[s] and not new[s] for s in seeds)
    gained = [s for s in seeds if new[s] and not base[s]]
    lost = [s for s in seeds if base[s] and not new[s]]
    print(f"games on the same packs: {len(seeds)}")
    print(f"  base {sum(base[s] for s in seeds)} wins, new {sum(new[s] for s in seeds)} wins")
    print(f"  won by both {both}, lost by both {neither}")
    print(f"  won only by new {len(gained)}, only by base {len(lost)}; "
          f"sign test p = {sign_test(len(gained), len(lost)):.3f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
