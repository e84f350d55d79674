#!/usr/bin/env bash
# Runs the library tests (rtm-stateful-processor, rtm-join, rtm-topology, rtm-test-utils and the modules they need)
# against each supported Kafka Streams version and prints one line per version: tests run, failures, errors, skipped,
# result and duration. See docs/compatibility.md.
set -uo pipefail

usage() {
  cat <<'USAGE'
Usage: ops/compat-matrix.sh [--versions "4.1.2 4.2.2 4.3.2 4.4.0"] [--logs DIR] [-- MAVEN_ARGS...]

Runs `mvn -B verify` of the libraries with -Dkafka.version=V for each version V (default: the newest patch of
every supported minor, 4.1 to 4.4), from the repository root, one after another. Maven downloads what it lacks.

  --versions "V1 V2"  the Kafka versions to run (space-separated)
  --logs DIR          where each version's Maven log goes (default: target/compat-matrix)
  -h, --help          this help
  -- ARGS             passed to Maven as they are (e.g. -- -o to stay offline)

Per version: -Dkafka.test.jar.version follows the Kafka version (the kafka-clients test jar of the embedded
broker), except 4.4.0, whose test jar is not on Maven Central (the build's default, 4.3.1, is used). japicmp is
skipped on versions other than the default 4.4.0: it compares the libraries' API with api-baseline/, built against
4.4.0, and Kafka types in signatures differ by version; the API itself does not depend on the Kafka version.
Exit status: 0 when every version passed, 1 otherwise.
USAGE
}

VERSIONS="4.1.2 4.2.2 4.3.2 4.4.0"
LOGS=""
MVN_ARGS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --versions) VERSIONS="$2"; shift 2 ;;
    --logs) LOGS="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; MVN_ARGS=("$@"); break ;;
    *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
  esac
done

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LOGS="${LOGS:-$ROOT/target/compat-matrix}"
mkdir -p "$LOGS"
MODULES="rtm-stateful-processor,rtm-join,rtm-topology,rtm-test-utils"
STATUS=0

printf '%-8s %6s %8s %6s %7s %-6s %s\n' kafka tests failed errors skipped result duration
for v in $VERSIONS; do
  extra=()
  if [[ "$v" != "4.4.0" ]]; then
    extra+=("-Dkafka.test.jar.version=$v" "-Djapicmp.skip")
  fi
  log="$LOGS/kafka-$v.log"
  start=$SECONDS
  mvn -B --no-transfer-progress -Dkafka.version="$v" "${extra[@]}" -pl "$MODULES" -am verify "${MVN_ARGS[@]}" >"$log" 2>&1
  rc=$?
  took=$((SECONDS - start))
  # the reactor's totals: sum the per-module "Tests run:" summary lines (surefire and failsafe)
  read -r tests failed errors skipped < <(grep -E '^\[(INFO|WARNING|ERROR)\] Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$' "$log" \
    | sed -E 's/.*Tests run: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+), Skipped: ([0-9]+)/\1 \2 \3 \4/' \
    | awk '{t+=$1; f+=$2; e+=$3; s+=$4} END {print t+0, f+0, e+0, s+0}')
  result=PASS
  if [[ $rc -ne 0 ]]; then result=FAIL; STATUS=1; fi
  printf '%-8s %6s %8s %6s %7s %-6s %dm%02ds\n' "$v" "$tests" "$failed" "$errors" "$skipped" "$result" $((took / 60)) $((took % 60))
done
echo "logs: $LOGS"
exit $STATUS
