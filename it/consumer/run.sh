#!/usr/bin/env bash
# Builds and tests this consumer project against a staged rtm-streams release, as a user's build would see it:
#   it/consumer/run.sh <staging-dir> [extra Maven arguments]
# <staging-dir> is a Maven repository directory, e.g. target/staging from .ci/stage-release (docs/releasing.md).
#
# The rtm-streams artifacts can come from nowhere but <staging-dir>:
#   - the local repository is new and empty (target/m2 here, deleted first), so nothing installed before is seen;
#   - the only repositories are <staging-dir> (declared in a generated settings file) and Maven Central, which has
#     no dev.rtmstreams snapshot;
#   - after the build, every dev.rtmstreams file in the local repository must have been downloaded from <staging-dir>.
# Everything else (Kafka, JUnit, the Maven plugins) is downloaded from Maven Central.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ $# -lt 1 ]]; then
  echo "usage: $0 <staging-dir> [maven args]   (a Maven repository holding the staged dev.rtmstreams artifacts)" >&2
  exit 2
fi
[[ -d "$1" ]] || { echo "error: staging directory not found: $1 (run .ci/stage-release first)" >&2; exit 2; }
STAGING="$(cd "$1" && pwd)"
shift
BOM_DIR="$STAGING/dev/rtmstreams/rtm-bom"
[[ -d "$BOM_DIR" ]] || { echo "error: $STAGING holds no dev.rtmstreams:rtm-bom (run .ci/stage-release first)" >&2; exit 2; }
# the staged version: the only version directory of the BOM
VERSION="$(cd "$BOM_DIR" && ls -d */ | tr -d / )"
[[ "$(wc -w <<<"$VERSION")" == 1 ]] || { echo "error: expected one staged rtm-bom version in $BOM_DIR, found: $VERSION" >&2; exit 2; }

WORK="$HERE/target"
REPO="$WORK/m2"
SETTINGS="$WORK/settings.xml"
rm -rf "$WORK"
mkdir -p "$REPO"
cat > "$SETTINGS" <<XML
<settings>
  <localRepository>$REPO</localRepository>
  <profiles>
    <profile>
      <id>rtm-staging</id>
      <repositories>
        <repository>
          <id>rtm-staging</id>
          <url>file://$STAGING</url>
          <releases><enabled>true</enabled></releases>
          <snapshots><enabled>true</enabled></snapshots>
        </repository>
      </repositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>rtm-staging</activeProfile></activeProfiles>
</settings>
XML

echo "consumer project against $STAGING (rtm-streams $VERSION), local repository $REPO"
mvn -B --no-transfer-progress -s "$SETTINGS" -Dmaven.repo.local="$REPO" -f "$HERE/pom.xml" \
  -Drtm.version="$VERSION" verify "$@"

# Where each rtm-streams file came from: the resolver records the repository id of every download in
# _remote.repositories; a snapshot is also copied to <artifact>-<version>-SNAPSHOT.<ext>, which must equal a download.
fail() { echo "consumer check failed: $*" >&2; exit 1; }
[[ -d "$REPO/dev/rtmstreams" ]] || fail "no dev.rtmstreams artifact was resolved"
if grep -rh '>' --include=_remote.repositories "$REPO/dev/rtmstreams" | grep -v '>rtm-staging=$'; then
  fail "the rtm-streams files above were not downloaded from $STAGING"
fi
downloads=0
while IFS= read -r file; do
  dir="$(dirname "$file")"
  name="$(basename "$file")"
  if grep -qxF "$name>rtm-staging=" "$dir/_remote.repositories" 2>/dev/null; then
    downloads=$((downloads + 1))
    continue
  fi
  copy_of=""
  while IFS= read -r recorded; do
    if cmp -s "$file" "$dir/$recorded"; then copy_of="$recorded"; fi
  done < <(sed -n 's/>rtm-staging=$//p' "$dir/_remote.repositories" 2>/dev/null)
  [[ -n "$copy_of" ]] || fail "$file was not downloaded from $STAGING"
done < <(find "$REPO/dev/rtmstreams" -type f \( -name '*.jar' -o -name '*.pom' \))
for artifact in rtm-bom rtm-stateful-processor rtm-join rtm-topology rtm-test-utils; do
  [[ -d "$REPO/dev/rtmstreams/$artifact" ]] || fail "dev.rtmstreams:$artifact was not resolved"
done
echo "consumer project passed; its $downloads rtm-streams downloads all came from $STAGING"
