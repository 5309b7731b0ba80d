#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The topic man pages (`man 7 hud-abi`, `man 5 hud-scenes`, …), made from
# the documents in Docs/ by lowdown (Debian: lowdown), so a page and its
# document can never disagree: each page is its document with a NAME
# section put in front. `make` runs this; `make install` copies the pages.
#
#   Scripts/topic-man.sh OUTDIR      # writes OUTDIR/man5/*.5 and OUTDIR/man7/*.7
#   Scripts/topic-man.sh --list      # "SECTION PAGE DOCUMENT" per page
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: Scripts/topic-man.sh OUTDIR|--list}

# document  page  section  what it is (the NAME line)
topics=(
  "Docs/PLUGIN_GUIDE.md  hud-plugin-guide  7  writing a HUD renderer plugin, from an empty directory to a validated one"
  "Docs/ABI.md           hud-abi           7  the HUD renderer C ABI: entry, descriptor, inputs, nodes, versioning"
  "Docs/COMPATIBILITY.md hud-compatibility 7  what stays true for a HUD renderer plugin that worked"
  "Docs/CONFORMANCE.md   hud-conformance   7  every check hudhost validate runs: its rule, its fix, its profiles"
  "Docs/EVENTS.md        hud-events        7  the pointer-event scripts of hudhost render --events and the preview"
  "Docs/PREVIEW.md       hud-preview       7  the live preview of hudhost preview: controls, reloads, its HTTP API"
  "Docs/SCENES.md        hud-scenes        5  scene files: a page's complications, title and style as JSON"
  "Docs/ISOLATION.md     hud-isolation     7  how hudhost keeps plugin code apart: renderer hosts and the sandbox's layers"
)

if [[ $out == --list ]]; then
  for topic in "${topics[@]}"; do
    read -r document page section _ <<<"$topic"
    echo "$section $page $document"
  done
  exit 0
fi
command -v lowdown >/dev/null || {
  echo "topic-man: lowdown is needed to make the topic man pages from Docs/ (Debian: apt-get install lowdown)" >&2
  exit 1
}

for topic in "${topics[@]}"; do
  read -r document page section what <<<"$topic"
  mkdir -p "$out/man$section"
  { printf '# NAME\n\n%s - %s\n\n' "$page" "$what"; cat "$document"; } |
    # No emphasis inside words (struct_size and mode_index keep their
    # underscores) and no link targets (a page shows "ABI.md", not
    # "ABI.md <ABI.md>" or a "#section" anchor).
    lowdown -s -Tman --parse-no-intraemph --nroff-nolinks \
      -M "title=$page" -M "section=$section" -M "source=hudhost" -M "volume=HUD renderer SDK" \
      -o - |
    # Ragged right and no hyphenation, as man pages of code usually are:
    # justified narrow table cells full of identifiers cannot be adjusted
    # (troff warns at 80 columns) and an identifier must not be hyphenated.
    sed '/^\.TH /a .ad l\n.nh' >"$out/man$section/$page.$section"
done
