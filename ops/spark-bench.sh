#!/usr/bin/env bash
# rtm-streams against Apache Spark on the published latency workloads: runs `load-generator bench` RUNS times per
# workload with the echo, rtm-streams (real-time, micro-batch) and Spark (spark-real-time, spark-micro-batch), then
# prints one table of medians (p50, p99, CPU per event of the system under test) and the ratios real-time / Spark.
# See docs/load-generator.md ("Apache Spark as a peer") and BENCHMARKS.md.
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: ops/spark-bench.sh [--runs 3] [--rate 10000] [--duration PT30S] [--warmup PT90S]
                          [--workloads "stateless stream-static-join aggregation"] [--out DIR] [--no-build]
                          [--modes "echo,real-time,..."] [--summarize-only]

Runs each workload RUNS times (modes echo, real-time, micro-batch and the Spark modes that run it; Spark 4.2's
real-time mode does not run the aggregation) and prints the median of each figure over the runs. Every output is
checked by the workload's oracle; a run that is not exact is reported and fails the script. A benchmark runs alone:
the script refuses to start while the 1-minute load average is 1 or more (other work distorts every figure).

  --runs N            runs per workload (default 3)
  --rate R            rows per second (default 10000)
  --duration D        measured window (default PT30S)
  --warmup D          warm-up before it (default PT90S)
  --workloads "W..."  which workloads (default: stateless stream-static-join aggregation)
  --modes "M,..."     only these modes (default: every mode that runs the workload, listed above)
  --out DIR           where the reports go (default target/spark-bench/<date>-<commit>)
  --no-build          use the jars as they are
  --summarize-only    only print the table of the reports already in --out
  -h, --help          this help
USAGE
}

RUNS=3; RATE=10000; DURATION=PT30S; WARMUP=PT90S; WORKLOADS="stateless stream-static-join aggregation"
OUT=""; BUILD=1; SUMMARIZE_ONLY=0; MODES=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) RUNS="$2"; shift 2 ;;
    --rate) RATE="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --workloads) WORKLOADS="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --modes) MODES="$2"; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --summarize-only) SUMMARIZE_ONLY=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "error: --runs must be a positive integer: '$RUNS'" >&2; exit 2; }

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${OUT:-target/spark-bench/$(date -u +%F)-$(git rev-parse --short HEAD)}"
command -v jq >/dev/null || { echo "error: jq is required to summarize the reports" >&2; exit 1; }

all_modes_of() {
  case "$1" in
    aggregation) echo "echo,real-time,micro-batch,spark-micro-batch" ;;
    *) echo "echo,real-time,spark-real-time,micro-batch,spark-micro-batch" ;;
  esac
}
# the workload's modes, kept to those named by --modes when it is given
modes_of() {
  local m out=()
  for m in $(all_modes_of "$1" | tr , ' '); do
    [[ -z "$MODES" || ",$MODES," == *",$m,"* ]] && out+=("$m")
  done
  local IFS=,; echo "${out[*]}"
}

if [[ $SUMMARIZE_ONLY -eq 0 ]]; then
  if [[ $BUILD -eq 1 ]]; then
    mvn -B -q package -DskipTests -Djapicmp.skip -pl load-generator-spark,load-generator,rtm-examples-runner -am
  fi
  for run in $(seq 1 "$RUNS"); do
    for w in $WORKLOADS; do
      load="$(cut -d' ' -f1 /proc/loadavg)"
      while awk -v l="$load" 'BEGIN { exit !(l >= 1.0) }'; do
        echo "load average $load >= 1: waiting for the machine to be quiet (a benchmark runs alone)" >&2
        sleep 30
        load="$(cut -d' ' -f1 /proc/loadavg)"
      done
      dir="$OUT/$w/run$run"
      echo "== $w, run $run/$RUNS ($(modes_of "$w")) -> $dir"
      java -jar load-generator/target/load-generator.jar bench --workload "$w" --rate "$RATE" \
        --duration "$DURATION" --warmup "$WARMUP" --no-progress --modes "$(modes_of "$w")" --report-dir "$dir"
    done
  done
fi

# one line per workload and mode: medians over the runs of p50, p99, CPU us/event; exactness of every run
MEDIANS='
  def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
                     else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  [ .[][] | select(.mode == $m) ] as $r
  | [ ($r | length),
      ($r | map(.latency_ms.p50) | median),
      ($r | map(.latency_ms.p99) | median),
      ($r | map(.cost.sut_cpu_us_per_event) | median),
      ($r | all(.missing == 0 and .duplicates == 0 and .unexpected == 0 and .undecodable == 0)) ]
  | @tsv'
declare -A P99 CPU
status=0
printf '\n%-20s %-18s %5s %9s %9s %11s %s\n' workload mode runs p50_ms p99_ms cpu_us_ev exact
for w in $WORKLOADS; do
  files=("$OUT/$w"/run*/bench.json)
  [[ -e "${files[0]}" ]] || continue
  for m in $(modes_of "$w" | tr , ' '); do
    IFS=$'\t' read -r n p50 p99 cpu exact < <(jq -r -s --arg m "$m" "$MEDIANS" "${files[@]}")
    [[ "$n" != "0" ]] || continue
    P99["$w/$m"]="$p99"; CPU["$w/$m"]="$cpu"
    printf '%-20s %-18s %5s %9s %9s %11s %s\n' "$w" "$m" "$n" "$p50" "$p99" "$cpu" "$exact"
    [[ "$exact" == "true" ]] || status=1
  done
done
ratio() { [[ -n "${1:-}" && -n "${2:-}" ]] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }' || echo "-"; }
echo
echo "rtm-streams / Spark (medians): p99 ratio, CPU per event ratio"
for w in $WORKLOADS; do
  for pair in "real-time spark-real-time" "micro-batch spark-micro-batch" "real-time spark-micro-batch"; do
    set -- $pair
    [[ -n "${P99[$w/$1]:-}" && -n "${P99[$w/$2]:-}" ]] || continue
    printf '%-20s %-32s p99 %s  CPU %s\n' "$w" "$1 / $2" "$(ratio "${P99[$w/$1]}" "${P99[$w/$2]}")" \
      "$(ratio "${CPU[$w/$1]}" "${CPU[$w/$2]}")"
  done
done
[[ $status -eq 0 ]] || echo "error: not every run was exact: see the bench.json reports" >&2
echo "reports: $OUT"
exit $status
