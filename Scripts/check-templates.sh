#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Proves the plugin project templates (Plugins/Templates) do what
# `hudhost new` promises: each instantiates, builds with its one command
# without a warning, and passes `hudhost validate --profile strict`.
#
#   Scripts/check-templates.sh HUDHOST_BINARY
#   Scripts/check-templates.sh .build/debug/hudhost
#
# Each template is copied into a temporary directory with its placeholders
# replaced as `hudhost new` would (Plugins/Templates/README.md): the C
# project gets sdk/hud-renderer.pc from `$HUDHOST sdk --pkg-config`, the
# Rust project src/hud_renderer.rs, a copy of the SDK's generated bindings
# (found from `$HUDHOST sdk --json` where `hudhost new` takes them:
# Sources/HudRendererAPI/bindings/rust in a checkout, <prefix>/share/hud/rust
# in an install), the Swift project's module map the header under
# `$HUDHOST sdk --include-dir`.
# Then:
#   c       make, make validate HUDHOST=..., make clean
#   rust    cargo build --release --offline, hudhost validate --profile strict
#   swift   swift build -c release, hudhost validate --profile strict
# Any failure, compiler warning or leftover placeholder fails the run.
#
# Environment: TEMPLATES (default "c rust swift") picks templates; CARGO and
# SWIFT name the tools (default: cargo, or ~/.cargo/bin/cargo; swift);
# KEEP=1 keeps the temporary directory (it is always kept on failure).
#
# Exit status: 0 all passed, 1 a template failed, 2 usage error.
set -euo pipefail

usage() {
    echo "usage: $0 HUDHOST_BINARY" >&2
    echo "  e.g. $0 .build/debug/hudhost   (after swift build)" >&2
    exit 2
}
[ $# -eq 1 ] || usage
[ -x "$1" ] && [ -f "$1" ] || { echo "error: $1 is not an executable file" >&2; usage; }

for template in ${TEMPLATES:-}; do
    case $template in
        c | rust | swift) ;;
        *) echo "error: unknown template '$template' in TEMPLATES (c, rust, swift)" >&2; exit 2 ;;
    esac
done

HUDHOST=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TEMPLATES_DIR=$ROOT/Plugins/Templates
TEMPLATES=${TEMPLATES:-c rust swift}
SWIFT=${SWIFT:-swift}
if [ -z "${CARGO:-}" ]; then
    if command -v cargo >/dev/null 2>&1; then CARGO=cargo; else CARGO=$HOME/.cargo/bin/cargo; fi
fi

# The values `hudhost new --id org.example.starter` would substitute.
ID=org.example.starter
NAME=Starter
IDENT=starter
LIB=starter
INCLUDE_DIR=$("$HUDHOST" sdk --include-dir)
HUD_HEADER=$INCLUDE_DIR/hud_renderer.h
[ -f "$HUD_HEADER" ] || { echo "error: $HUDHOST sdk --include-dir gave $INCLUDE_DIR, which has no hud_renderer.h" >&2; exit 1; }
# The SDK's generated Rust bindings, where `hudhost new --lang rust` reads
# them (SdkLocation.rustBindings): two directories above the include
# directory, then bindings/rust in a source checkout, share/hud/rust in an
# install.
SDK_LAYOUT=$("$HUDHOST" sdk --json | sed -n 's/^ *"layout": "\([^"]*\)".*/\1/p')
SDK_BASE=$(dirname "$(dirname "$INCLUDE_DIR")")
case $SDK_LAYOUT in
    installed) RUST_BINDINGS=$SDK_BASE/share/hud/rust/hud_renderer.rs ;;
    source-checkout) RUST_BINDINGS=$SDK_BASE/bindings/rust/hud_renderer.rs ;;
    *) echo "error: $HUDHOST sdk --json gave no known layout ('$SDK_LAYOUT')" >&2; exit 1 ;;
esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/hud-templates.XXXXXX")
# The host refuses plugins in directories others can write to.
chmod 0755 "$WORK"
failed=()
cleanup() {
    if [ ${#failed[@]} -gt 0 ] || [ "${KEEP:-0}" = 1 ]; then
        echo "kept $WORK" >&2
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }

# instantiate TEMPLATE DEST: copy (dotfiles too) and substitute.
instantiate() {
    local template=$1 dest=$2
    cp -R "$TEMPLATES_DIR/$template" "$dest"
    find "$dest" -type f -print0 | xargs -0 sed -i \
        -e "s|@ID@|$ID|g" -e "s|@NAME@|$NAME|g" -e "s|@IDENT@|$IDENT|g" \
        -e "s|@LIB@|$LIB|g" -e "s|@HUD_HEADER@|$HUD_HEADER|g"
    if grep -rnE '@[A-Z_]+@' "$dest"; then
        echo "error: placeholders left in $template after substitution (above)" >&2
        return 1
    fi
}

# run LOG COMMAND...: runs it, shows its output, fails on a non-zero
# status or on a compiler warning in the output.
run() {
    local log=$1
    shift
    echo "\$ $*"
    if ! "$@" >"$log" 2>&1; then
        cat "$log"
        echo "error: '$*' failed" >&2
        return 1
    fi
    cat "$log"
    if grep -nE '(^|[^a-z_-])warning[:[]' "$log"; then
        echo "error: '$*' printed warnings (above)" >&2
        return 1
    fi
}

# built SO: the library exists and carries its metadata record.
built() {
    local so=$1
    [ -f "$so" ] || { echo "error: $so was not built" >&2; return 1; }
    # grep reads all of readelf's output (no -q): under pipefail an early exit
    # would fail readelf with SIGPIPE.
    if command -v readelf >/dev/null 2>&1 && ! readelf -S "$so" | grep '\.hud_renderers' >/dev/null; then
        echo "error: $so has no .hud_renderers metadata section" >&2
        return 1
    fi
}

# validate SO: the strict conformance suite.
validate() {
    echo "\$ $HUDHOST validate --profile strict $1"
    "$HUDHOST" validate --profile strict "$1"
}

check_c() {
    local dir=$WORK/c
    instantiate c "$dir"
    mkdir -p "$dir/sdk"
    "$HUDHOST" sdk --pkg-config >"$dir/sdk/hud-renderer.pc"
    (
        cd "$dir"
        run "$WORK/c-build.log" make
        built "lib$LIB.so"
        echo "\$ make validate HUDHOST=$HUDHOST"
        make --no-print-directory validate HUDHOST="$HUDHOST"
        make --no-print-directory clean
        [ ! -e "lib$LIB.so" ] || { echo "error: make clean left lib$LIB.so" >&2; exit 1; }
    )
}

check_rust() {
    local dir=$WORK/rust
    instantiate rust "$dir"
    # The template has no bindings of its own: hudhost new copies the SDK's.
    [ -f "$RUST_BINDINGS" ] || { echo "error: the SDK's Rust bindings are missing: $RUST_BINDINGS" >&2; return 1; }
    cp "$RUST_BINDINGS" "$dir/src/hud_renderer.rs"
    (
        cd "$dir"
        run "$WORK/rust-build.log" "$CARGO" build --release --offline
        built "target/release/lib$LIB.so"
        validate "target/release/lib$LIB.so"
    )
}

check_swift() {
    local dir=$WORK/swift
    instantiate swift "$dir"
    (
        cd "$dir"
        run "$WORK/swift-build.log" "$SWIFT" build -c release
        built ".build/release/lib$LIB.so"
        validate ".build/release/lib$LIB.so"
    )
}

for template in $TEMPLATES; do
    step "$template: Plugins/Templates/$template → $WORK/$template"
    # A subshell with errexit of its own: in an `if` condition bash would
    # ignore errexit inside the check.
    set +e
    (set -e; "check_$template")
    status=$?
    set -e
    if [ $status -eq 0 ]; then
        echo "ok: $template"
    else
        echo "FAILED: $template" >&2
        failed+=("$template")
    fi
done

echo
if [ ${#failed[@]} -gt 0 ]; then
    echo "check-templates: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "check-templates: all passed ($TEMPLATES) with $HUDHOST"
