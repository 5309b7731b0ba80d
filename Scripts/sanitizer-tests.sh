#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the Swift Testing suite under a sanitizer and fails on any report.
#
#   Scripts/sanitizer-tests.sh address [swift test options...]   # ASan + LeakSanitizer
#   Scripts/sanitizer-tests.sh thread  [swift test options...]   # TSan
#   Scripts/sanitizer-tests.sh --build-only address|thread [swift build options...]
#
# Each sanitizer builds into its own scratch path (.build-asan, .build-tsan):
# host, test runner and the Swift plugin libBuiltinRenderers.so must all be
# built with the same sanitizer, and a changed linker flag alone may not
# re-link. Extra arguments go to `swift test` (e.g. --filter DiscoveryTests),
# or with --build-only to `swift build` instead of --build-tests (Fuzz/run.sh
# builds its libraries that way: --target HudScenes).
#
# The ASan build also carries libFuzzer's coverage instrumentation (what
# -sanitize=fuzzer adds to -sanitize=address: edge counters, a PC table,
# comparison tracing), so Fuzz/run.sh links its targets with this build's
# library objects instead of compiling the libraries a second time. In the
# suite the counters are only incremented; nothing reads them.
#
# The platform snags and what this script does about them
# (Docs/RELIABILITY.md has the details):
# - XCTest's runner leaks: --disable-xctest (the suite is Swift Testing only);
#   the remaining leaks are inside Foundation, which only the test runner
#   uses, and are suppressed by Scripts/sanitizers/lsan.supp.
# - A TSan host cannot dlopen a Swift plugin unless it exports
#   __tsan_external_write: linked with --export-dynamic-symbol.
# - The Swift backtracer can hold a crashed child's pipes open:
#   SWIFT_BACKTRACE=enable=no.
# - Tests deliberately crash plugins in sandboxed children and expect the
#   child to die by the signal (`crashed`): handle_segv=0 and friends leave
#   those signals alone, so only real sanitizer findings produce reports.
# - Reports from ANY process (hudhost children included, whose exit status a
#   test may expect to be non-zero anyway) go to log files (log_path); a
#   single report file fails the run, and its contents are printed.
# - Synchronization.Mutex under contention is invisible to TSan (false
#   "Swift access race"): Scripts/sanitizers/tsan.supp names the test
#   helpers that contend on one; library code avoids it.
set -euo pipefail
cd "$(dirname "$0")/.."

build_only=false
if [[ ${1:-} == --build-only ]]; then
  build_only=true
  shift
fi
kind=${1:-}
shift || true
case "$kind" in
  address)
    scratch=.build-asan
    # gold warns "Cannot export local symbol '__asan_*'" for every ASan
    # executable; lld (shipped with the toolchain) links them cleanly.
    flags=(--sanitize=address -Xswiftc -use-ld=lld
      -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,pc-table,inline-8bit-counters)
    ;;
  thread)
    scratch=.build-tsan
    flags=(--sanitize=thread -Xlinker --export-dynamic-symbol=__tsan_external_write)
    ;;
  *)
    echo "usage: $0 [--build-only] address|thread [swift test (or with --build-only: swift build) options...]" >&2
    exit 2
    ;;
esac

if $build_only; then
  echo "sanitizer-tests: building $* with --sanitize=$kind into $scratch"
  exec swift build "${flags[@]}" --scratch-path "$scratch" "$@"
fi

reports=$(mktemp -d "${TMPDIR:-/tmp}/hud-sanitizer-$kind.XXXXXX")
common="handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:log_path=$reports/report:log_exe_name=1"
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1:$common"
export LSAN_OPTIONS="suppressions=$PWD/Scripts/sanitizers/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="suppressions=$PWD/Scripts/sanitizers/tsan.supp:$common"

echo "sanitizer-tests: building with --sanitize=$kind into $scratch"
swift build --build-tests "${flags[@]}" --scratch-path "$scratch"

echo "sanitizer-tests: running the suite under --sanitize=$kind (reports: $reports)"
status=0
swift test --skip-build --disable-xctest "${flags[@]}" --scratch-path "$scratch" "$@" || status=$?

found=$(find "$reports" -type f | sort)
if [[ -n "$found" ]]; then
  echo "sanitizer-tests: $kind sanitizer reports:" >&2
  for file in $found; do
    echo "===== $file" >&2
    cat "$file" >&2
  done
  status=${status/#0/1}
fi
if ((status == 0)); then
  rm -rf "$reports"
  echo "sanitizer-tests: $kind: suite passed, no reports"
else
  echo "sanitizer-tests: $kind: FAILED (status $status)" >&2
fi
exit "$status"
