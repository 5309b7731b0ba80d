#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets in Fuzz/Targets and runs each for a bounded
# time; fails if any target finds a crash, a sanitizer report, a leak or a
# hang.
#
#   Fuzz/run.sh [SECONDS] [TARGET...]     # default: 60 s each, every target
#   Fuzz/run.sh 600 layout                # one target, ten minutes
#
# How it is built (the least fragile way found; Docs/RELIABILITY.md):
# 1. The fuzz targets share the AddressSanitizer build of the test suite
#    (.build-asan, Scripts/sanitizer-tests.sh), which carries libFuzzer's
#    coverage instrumentation too. Only the library targets the harness
#    uses are asked for (HudScenes, HudPresentation and, through them,
#    HudRegistry, HudPluginBoundary, HudSystem, HudModel, BuiltinRenderers and the C target
#    CHudHot); after `sanitizer-tests.sh address` that is already done.
#    Debug builds are compiled with -enable-testing, so a fuzz target can
#    `@testable import` them and reach the internal decoders directly.
# 2. swiftc compiles each entry point (Fuzz/Targets/<target>.swift) together
#    with Tests/hudhostTests/FuzzHarness.swift (what each target does with
#    an input; the regression tests replay saved inputs through the same
#    code) with -sanitize=fuzzer,address, and links them with those object
#    files; libFuzzer provides main.
# Crashing inputs land in Fuzz/findings/ (ignored by git). Turn each into a
# regression test (copy it to Tests/Fixtures/fuzz/<target>/ with a name that
# says what it broke: FuzzRegressionTests replays every file there) and fix
# the code; reproduce with `$(swift build --scratch-path .build-asan
# --show-bin-path)/fuzz-<target> Fuzz/findings/<file>`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(scene layout elf events cache); fi

scratch=.build-asan
export SWIFT_BACKTRACE=enable=no
# handle_abort: Swift runtime traps (fatalError, precondition, overflow)
# are crashes too. detect_leaks: libFuzzer checks each new input for leaks.
export ASAN_OPTIONS="detect_leaks=1:handle_abort=1:allocator_may_return_null=1"

libraries=(HudModel HudSystem HudPluginBoundary HudRegistry HudScenes HudPresentation BuiltinRenderers CHudHot)
for library in HudScenes HudPresentation; do
  Scripts/sanitizer-tests.sh --build-only address --target "$library"
done
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
objects=()
for library in "${libraries[@]}"; do objects+=("$bin/$library.build"/*.o); done
# The harness reaches `package` declarations, so it is compiled as part of
# this package, under the -package-name SwiftPM gave the targets (derived
# from the checkout's directory name: lowercased, '-' becomes '_').
package_name=$(grep -o -- '-package-name","[^"]*' "$scratch/debug.yaml" | head -n 1 | sed 's/.*","//')
[[ -n "$package_name" ]] || { echo "fuzz: cannot find the package name in $scratch/debug.yaml" >&2; exit 1; }
module_flags=(
  -I "$bin/Modules"
  -Xcc -fmodule-map-file="$bin/HudRendererAPI.build/module.modulemap" -Xcc -I -Xcc Sources/HudRendererAPI/include/hud
  -Xcc -fmodule-map-file=Sources/CFFI/module.modulemap
  -Xcc -fmodule-map-file=Sources/CHudSystem/module.modulemap
  -Xcc -fmodule-map-file=Sources/CSeccomp/module.modulemap
  -Xcc -fmodule-map-file="$bin/CHudHot.build/module.modulemap" -Xcc -I -Xcc Sources/CHudHot/include
)

harness=Tests/hudhostTests/FuzzHarness.swift
mkdir -p Fuzz/findings
for target in "${targets[@]}"; do
  source=Fuzz/Targets/$target.swift
  [[ -f "$source" ]] || { echo "fuzz: no target $source" >&2; exit 2; }
  executable=$bin/fuzz-$target
  if [[ ! -x "$executable" || "$source" -nt "$executable" || "$harness" -nt "$executable" ||
        -n "$(find "${objects[@]}" -newer "$executable" -print -quit)" ]]; then
    echo "fuzz: compiling $source"
    swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -g -Onone -use-ld=lld \
      -module-name "Fuzz_$target" -package-name "$package_name" "${module_flags[@]}" "$source" "$harness" "${objects[@]}" -lffi -lseccomp -o "$executable"
  fi
done

# fuzz TARGET: runs one target for its budget; its result line goes to
# $scratch/fuzz/TARGET.result.
fuzz() {
  local target=$1 result
  local work=$scratch/fuzz/corpus/$target log=$scratch/fuzz/$target.log dictionary=()
  mkdir -p "$work"
  [[ -f Fuzz/dict/$target.dict ]] && dictionary=(-dict=Fuzz/dict/$target.dict)
  echo "fuzz: $target for ${seconds}s (new inputs: $work; seeds: Fuzz/corpus/$target)"
  if "$bin/fuzz-$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="Fuzz/findings/$target-" "${dictionary[@]}" "$work" "Fuzz/corpus/$target" >"$log" 2>&1; then
    result=ok
  else
    result="FAILED (exit $?)"
  fi
  local runs coverage corpus
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  corpus=$(find "$work" -type f | wc -l)
  printf '%-7s %-18s %10s execs  %-10s corpus %5s\n' "$target" "$result" "${runs:-?}" "${coverage:-cov: ?}" "$corpus" \
    >"$scratch/fuzz/$target.result"
}

# One target per core at a time: each libFuzzer process is single-threaded,
# so on two cores two targets take the time of one.
cores=$(nproc)
for target in "${targets[@]}"; do
  rm -f "$scratch/fuzz/$target.result"
  while (($(jobs -rp | wc -l) >= cores)); do wait -n || true; done
  fuzz "$target" &
done
wait

status=0
echo "fuzz: summary (${seconds}s per target, $cores at a time)"
for target in "${targets[@]}"; do
  line=$(cat "$scratch/fuzz/$target.result" 2>/dev/null || echo "$target  no result")
  echo "  $line"
  if [[ $line != "$target"*" ok "* ]]; then
    status=1
    echo "fuzz: $target failed; the end of $scratch/fuzz/$target.log:" >&2
    tail -60 "$scratch/fuzz/$target.log" >&2
  fi
done
exit "$status"
