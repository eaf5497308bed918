#!/bin/sh
# The plan each build searches on the turn of the default's first replan after an exchange of
# equal first chains (10 or more), in the games of this match where the two first chains were
# as long, from one side's position: SIDE 0 (the default's, if omitted) or 1 (f087c86's).
# Usage: second-plans.sh REPLAY_DIR DEFAULT_BIN F087C86_BIN [SIDE]
# Prints, per game and turn, each build's time and plan from its -tm line for that one turn.
dir=$1 a=$2 b=$3 side=${4:-0}
tmp=$(mktemp -d)
for gt in "5 16" "8 15" "9 11" "18 12" "19 13" "20 14" "24 11" "25 18" "32 13" "33 13"; do
  set -- $gt
  $a arena replay "$dir/game-$(printf %06d "$1").json" --input-of "$side" > "$tmp/in"
  echo "game $1 turn $2"
  echo "  default: $($a --threads 1 -tm -t "$2" < "$tmp/in" 2>&1 >/dev/null | grep "^Turn $2 " | grep -o 'elapsed [0-9]*\| [A-Z][a-z]* [0-9] [0-9] plan .*')"
  echo "  f087c86: $($b --threads 1 -tm -t "$2" < "$tmp/in" 2>&1 >/dev/null | grep "^Turn $2 " | head -1 | grep -o 'elapsed [0-9]*\| [A-Z][a-z]* [0-9] [0-9] plan .*')"
done
rm -rf "$tmp"
