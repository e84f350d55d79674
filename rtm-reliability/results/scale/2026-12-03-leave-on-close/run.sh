#!/bin/bash
# A/B, alternating: scale-in 2 -> 1 and 3 -> 1, classic, at-least-once; before (6ac203c) and after leave-on-close
cd "$(git rev-parse --show-toplevel)"   # run from the repository root
for n in 2 3; do for rep in 1 2; do for v in old new; do
  if [ $v = old ]; then jar=/tmp/wt-old/adattribution-app/target/adattribution-app.jar; else jar=adattribution-app/target/adattribution-app.jar; fi
  while [ "$(awk '{print ($1 < 1.0)}' /proc/loadavg)" != 1 ]; do sleep 10; done
  echo "== n=$n rep=$rep $v $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  java -jar rtm-reliability/target/rtm-reliability.jar --scenario scale-in --instances $n --rate 500 --partitions 4 \
    --duration PT60S --fault-at 0.5 --drain PT120S --app-jar $jar --report-dir /tmp/scalein-ab/n$n-$rep-$v > /tmp/scalein-ab/n$n-$rep-$v.log 2>&1
  echo "exit $?"
done; done; done
