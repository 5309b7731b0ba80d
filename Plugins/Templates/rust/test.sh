#!/bin/sh
# SPDX-License-Identifier: MIT
# The project's one test command (sh test.sh): build, the conformance suite
# (strict), then the snapshot tests: each case's layout and picture
# recorded into snapshots/ on the first run (commit it), verified after.
# HUDHOST=/path/to/hudhost uses another hudhost; SNAPSHOT_FLAGS adds options
# to `hudhost snapshot verify` ("--matrix full").
set -e
hudhost=${HUDHOST:-hudhost}
cargo build --release --offline
"$hudhost" validate --profile strict target/release/lib@LIB@.so
"$hudhost" snapshot verify target/release/lib@LIB@.so --dir snapshots --record-missing $SNAPSHOT_FLAGS
