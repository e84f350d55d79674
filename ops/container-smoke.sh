#!/usr/bin/env bash
# Builds the service image from adattribution-app/Dockerfile with podman (no Docker engine, no registry) and checks
# the container end to end against a Kafka broker this script starts on the host. Run ops/container-smoke.sh --help.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: ops/container-smoke.sh [options]

Builds the ad-attribution service image from the real Dockerfile with podman, on a local Debian bookworm base
image with openjdk-17-jre-headless (no registry is needed), runs it against a single-node KRaft broker started on
the host from the load generator's jar, and checks:
  1. GET /health answers 200;
  2. a small generated load is attributed exactly (load-generator run: its oracle, 0 missing/duplicates/unexpected);
  3. the service runs as a non-root user (podman exec id -u);
  4. RTM_* environment variables configure it (application id, trigger, stream threads in its log);
  5. podman stop (SIGTERM) ends it with exit code 0, and the output topics hold exactly what the oracle observed;
  6. a new container on the same volume resumes from its local state (state restored from the volume, not
     re-read from the changelog) and, after more load, the outputs stay exact with no duplicate.
Everything it starts (containers, volume, broker) is removed on exit, also on failure.

By default the container uses the host network: the broker listens on 127.0.0.1 only, and the service and the
load generator then reach it at the same address (no second listener advertised to a container network, no
dependence on podman's bridge and firewall set-up); the service's HTTP port is set to --http-port. With
--network bridge the container gets podman's bridge network instead, its port 8080 (the image's default) published
on 127.0.0.1:--http-port, and the broker a second listener on every interface, advertised to the container as
host.containers.internal.

Installs with apt-get what is missing: podman, runc, debootstrap, uidmap, podman-compose, curl. Needs root.

Options:
  --rate N             events/s of each load run (default 500)
  --duration D         length of each load run, ISO-8601 (default PT20S)
  --http-port P        the service's HTTP port on the host (default: a free port from 18080)
  --broker-port P      the broker's client port on 127.0.0.1 (default: a free port from 29092)
  --network host|bridge
                       the container's network (default host; see above)
  --base-image NAME    the base image to build on (default localhost/rtm-base-jre17; built when absent)
  --rebuild-base       build the base image again even when it exists
  --mirror URL         Debian mirror for debootstrap (default: the first deb.debian.org-style URI apt uses)
  --work-dir DIR       work files: rootfs, broker data, reports, logs (default target/container-smoke)
  --skip-jar-build     use the jars already in adattribution-app/target and load-generator/target
  --control-empty-volume
                       control run: the restarted container gets a new, empty volume, so check 6 must fail
                       (it shows that the check can tell a resume from local state from a full restore)
  -h, --help           this text

Exit status: 0 when every check passed, 1 when a check failed (the message names it), 2 on a bad option.
EOF
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RATE=500
DURATION=PT20S
HTTP_PORT=""
BROKER_PORT=""
BASE_IMAGE=localhost/rtm-base-jre17
REBUILD_BASE=false
MIRROR=""
WORK="$ROOT/target/container-smoke"
BUILD_JARS=true
CONTROL_EMPTY_VOLUME=false
NETWORK=host

while [[ $# -gt 0 ]]; do
    case "$1" in
        --rate) RATE="${2:?--rate needs a value}"; shift 2 ;;
        --duration) DURATION="${2:?--duration needs a value}"; shift 2 ;;
        --http-port) HTTP_PORT="${2:?--http-port needs a value}"; shift 2 ;;
        --broker-port) BROKER_PORT="${2:?--broker-port needs a value}"; shift 2 ;;
        --base-image) BASE_IMAGE="${2:?--base-image needs a value}"; shift 2 ;;
        --rebuild-base) REBUILD_BASE=true; shift ;;
        --mirror) MIRROR="${2:?--mirror needs a value}"; shift 2 ;;
        --work-dir) WORK="${2:?--work-dir needs a value}"; shift 2 ;;
        --skip-jar-build) BUILD_JARS=false; shift ;;
        --control-empty-volume) CONTROL_EMPTY_VOLUME=true; shift ;;
        --network) NETWORK="${2:?--network needs a value}"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "container-smoke: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ "$NETWORK" == host || "$NETWORK" == bridge ]] || { echo "container-smoke: --network must be host or bridge: '$NETWORK'" >&2; exit 2; }
[[ "$RATE" =~ ^[0-9]+$ && "$RATE" -gt 0 ]] || { echo "container-smoke: --rate must be a positive integer: '$RATE'" >&2; exit 2; }

START_SECONDS=$SECONDS
TAG=$$
NAME="rtm-smoke-$TAG"
VOLUME="rtm-smoke-state-$TAG"
APP_IMAGE=localhost/rtm-adattribution-app:smoke
APP_ID="rtm-smoke-$TAG"
APP_JAR="$ROOT/adattribution-app/target/adattribution-app.jar"
LOADGEN_JAR="$ROOT/load-generator/target/load-generator.jar"
BROKER_PID=""
CONTAINERS=()
# podman's default ulimits exceed a sandbox's hard limits; give the container the hard limits themselves
NOFILE="$(ulimit -Hn)"; [[ "$NOFILE" == unlimited ]] && NOFILE=1048576
NPROC="$(ulimit -Hu)"; { [[ "$NPROC" == unlimited ]] || (( NPROC > 32768 )); } && NPROC=32768
ULIMITS=(--ulimit "nofile=$NOFILE:$NOFILE" --ulimit "nproc=$NPROC:$NPROC")

say() { printf '[container-smoke %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
fail() {
    printf '[container-smoke] FAILED: %s\n' "$*" >&2
    exit 1
}

cleanup() {
    local status=$?
    set +e
    for c in "${CONTAINERS[@]}"; do
        podman rm -f -t 5 "$c" >/dev/null 2>&1
    done
    podman volume rm -f "$VOLUME" "$VOLUME-empty" >/dev/null 2>&1
    if [[ -n "$BROKER_PID" ]] && kill -0 "$BROKER_PID" 2>/dev/null; then
        kill "$BROKER_PID" 2>/dev/null
        for _ in $(seq 1 30); do kill -0 "$BROKER_PID" 2>/dev/null || break; sleep 1; done
        kill -9 "$BROKER_PID" 2>/dev/null
    fi
    if (( status == 0 )); then
        say "cleaned up (containers, volume, broker); took $((SECONDS - START_SECONDS)) s"
    else
        say "cleaned up after failure (exit $status); logs in $WORK"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. tools --------------------------------------------------------------------------------------------------
(( EUID == 0 )) || fail "run as root: apt-get installs the tools and podman runs rootful here"
missing=()
for pair in podman:podman runc:runc debootstrap:debootstrap newuidmap:uidmap podman-compose:podman-compose curl:curl; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
if (( ${#missing[@]} > 0 )); then
    say "installing with apt-get: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null \
        || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null; } \
        || fail "apt-get could not install ${missing[*]}"
fi
command -v java >/dev/null || fail "java (17) not on PATH: the broker and the load generator run on the host"
PODMAN=(podman --runtime runc)
mkdir -p "$WORK"

# --- 2. jars ---------------------------------------------------------------------------------------------------
if [[ "$BUILD_JARS" == true ]]; then
    say "building the jars: mvn -pl adattribution-app,load-generator -am package -DskipTests"
    (cd "$ROOT" && mvn -B -q -pl adattribution-app,load-generator -am -DskipTests package) \
        || fail "maven build of adattribution-app and load-generator failed"
fi
[[ -f "$APP_JAR" ]] || fail "$APP_JAR missing: build it (mvn -B -pl adattribution-app -am package -DskipTests)"
[[ -f "$LOADGEN_JAR" ]] || fail "$LOADGEN_JAR missing: build it (mvn -B -pl load-generator -am package -DskipTests)"

# --- 3. base image: debootstrap minbase bookworm + openjdk-17-jre-headless --------------------------------------
if [[ "$REBUILD_BASE" == false ]] && "${PODMAN[@]}" image exists "$BASE_IMAGE"; then
    say "base image $BASE_IMAGE present: reused"
else
    if [[ -z "$MIRROR" ]]; then
        MIRROR="$(grep -rhoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
            | awk '{print $2}' | head -1 || true)"
        MIRROR="${MIRROR:-http://deb.debian.org/debian}"
    fi
    ROOTFS="$WORK/rootfs"
    if [[ ! -x "$ROOTFS/usr/bin/apt-get" ]]; then
        say "debootstrap --variant=minbase bookworm from $MIRROR into $ROOTFS (a few minutes)"
        rm -rf "$ROOTFS"
        debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
            || fail "debootstrap failed: see $WORK/debootstrap.log"
    fi
    say "importing the root filesystem as localhost/rtm-bookworm-minbase"
    tar -C "$ROOTFS" -c . | "${PODMAN[@]}" import - localhost/rtm-bookworm-minbase >"$WORK/import.log" 2>&1 \
        || fail "podman import of $ROOTFS failed: see $WORK/import.log"
    say "building $BASE_IMAGE (apt-get install openjdk-17-jre-headless inside podman build)"
    printf '%s\n' \
        'FROM localhost/rtm-bookworm-minbase' \
        'RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends openjdk-17-jre-headless && apt-get clean && rm -rf /var/lib/apt/lists/* && java -version' \
        >"$WORK/Containerfile.base"
    "${PODMAN[@]}" build "${ULIMITS[@]}" -t "$BASE_IMAGE" -f "$WORK/Containerfile.base" "$WORK" >"$WORK/base-build.log" 2>&1 \
        || fail "building $BASE_IMAGE failed: see $WORK/base-build.log"
fi

# --- 4. the service image from the real Dockerfile -------------------------------------------------------------
say "building $APP_IMAGE from adattribution-app/Dockerfile (--build-arg BASE_IMAGE=$BASE_IMAGE)"
"${PODMAN[@]}" build "${ULIMITS[@]}" --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$APP_IMAGE" \
    -f "$ROOT/adattribution-app/Dockerfile" "$ROOT/adattribution-app" >"$WORK/image-build.log" 2>&1 \
    || fail "podman build of adattribution-app/Dockerfile failed: see $WORK/image-build.log"

# --- 5. the broker on the host ---------------------------------------------------------------------------------
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() { local p=$1; while ! port_free "$p"; do p=$((p + 1)); done; echo "$p"; }
BROKER_PORT="${BROKER_PORT:-$(free_port 29092)}"
CONTROLLER_PORT="$(free_port $((BROKER_PORT + 1)))"
HTTP_PORT="${HTTP_PORT:-$(free_port 18080)}"
port_free "$BROKER_PORT" || fail "--broker-port $BROKER_PORT is in use: pick another"
port_free "$HTTP_PORT" || fail "--http-port $HTTP_PORT is in use: pick another"
BOOTSTRAP="127.0.0.1:$BROKER_PORT"
LISTENERS="PLAINTEXT://127.0.0.1:$BROKER_PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT"
ADVERTISED="PLAINTEXT://127.0.0.1:$BROKER_PORT"
PROTOCOLS="PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
CONTAINER_BOOTSTRAP="$BOOTSTRAP"
CONTAINER_NET=(--network host -e "RTM_HTTP_PORT=$HTTP_PORT")
if [[ "$NETWORK" == bridge ]]; then
    CONTAINER_PORT="$(free_port $((CONTROLLER_PORT + 1)))"
    LISTENERS+=",CONTAINER://0.0.0.0:$CONTAINER_PORT"
    ADVERTISED+=",CONTAINER://host.containers.internal:$CONTAINER_PORT"
    PROTOCOLS+=",CONTAINER:PLAINTEXT"
    CONTAINER_BOOTSTRAP="host.containers.internal:$CONTAINER_PORT"
    CONTAINER_NET=(-p "127.0.0.1:$HTTP_PORT:8080")
fi
BROKER_DIR="$WORK/broker"
rm -rf "$BROKER_DIR"; mkdir -p "$BROKER_DIR"
cat >"$BROKER_DIR/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=$LISTENERS
advertised.listeners=$ADVERTISED
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=$PROTOCOLS
log.dirs=$BROKER_DIR/data
metadata.log.dir=$BROKER_DIR/metadata
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=5
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.retention.ms=-1
EOF
cat >"$BROKER_DIR/logback.xml" <<'EOF'
<configuration>
  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
  </appender>
  <root level="WARN"><appender-ref ref="OUT"/></root>
</configuration>
EOF
BROKER_JAVA=(java -Xmx512m "-Dlogback.configurationFile=$BROKER_DIR/logback.xml"
    "-Dkafka.logs.dir=$BROKER_DIR/logs" -cp "$LOADGEN_JAR")
say "starting the broker (kafka.Kafka from the load generator's jar) at $BOOTSTRAP"
"${BROKER_JAVA[@]}" kafka.tools.StorageTool format -t "$("${BROKER_JAVA[@]}" kafka.tools.StorageTool random-uuid)" \
    -c "$BROKER_DIR/server.properties" >"$BROKER_DIR/format.log" 2>&1 \
    || fail "formatting the broker's log directory failed: see $BROKER_DIR/format.log"
"${BROKER_JAVA[@]}" kafka.Kafka "$BROKER_DIR/server.properties" >"$BROKER_DIR/broker.out" 2>&1 &
BROKER_PID=$!
for _ in $(seq 1 120); do
    port_free "$BROKER_PORT" || break
    kill -0 "$BROKER_PID" 2>/dev/null || fail "the broker exited at start: see $BROKER_DIR/broker.out"
    sleep 0.5
done
port_free "$BROKER_PORT" && fail "the broker did not listen on $BOOTSTRAP within 60 s: see $BROKER_DIR/broker.out"

# --- 6. the container ------------------------------------------------------------------------------------------
"${PODMAN[@]}" volume create "$VOLUME" >/dev/null
start_container() { # name [volume]
    CONTAINERS+=("$1")
    "${PODMAN[@]}" run -d --name "$1" "${CONTAINER_NET[@]}" "${ULIMITS[@]}" \
        -v "${2:-$VOLUME}:/var/lib/adattribution" \
        -e "RTM_BOOTSTRAP_SERVERS=$CONTAINER_BOOTSTRAP" \
        -e "RTM_APPLICATION_ID=$APP_ID" \
        -e RTM_TRIGGER=real-time \
        -e RTM_NUM_STREAM_THREADS=3 \
        -e RTM_CREATE_TOPICS=true \
        -e RTM_TOPIC_PARTITIONS=2 \
        -e 'JAVA_OPTS=-Xmx512m -XX:+ExitOnOutOfMemoryError' \
        "$APP_IMAGE" >/dev/null || fail "podman run of $APP_IMAGE failed"
}
await_health() { # name: /health 200, then RUNNING (200 also answers REBALANCING)
    local code=""
    for _ in $(seq 1 180); do
        code="$(curl -s -o "$WORK/health.json" -w '%{http_code}' "http://127.0.0.1:$HTTP_PORT/health" || true)"
        [[ "$code" == 200 ]] && grep -q '"RUNNING"' "$WORK/health.json" && return 0
        [[ "$("${PODMAN[@]}" inspect -f '{{.State.Running}}' "$1")" == true ]] \
            || { "${PODMAN[@]}" logs "$1" >"$WORK/$1.log" 2>&1; fail "container $1 exited before /health answered 200: see $WORK/$1.log"; }
        sleep 1
    done
    "${PODMAN[@]}" logs "$1" >"$WORK/$1.log" 2>&1
    fail "GET /health of $1 did not answer 200 with state RUNNING within 180 s (last: '$code' $(cat "$WORK/health.json" 2>/dev/null)): see $WORK/$1.log"
}
load_run() { # seed report-dir
    say "load: load-generator run --rate $RATE --duration $DURATION --seed $1 (the oracle checks every output)"
    java -Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.rtmstreams -jar "$LOADGEN_JAR" run --bootstrap-servers "$BOOTSTRAP" \
        --rate "$RATE" --duration "$DURATION" --seed "$1" --report-dir "$2" >"$2.log" 2>&1 \
        || fail "the load generator's oracle found wrong outputs (seed $1): see $2.log and $2/"
}
report_field() { # report-dir field
    grep -oE "\"$2\" *: *[0-9]+" "$1"/report-*.json | head -1 | grep -oE '[0-9]+$'
}
summary() { # report-dir
    local f out=""
    for f in expected observed missing duplicates unexpected; do out+="$f $(report_field "$1" "$f"), "; done
    echo "${out%, }"
}
# The records on the topics whose names match a regular expression: the sum of their end offsets (the service writes
# without transactions here, so every offset is one record; nothing is compacted or deleted in a run this short).
# A single-file Java program on the load generator's class path (kafka-clients).
cat >"$WORK/EndOffsets.java" <<'EOF'
import java.util.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.common.TopicPartition;

public class EndOffsets {
    public static void main(String[] args) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]))) {
            List<String> topics = admin.listTopics().names().get().stream().filter(t -> t.matches(args[1])).toList();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get().forEach((name, d) -> d.partitions()
                    .forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
            long sum = 0;
            for (var info : admin.listOffsets(latest).all().get().values()) {
                sum += info.offset();
            }
            System.out.println(sum);
        }
    }
}
EOF
topic_records() { # regex
    java -cp "$LOADGEN_JAR" -Dlogback.configurationFile="$BROKER_DIR/logback.xml" "$WORK/EndOffsets.java" \
        "$BOOTSTRAP" "$1" 2>"$WORK/end-offsets.err" \
        || fail "could not read the end offsets of the topics '$1': see $WORK/end-offsets.err"
}
output_records() { topic_records 'attributed-clicks|ad-log-records'; }
# The records Kafka Streams' restore consumers read from the changelog topics since the start, from a /metrics
# dump: the per-client records_consumed_total of the StateUpdater-N-restore-consumer clients (empty when absent).
# Kafka Streams' own task metric restore_total stays 0 here even on a full restore, so it cannot tell.
restored_records() { # metrics-file
    awk '$1 ~ /^kafka_streams_consumer_fetch_manager_metrics_records_consumed_total\{client_id="[^"]*restore-consumer"\}$/ {
        n += $NF; seen = 1 } END { if (seen) printf "%d\n", n }' "$1"
}

say "starting container $NAME (network $NETWORK, bootstrap $CONTAINER_BOOTSTRAP, volume $VOLUME, RTM_* configuration)"
start_container "$NAME"
await_health "$NAME"
say "check 1 passed: GET /health answers 200 ($(head -c 200 "$WORK/health.json"))"

load_run 42 "$WORK/run-1"
EXPECTED1="$(report_field "$WORK/run-1" observed)"
say "check 2 passed: the oracle found every output exact ($(summary "$WORK/run-1"))"

UID_IN="$("${PODMAN[@]}" exec "$NAME" id -u)"
[[ "$UID_IN" =~ ^[0-9]+$ && "$UID_IN" != 0 ]] || fail "the service runs as uid '$UID_IN' in the container: the Dockerfile's USER must be a non-root user"
say "check 3 passed: the service runs as uid $UID_IN ($("${PODMAN[@]}" exec "$NAME" id -un))"

"${PODMAN[@]}" logs "$NAME" >"$WORK/$NAME.log" 2>&1
for expect in "application-id=environment variable RTM_APPLICATION_ID" "trigger=environment variable RTM_TRIGGER" \
    "num-stream-threads=environment variable RTM_NUM_STREAM_THREADS" "event=starting application.id=$APP_ID trigger=REAL_TIME"; do
    grep -qF "$expect" "$WORK/$NAME.log" || fail "the service's log lacks '$expect': RTM_* variables not applied? see $WORK/$NAME.log"
done
say "check 4 passed: RTM_* variables applied ($(grep -oE 'event=starting [^"]*' "$WORK/$NAME.log" | head -1))"

say "podman stop $NAME (SIGTERM)"
"${PODMAN[@]}" stop -t 60 "$NAME" >/dev/null
EXIT_CODE="$("${PODMAN[@]}" inspect -f '{{.State.ExitCode}}' "$NAME")"
"${PODMAN[@]}" logs "$NAME" >"$WORK/$NAME.log" 2>&1
[[ "$EXIT_CODE" == 0 ]] || fail "podman stop ended the service with exit code $EXIT_CODE, not 0: see $WORK/$NAME.log"
OUT_AFTER_STOP="$(output_records)"
[[ "$OUT_AFTER_STOP" == "$EXPECTED1" ]] \
    || fail "after the stop the output topics hold $OUT_AFTER_STOP records, the oracle observed $EXPECTED1"
say "check 5 passed: exit code 0 after SIGTERM; the output topics hold exactly the $OUT_AFTER_STOP records the oracle observed"

MOUNT="$("${PODMAN[@]}" volume inspect -f '{{.Mountpoint}}' "$VOLUME")"
find "$MOUNT" -printf '%P %s\n' | sort >"$WORK/state-files-after-stop.txt"
STATE_FILES="$(find "$MOUNT" -type f | wc -l)"
(( STATE_FILES > 0 )) || fail "the state volume $VOLUME is empty after the stop"
CHANGELOG="$(topic_records "^$APP_ID-.*-changelog\$")"
say "state volume: $STATE_FILES files; changelog topics: $CHANGELOG records"

NAME2="$NAME-restarted"
if [[ "$CONTROL_EMPTY_VOLUME" == true ]]; then
    say "control: starting container $NAME2 on a new, empty volume (check 6 must fail)"
    "${PODMAN[@]}" volume create "$VOLUME-empty" >/dev/null
    start_container "$NAME2" "$VOLUME-empty"
else
    say "starting container $NAME2 on the same volume"
    start_container "$NAME2"
fi
await_health "$NAME2"
curl -s "http://127.0.0.1:$HTTP_PORT/metrics" >"$WORK/metrics-restarted.txt"
RESTORED="$(restored_records "$WORK/metrics-restarted.txt")"
[[ -n "$RESTORED" ]] || fail "the restarted service's /metrics lacks its restore consumers' records_consumed_total: see $WORK/metrics-restarted.txt"
(( CHANGELOG > 0 )) || fail "the changelog topics of $APP_ID are empty: nothing to resume from"
(( RESTORED * 2 < CHANGELOG )) \
    || fail "the restarted service restored $RESTORED of the $CHANGELOG changelog records: it did not resume from the volume's state"
say "check 6a passed: resumed from the volume: $RESTORED of $CHANGELOG changelog records restored (the restore consumers' records_consumed_total)"
load_run 43 "$WORK/run-2"
EXPECTED2="$(report_field "$WORK/run-2" observed)"
"${PODMAN[@]}" logs "$NAME2" >"$WORK/$NAME2.log" 2>&1
OUT_TOTAL="$(output_records)"
[[ "$OUT_TOTAL" == $((EXPECTED1 + EXPECTED2)) ]] \
    || fail "after the restart the output topics hold $OUT_TOTAL records, not $EXPECTED1 + $EXPECTED2: the restart replayed or lost outputs"
say "check 6b passed: after the restart the second load is exact and the topics hold $EXPECTED1 + $EXPECTED2 records (no duplicate)"
say "ALL CHECKS PASSED in $((SECONDS - START_SECONDS)) s"
