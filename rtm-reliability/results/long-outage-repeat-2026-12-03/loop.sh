#!/bin/bash
# repeats the short long-outage run (the IT's settings) until it fails or 20 clean runs
cd /tmp/lo
for i in $(seq 1 20); do
  d=/tmp/lo/run-$i; mkdir -p $d
  start=$(date +%s)
  nice -n 5 java -jar /tmp/lo/chaos.jar --scenario long-outage --duration PT10S --rate 200 --report-dir $d \
    --app-jar ${APP:-/tmp/lo/app-old.jar} --app-jvm-option=-Xmx384m --app-jvm-option=-XX:TieredStopAtLevel=1 \
    --checkpoint-interval PT1S --drain PT90S --correlation-window PT5S > $d/out.log 2>&1
  rc=$?
  v=$(python3 -c "import json;r=json.load(open('$d/chaos-long-outage.json'));o=r.get('oracle') or r.get('load') or {};print(r.get('verdict'), json.dumps(r.get('failures')))" 2>&1)
  echo "run $i rc=$rc $(($(date +%s)-start))s load=$(cut -d' ' -f1 /proc/loadavg) $v" >> /tmp/lo/summary.txt
  if [ $rc -ne 0 ]; then echo "FAILED at run $i" >> /tmp/lo/summary.txt; break; fi
done
echo done >> /tmp/lo/summary.txt
