#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# valgrind memcheck over hudhost list, probe, render and validate, on the
# built-ins and ExampleRing (the SwiftPM-built libExampleRing.so and the
# standalone C build a plugin author makes). Fails on any memcheck error or
# any definitely-lost byte, and when a command's exit status is not the
# expected one.
#
#   Scripts/valgrind-check.sh            # needs valgrind (apt-get install valgrind)
#
# Children: `probe PATH`, scanning, `validate` and plugin renderers normally
# run plugin code in sandboxed child processes. Here `probe` and `validate`
# get --in-process and two renders --isolation in-process, so
# the plugin code runs in the process valgrind watches; the remaining
# children (the sandbox runs of `probe PATH` without --in-process, the
# determinism-processes check's fresh processes) are left alone with
# --trace-children=no: each is a hudhost of its own, covered when it runs
# in-process.
#
# libffi closures (the action thunks) live on libffi's own mmap'd pages,
# which memcheck cannot see: the live-thunk counter test covers them
# (CLITests.everyThunkIsRetiredWhenTheShellIsReleased).
#
# "possibly lost" blocks are the Swift runtime's metadata caches (interior
# pointers into allocations it keeps for the life of the process); they are
# reported but do not fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v valgrind >/dev/null || { echo "valgrind-check: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
# The debug build the suite uses; Scripts/valgrind.supp names the one
# false positive its optimized modules give memcheck, and why.
swift build
bin=$(swift build --show-bin-path)
hudhost=$bin/hudhost

work=$(mktemp -d "${TMPDIR:-/tmp}/hud-valgrind.XXXXXX")
trap 'wait; rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/cache" "$work/ring-swiftpm" "$work/ring-c" "$work/out"
chmod 755 "$work" "$work/ring-swiftpm" "$work/ring-c"
cp "$bin/libExampleRing.so" "$work/ring-swiftpm/"
# The standalone build from Docs/PLUGIN_GUIDE.md: no Swift runtime at all.
# shellcheck disable=SC2046
cc -std=c11 -O2 -shared -fPIC $("$hudhost" sdk --cflags) Plugins/ExampleRing/ring.c -o "$work/ring-c/libring.so"

export HOME=$work/home XDG_CACHE_HOME=$work/cache NO_COLOR=1 SWIFT_BACKTRACE=enable=no
unset HUD_RENDERER_PATH HUD_RENDERERS_DISABLE HUD_RENDERERS_SELECT

# Each run goes to the background, one per core at a time (memcheck runs a
# process on one core); its report goes to $work/result-N and is printed in
# order at the end. `settle` waits for every run started so far, for runs
# that must see what the ones before them wrote (the registry cache); the
# probe, render and validate runs after the lists need no particular cache
# state and run side by side.
runs=0
# check EXPECTED-STATUS SEARCH-PATH hudhost-arguments...
check() {
  local expected=$1 search=$2
  shift 2
  local n=$runs
  runs=$((runs + 1))
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
  run_check "$n" "$expected" "$search" "$@" &
}
settle() { wait; }
run_check() {
  local n=$1 expected=$2 search=$3
  shift 3
  local log=$work/valgrind-$n.log out=$work/out/stdout-$n err=$work/out/stderr-$n status=0 started=$SECONDS
  # Until the report below replaces it: a run that stops early (set -e)
  # still fails with what it left.
  printf 'FAIL hudhost %s (ended before its report)\n' "$*" >"$work/result-$n"
  echo 0 >"$work/lost-$n"
  HUD_RENDERER_PATH=$search valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
    --errors-for-leak-kinds=definite --error-exitcode=99 --suppressions=Scripts/valgrind.supp --trace-children=no --num-callers=30 --log-file="$log" \
    "$hudhost" "$@" >"$out" 2>"$err" || status=$?
  local errors lost
  errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -1)
  lost=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -1 | tr -d ,)
  lost=${lost:-0}
  echo "$lost" >"$work/lost-$n"
  local line
  line=$(printf 'hudhost %-70s exit %-3s errors %-3s definitely lost %6s B  %3ss' "$*" "$status" "${errors:-?}" "$lost" $((SECONDS - started)))
  if [[ "$status" == 99 || "${errors:-1}" != 0 || "$lost" != 0 || "$status" != "$expected" ]]; then
    {
      echo "FAIL $line (expected exit $expected)"
      echo "----- valgrind log"; cat "$log"
      echo "----- stderr"; tail -20 "$err"
    } >"$work/result-$n"
  else
    echo "ok   $line" >"$work/result-$n"
  fi
}

ring=org.hudson.example.ring
swiftpm_ring=$work/ring-swiftpm/libExampleRing.so
c_ring=$work/ring-c/libring.so

# list: the built-ins; a search path with each ExampleRing build (cold: ELF
# metadata read and cached; warm: only stat).
# One at a time: each reads the registry cache the one before it wrote.
check 0 "" list
settle
check 0 "$work/ring-swiftpm" list --json
settle
check 0 "$work/ring-swiftpm" list --json
settle
check 0 "$work/ring-c" list --all
settle

# validate: the conformance suite in this process (standard profile);
# first, as the longest runs.
check 0 "" validate --in-process com.hudson.tray com.hudson.scattered com.hudson.minimal
check 0 "" validate --in-process "$swiftpm_ring"
check 0 "" validate --in-process "$c_ring" --format json --output "$work/out/ring.json"

# probe: by id (in this process) and by path (--in-process, plus one
# sandboxed run whose child is not traced).
check 0 "" probe com.hudson.tray
check 0 "$work/ring-c" probe $ring --json
check 0 "" probe "$bin/libBuiltinRenderers.so" --in-process
check 0 "" probe "$swiftpm_ring" --in-process --json
check 0 "" probe "$c_ring" --in-process
check 0 "" probe "$c_ring"

# render: every built-in style, scripted events, SVG and JSON output, and
# ExampleRing from the search path and from --plugin: out of process (the
# parent's side of the renderer host: shared memory, frames, copy-out) and
# in-process (the plugin's layout in the watched process).
check 0 "" render --style tray
check 0 "" render --style scattered --rtl --json --events "longpress center; tap mode:minimal; tap center"
check 0 "" render --style minimal --format svg --out "$work/out/minimal.svg" --reveal center
check 0 "" render --scene Docs/examples/home.json --reveal center --stats
check 0 "$work/ring-swiftpm" render --style $ring --json --reveal center
check 0 "" render --plugin "$c_ring" --style $ring --events "longpress center; tap mode:tray"
check 0 "$work/ring-swiftpm" render --isolation in-process --style $ring --json --reveal center
check 0 "" render --isolation in-process --plugin "$c_ring" --style $ring --events "longpress center; tap mode:tray"

settle

failures=0
total_lost=0
for ((n = 0; n < runs; n++)); do
  if [[ -f $work/result-$n ]]; then
    cat "$work/result-$n"
    if grep -q '^FAIL' "$work/result-$n"; then
      failures=$((failures + 1))
      if grep -q 'ended before its report' "$work/result-$n"; then
        echo "----- stderr"; tail -20 "$work/out/stderr-$n" 2>/dev/null || true
      fi
    fi
    total_lost=$((total_lost + $(cat "$work/lost-$n")))
  else
    echo "FAIL run $n left no result"
    failures=$((failures + 1))
  fi
done
echo "valgrind-check: $runs runs, $failures failed, $total_lost bytes definitely lost in total"
((failures == 0))
