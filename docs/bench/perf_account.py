#!/usr/bin/env python3
"""The per-step account of a service's stream threads from a perf recording (BENCHMARKS.md, 2026-12-07, 065168c).

    python3 docs/bench/perf_account.py RECORDING.perf.data STREAM_THREAD_US_PER_EVENT [THREAD_PREFIX]

RECORDING is `perf record -F 499 -g -p <pid>` of a JVM started with -XX:+PreserveFramePointer
-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit (run after the JVM exited, so /tmp/perf-<pid>.map names the
JIT-compiled code). Each sample of a thread whose name starts with THREAD_PREFIX (default "loadgen-": the bench's
application ids; Linux keeps 15 characters of a thread's name) goes to the first step whose pattern its stack holds,
root first; the shares are turned into us per event with the stream threads' CPU per event (from /proc, thread_cpu.py).
"""
import collections
import re
import subprocess
import sys

STEPS = [
    ("poll: fetch, parse, network", r"StreamThread\.pollPhase"),
    ("commit", r"maybeCommit|TaskExecutor\.commit|TaskManager\.commit"),
    ("punctuate (eviction, idle checks)", r"[Pp]unctuat"),
    ("join: row batches to the changelog", r"MeteredKeyValueStore\.put.*(RecordCollectorImpl|KafkaProducer)"),
    ("join: key and id filter adds", r"BufferKeyFilter\.add"),
    ("join: RocksDB puts (row, time index)",
     r"RocksDB\.put|RocksDB_put|QueryableOperatorStore\.put|RowBatch|SideBuffer\.writeLocal|flushBulk"
     r"|RocksDB\.write|RocksDB_write|DBImpl::Write"),
    ("join: RocksDB range scans (probe)", r"SideBuffer\.rows|RocksIterator|RocksDB\.iterator|RocksDbIterator|DBAccessor\.range"),
    ("join: key and id filter probes", r"BufferKeyFilter"),
    ("output send (sink, producer)", r"RecordCollectorImpl\.send|KafkaProducer"),
    ("join: the match (joiner, buffered row decoded)", r"(JoinCore|JoinMatcher)\.emit"),
    ("Avro decode", r"org\.apache\.avro|AvroSerde"),
    ("Kafka metrics sensors", r"common\.metrics"),
    ("join: other (checks, watermark, meta)", r"dev\.rtmstreams\.join"),
    ("rtm other (decode step, epochs, latency header)", r"dev\.rtmstreams"),
    ("Kafka Streams runtime (record queues, nodes, forward)", r"org\.apache\.kafka\.streams"),
    ("other (loop, kernel, JVM)", r"."),
]


def main(recording, us_per_event, prefix="loadgen-"):
    text = subprocess.run(
        ["perf", "script", "-i", recording, "-F", "comm,tid,period,ip,sym,dso"],
        capture_output=True, text=True, check=True).stdout
    steps = [(name, re.compile(rx)) for name, rx in STEPS]
    counts = collections.Counter()
    samples = 0
    for block in text.split("\n\n"):
        lines = [line.strip() for line in block.split("\n") if line.strip()]
        if not lines or not lines[0].startswith(prefix):
            continue
        samples += 1
        frames = [m.group(1) for m in (re.match(r"^[0-9a-f]+\s+(.*)\s+\((.*)\)$", line) for line in lines[1:]) if m]
        stack = " | ".join(reversed(frames))
        counts[next(name for name, rx in steps if rx.search(stack))] += 1
    print(f"{samples} stream-thread samples = {us_per_event} us/event")
    for name, _ in STEPS:
        share = counts[name] / max(1, samples)
        print(f"  {name:55s} {100 * share:5.1f}%  {us_per_event * share:5.2f} us")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], float(sys.argv[2]), *sys.argv[3:4])
