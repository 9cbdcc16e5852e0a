#!/bin/sh
# Builds the Apache Pekko peer (suite.toml's build step; runs from any directory):
#
#   1. target/pekko-suite.jar: the shaded, runnable jar (Maven).
#   2. target/pekko-suite.jsa: its application class-data sharing (AppCDS) archive. A
#      training run (footlights.peers.pekko.Train: every benchmark once, at small
#      parameters, each result checked) loads and links the classes the suite uses, and
#      -XX:ArchiveClassesAtExit writes them out when that JVM exits. A measured run maps
#      the archive (-XX:SharedArchiveFile) instead of finding, parsing and verifying
#      about 1,600 classes again, which saves a quarter of Pekko's work time at the quick
#      parameters (peers/README.md, "Pekko: tuning, measured"). The training run's output,
#      with the JVM's warnings about classes it cannot archive (reflection accessors it
#      generated during the run), goes to target/train.log.
#   3. A check that `java` maps the archive with the jar's class path (-Xshare:on exits 1
#      when it cannot; the suite's bad-input exit 2 means it could).
#
# The archive belongs to this JDK build and this jar: the script makes it anew after every
# package, with the same `java` (JAVA, default: java on PATH) and the same class path,
# peers/pekko/target/pekko-suite.jar relative to the repository root, that suite.toml's run
# template uses.
set -eu
cd "$(dirname "$0")/../.."
java=${JAVA:-java}
jar=peers/pekko/target/pekko-suite.jar
jsa=peers/pekko/target/pekko-suite.jsa

mvn -q -B -f peers/pekko/pom.xml package -DskipTests
rm -f "$jsa"
if ! "$java" -XX:ArchiveClassesAtExit="$jsa" -cp "$jar" footlights.peers.pekko.Train >peers/pekko/target/train.log 2>&1; then
    cat peers/pekko/target/train.log >&2
    echo "error: pekko: the training run of the class-data archive failed (above)" >&2
    exit 1
fi
status=0
"$java" -Xshare:on -XX:SharedArchiveFile="$jsa" -jar "$jar" >/dev/null 2>peers/pekko/target/cds-check.log || status=$?
if [ "$status" -ne 2 ]; then
    cat peers/pekko/target/cds-check.log >&2
    echo "error: pekko: $java cannot map $jsa (exit $status, expected 2 from the bad-input check)" >&2
    exit 1
fi
