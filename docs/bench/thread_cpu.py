#!/usr/bin/env python3
"""CPU per thread group of a running JVM over a window (BENCHMARKS.md, 2026-12-07, 065168c).

    python3 docs/bench/thread_cpu.py PID SECONDS

Two snapshots of /proc/PID/task/*/stat SECONDS apart; threads grouped by name with trailing digits dropped (Linux
keeps 15 characters of a name: the stream threads carry the application id, the producer's I/O threads read
"kafka-producer-", RocksDB's "rocksdb:low"/"rocksdb:high", the JIT's "C2 CompilerThre"). Prints CPU seconds per group;
divide by the events of the window for us per event. A thread that ends inside the window is not counted.
"""
import os
import re
import sys
import time


def snapshot(pid):
    ticks = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{tid}/stat").read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        ticks[tid] = (name, int(fields[11]) + int(fields[12]))
    return ticks


def main(pid, seconds):
    hz = os.sysconf("SC_CLK_TCK")
    before = snapshot(pid)
    time.sleep(seconds)
    after = snapshot(pid)
    groups = {}
    for tid, (name, ticks) in after.items():
        group = re.sub(r"[-_ #]?\d+$", "", name)
        groups[group] = groups.get(group, 0) + (ticks - before.get(tid, (name, 0))[1]) / hz
    for group, cpu in sorted(groups.items(), key=lambda kv: -kv[1]):
        if cpu > 0:
            print(f"{group:20s} {cpu:7.2f} s")
    print(f"{'all':20s} {sum(groups.values()):7.2f} s")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(int(sys.argv[1]), float(sys.argv[2]))
