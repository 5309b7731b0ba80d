#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Side by side with the peers (BENCHMARKS.md "Peers"): times
# `hudhost list` over N generated plugins (with and without the
# .hud_renderers metadata section, cold and warm) against
# `gst-inspect-1.0` over the system's GStreamer plugins (cold: registry
# deleted, so gst-plugin-scanner loads every plugin; warm: registry kept)
# and `lv2ls` over the system's LV2 bundles, as whole processes, in ONE
# alternating loop (run 1 of every command, then run 2 of every command...)
# so machine noise hits all of them alike. Prints a Markdown table:
# median, min–max, and each row's ratio to gst-inspect in the same mode.
#
#   Scripts/bench-peers.sh [--count N]... [--runs R] [--bare-count N] [--install] [--smoke] [--hudhost PATH] [--baseline PATH]
#
#   --count N       plugins with metadata (repeatable; default 105, 1000 and 10000)
#   --bare-count N  plugins without metadata, listed cold (default 1000; 0 skips)
#   --runs R        runs per command (default 11; bare rows at most 5)
#   --install       apt-get install gstreamer1.0-tools, -plugins-base, -plugins-good
#                   and lilv-utils if missing
#   --smoke         N = 10, 3 runs, bare N = 10: checks the script works (CI)
#   --prepare       only generate (compile) the plugins, then exit
#   --hudhost PATH  default: .build/release/hudhost (swift build -c release)
#   --baseline PATH another hudhost (e.g. a build of the commit before a
#                   change): its warm rows are timed in the same loop, with
#                   the same cache, for a before/after in one run
#
# A peer that is not installed is left out with a note. Needs cc. Timings
# are reported, never judged: the script fails only if a command fails.
set -euo pipefail
cd "$(dirname "$0")/.."

counts=()
runs=11
bare_count=1000
install=0
smoke=0
prepare=0
hudhost=.build/release/hudhost
baseline=
while (($#)); do
  case "$1" in
    --count) counts+=("$2"); shift 2 ;;
    --bare-count) bare_count=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --install) install=1; shift ;;
    --smoke) smoke=1; shift ;;
    --prepare) prepare=1; shift ;;
    --hudhost) hudhost=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    -h|--help) sed -n '3,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-peers: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if ((smoke)); then counts=(10); runs=3; bare_count=10; fi
((${#counts[@]})) || counts=(105 1000 10000)
[[ -x $hudhost ]] || { echo "bench-peers: $hudhost is missing; run swift build -c release first" >&2; exit 1; }
hudhost=$(cd "$(dirname "$hudhost")" && pwd)/$(basename "$hudhost")
if [[ -n $baseline ]]; then
  [[ -x $baseline ]] || { echo "bench-peers: --baseline $baseline is not an executable" >&2; exit 1; }
  baseline=$(cd "$(dirname "$baseline")" && pwd)/$(basename "$baseline")
fi

if ((install)); then
  need=()
  command -v gst-inspect-1.0 >/dev/null || need+=(gstreamer1.0-tools)
  # The goal is stated against the 105 plugins of core, base and good
  # (the tools alone bring GStreamer's core: 3 plugins).
  for package in gstreamer1.0-plugins-base gstreamer1.0-plugins-good; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || need+=("$package")
  done
  command -v lv2ls >/dev/null || need+=(lilv-utils)
  if ((${#need[@]})); then
    echo "bench-peers: installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "${need[@]}" >&2 || { apt-get update -q >&2 && apt-get install -y -q "${need[@]}" >&2; }
  fi
fi

# The generated plugins are kept in $work between runs and shared by two
# runs at once (each file appears whole, by rename); what a run writes
# (caches, HOME, gst's registry) is its own, in $scratch.
work=${TMPDIR:-/tmp}/bench-peers-$(id -u)
mkdir -p "$work"
scratch=$(mktemp -d --tmpdir="$work")
trap 'rm -rf "$scratch"' EXIT
source_file=Benchmarks/generated-plugin/generated_plugin.c
include=Sources/HudRendererAPI/include/hud
fingerprint=$(cat "$source_file" "$include"/*.h | cksum | cut -d' ' -f1)

# generate KIND N: a directory of N distinct plugins (KIND meta: with the
# metadata section; bare: without). One template is compiled per kind
# (HUDGEN_INDEX=00000); plugin i is that file with the five digits of its
# id and name replaced (same length, so the ELF layout is unchanged: only
# the strings differ, as between separately compiled plugins, which would
# take ~0.1 s of cc each). Kept in a pool and hard-linked per N.
generate() {
  local kind=$1 n=$2 pool=$work/pool-$1-$fingerprint dir=$work/$1-$2
  mkdir -p "$pool" "$dir"
  local flags=()
  [[ $kind == bare ]] && flags=(-DHUDGEN_BARE)
  if [[ ! -e $pool/template.so ]]; then
    cc -std=c11 -O1 -shared -fPIC -I "$include" -DHUDGEN_INDEX=00000 "${flags[@]}" "$source_file" -o "$pool/template.so.$$"
    mv -f "$pool/template.so.$$" "$pool/template.so"
  fi
  python3 - "$pool" "$n" <<'PY'
import os, sys
pool, n = sys.argv[1], int(sys.argv[2])
template = open(os.path.join(pool, "template.so"), "rb").read()
markers = (b"generated-00000", b"Generated 00000")
assert all(template.count(m) for m in markers), "the template's id and name were not found"
for i in range(n):
    path = os.path.join(pool, "gen-%05d.so" % i)
    if os.path.exists(path):
        continue
    data = template
    for m in markers:
        data = data.replace(m, m[:-5] + b"%05d" % i)
    partial = "%s.partial-%d" % (path, os.getpid())
    with open(partial, "wb") as f:
        f.write(data)
    os.chmod(partial, 0o755)
    os.rename(partial, path)
PY
  local i name
  for ((i = 0; i < n; i++)); do
    printf -v name 'gen-%05d.so' "$i"
    # Another run may link it between the test and ln.
    [[ -e $dir/$name ]] || ln "$pool/$name" "$dir/$name" 2>/dev/null || [[ -e $dir/$name ]]
  done
  echo "$dir"
}

# Each command: a label, a mode (cold/warm/-), a preparation run before
# every timed run (untimed) and the command itself.
labels=(); modes=(); preps=(); commands=()
add() { labels+=("$1"); modes+=("$2"); preps+=("$3"); commands+=("$4"); }

for n in "${counts[@]}"; do
  dir=$(generate meta "$n")
  cache=$scratch/xdg-meta-$n
  env="HOME=$scratch/home HUD_RENDERER_PATH=$dir XDG_CACHE_HOME=$cache"
  mkdir -p "$scratch/home" "$cache"
  add "hudhost list, $n plugins" cold "rm -rf $cache/hud" "env $env $hudhost list --json"
  add "hudhost list, $n plugins" warm "true" "env $env $hudhost list --json"
  add "hudhost list (text table), $n plugins" warm "true" "env $env $hudhost list"
  if [[ -n $baseline ]]; then
    add "baseline list, $n plugins" warm "true" "env $env $baseline list --json"
    add "baseline list (text table), $n plugins" warm "true" "env $env $baseline list"
  fi
done
if ((bare_count > 0)); then
  dir=$(generate bare "$bare_count")
  cache=$scratch/xdg-bare-$bare_count
  mkdir -p "$cache"
  add "hudhost list, $bare_count plugins without metadata" cold "rm -rf $cache/hud" \
    "env HOME=$scratch/home HUD_RENDERER_PATH=$dir XDG_CACHE_HOME=$cache $hudhost list --json"
fi
if ((prepare)); then echo "bench-peers: plugins generated under $work" >&2; exit 0; fi
notes=()
if command -v gst-inspect-1.0 >/dev/null; then
  registry=$scratch/gst-registry.bin
  gst_count=$(GST_REGISTRY=$registry gst-inspect-1.0 2>/dev/null | sed -n 's/^Total count: \([0-9]*\) plugins.*/\1/p')
  add "gst-inspect-1.0, ${gst_count:-?} system plugins" cold "rm -f $registry" "env GST_REGISTRY=$registry gst-inspect-1.0"
  add "gst-inspect-1.0, ${gst_count:-?} system plugins" warm "true" "env GST_REGISTRY=$registry gst-inspect-1.0"
else
  notes+=("gst-inspect-1.0 is not installed (--install installs gstreamer1.0-tools)")
fi
if command -v lv2ls >/dev/null; then
  lv2_count=$(lv2ls 2>/dev/null | wc -l)
  add "lv2ls, $lv2_count system LV2 plugins (no cache)" - "true" "lv2ls"
else
  notes+=("lv2ls is not installed (--install installs lilv-utils)")
fi

# The alternating loop. Times in microseconds from $EPOCHREALTIME around
# the command (bash's own fork and exec included, alike for every row).
declare -A samples
for ((run = 0; run < runs; run++)); do
  for i in "${!commands[@]}"; do
    if [[ ${labels[$i]} == *"without metadata"* ]] && ((run >= 5)); then continue; fi
    eval "${preps[$i]}"
    start=$EPOCHREALTIME
    eval "${commands[$i]}" >/dev/null 2>"$scratch/stderr" || { echo "bench-peers: '${commands[$i]}' failed:" >&2; cat "$scratch/stderr" >&2; exit 1; }
    end=$EPOCHREALTIME
    samples[$i]+="$(( (${end/./} - ${start/./}) )) "
  done
done

# median / min / max in ms of a list of microsecond samples
stats() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | awk '{ a[NR] = $1 } END {
  m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
  printf "%.1f %.1f %.1f %d\n", m / 1000, a[1] / 1000, a[NR] / 1000, NR }'; }

declare -A gst_median
for i in "${!commands[@]}"; do
  if [[ ${labels[$i]} == gst-inspect* ]]; then read -r median _ <<<"$(stats "${samples[$i]}")"; gst_median[${modes[$i]}]=$median; fi
done
echo "Machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(uname -sr); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "| command | mode | median ms | min–max ms | runs | ratio to gst-inspect (same mode) |"
echo "|---|---|---:|---:|---:|---:|"
for i in "${!commands[@]}"; do
  read -r median low high count <<<"$(stats "${samples[$i]}")"
  mode=${modes[$i]}
  reference=${gst_median[$mode]:-${gst_median[cold]:-}}
  ratio="—"
  if [[ -n $reference && ${labels[$i]} != gst-inspect* ]]; then
    ratio=$(awk -v a="$median" -v b="$reference" 'BEGIN { printf "%.2f×", a / b }')
    [[ $mode == - || -z ${gst_median[$mode]:-} ]] && ratio+=" (of cold)"
  fi
  echo "| ${labels[$i]} | $mode | $median | $low–$high | $count | $ratio |"
done
for note in "${notes[@]}"; do echo; echo "Note: $note"; done
