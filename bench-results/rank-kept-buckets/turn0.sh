#!/bin/sh
# Turn 0 of 20 arena inputs, both builds one after the other on an idle machine.
for i in $(seq 0 19); do
  for b in 49d6832 95b898f; do
    line=$(/work/bin/ysai-$b --threads 1 --turn-ms 5000 -tm -t 0 < /tmp/t0/in-$i.txt 2>&1 >/dev/null | grep '^Turn 0')
    echo "$i $b $line"
  done
done
