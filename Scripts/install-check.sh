#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make install` into a staging directory, then uses the installed tree the
# way a user and a plugin author would: the binary's run-time needs (ldd),
# --version, the SDK and the helper found relative to the install, a demo,
# pkg-config, man pages, completions, `hudhost new` for C, Rust and Swift
# built with each one's single command and validated strictly; finally
# `make uninstall` must leave nothing behind. Run from the repository root.
set -euo pipefail

stage=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$stage" "$work"' EXIT
prefix=/opt/hud
root=$stage$prefix

# `make` (as the README says: no PREFIX), then `make install` as `sudo
# make install` runs it: with a PATH that has no swift (sudo's
# secure_path), so installing must only copy, and with a PREFIX of its own.
echo "install-check: make; make install DESTDIR=$stage PREFIX=$prefix with PATH=/usr/sbin:/usr/bin:/sbin:/bin"
make >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
env PATH=/usr/sbin:/usr/bin:/sbin:/bin make install DESTDIR="$stage" PREFIX="$prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log"; echo "install-check: make install needed more than the files make built" >&2; exit 1; }
# Every document the messages and the guide point to, and the example
# scenes; every relative link in the installed documents leads to an
# installed file (the checkout's links were rewritten for this layout).
for doc in PLUGIN_GUIDE.md ABI.md COMPATIBILITY.md CONFORMANCE.md SCENES.md EVENTS.md PREVIEW.md JSON.md examples/home.json examples/ring.c examples/example_rust.rs; do
  [[ -s $root/share/doc/hud/$doc ]] || { echo "install-check: $prefix/share/doc/hud/$doc was not installed" >&2; exit 1; }
done
python3 Scripts/install-docs.py --check "$root/share/doc/hud"
hudhost=$root/bin/hudhost

# Only the C library, libffi, libseccomp and the GCC runtime: no Swift
# runtime, and no libmicrohttpd: `hudhost preview` opens it with dlopen when
# it starts (Sources/CMicroHTTPD/shim.c), so no other command loads it and
# Debian's GnuTLS chain.
allowed='^(linux-vdso\.so\.1|/lib64/ld-linux-x86-64\.so\.2|/lib/ld-linux-aarch64\.so\.1|libc\.so\.6|libm\.so\.6|libffi\.so\.[0-9]+|libseccomp\.so\.[0-9]+|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'
for binary in "$hudhost" "$root/libexec/hud/hudsandbox"; do
  unexpected=$(ldd "$binary" | awk '{print $1}' | grep -Ev "$allowed" || true)
  if [[ -n $unexpected ]]; then
    echo "install-check: $binary needs more than libc, libffi, libseccomp and the GCC runtime:" >&2
    echo "$unexpected" >&2
    exit 1
  fi
done
echo "install-check: ldd hudhost: $(ldd "$hudhost" | awk '{print $1}' | tr '\n' ' ')"

"$hudhost" --version | grep -Eq '^hudhost [0-9]+\.[0-9]+\.[0-9]+ \(renderer ABI [0-9]+\.[0-9]+\)$'
"$hudhost" sdk --json >"$work/sdk.json"
python3 - "$work/sdk.json" "$root" <<'EOF'
import json, sys
sdk, root = json.load(open(sys.argv[1])), sys.argv[2]
assert sdk["layout"] == "installed", sdk
assert sdk["includeDir"] == root + "/include/hud", sdk
assert sdk["header"] == root + "/include/hud/hud_renderer.h", sdk
assert sdk["docDir"] == root + "/share/doc/hud", sdk
assert sdk["rustBindings"] == root + "/share/hud/rust/hud_renderer.rs", sdk
EOF
# The help's scene example, as written there, works from the install.
HOME="$work/home" "$hudhost" render --scene "$("$hudhost" sdk --doc-dir)/examples/home.json" --reveal center >/dev/null
"$hudhost" doctor --json >"$work/doctor.json" || true
python3 - "$work/doctor.json" "$root" <<'EOF'
import json, sys
doctor, root = json.load(open(sys.argv[1])), sys.argv[2]
helper = json.dumps(doctor.get("helper"))
assert root + "/libexec/hud/hudsandbox" in helper, helper
assert root + "/lib/hud/renderers" in doctor["searchPath"], doctor["searchPath"]
EOF
# preview from the installed binary: libmicrohttpd loaded on demand, the
# page served with its token.
# Its first stdout line is the URL, read from a pipe as it is written.
mkfifo "$work/preview.out"
HOME="$work/home" "$hudhost" preview --port 0 >"$work/preview.out" 2>"$work/preview.log" &
preview=$!
exec {preview_out}<"$work/preview.out"
url=""
read -r -t 20 url <&"$preview_out" || true
[[ $url == http://127.0.0.1:* ]] || { kill "$preview"; cat "$work/preview.log" >&2; echo "install-check: preview printed no URL within 20 s" >&2; exit 1; }
curl -fsS "$url" -o "$work/preview.html" || { kill "$preview"; cat "$work/preview.log" >&2; exit 1; }
kill "$preview"; wait "$preview" || true
exec {preview_out}<&-
grep -qi '<html' "$work/preview.html" || { echo "install-check: preview served no page" >&2; exit 1; }
HOME="$work/home" "$hudhost" demo --out "$work/demo" >"$work/demo.log"
ls "$work/demo"/*.svg >/dev/null 2>&1 || { echo "install-check: demo wrote no SVGs" >&2; ls "$work/demo" >&2; exit 1; }

# pkg-config: written for install's PREFIX (not make's default), and
# relocated to the staging directory.
pc_prefix=$(PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --variable=prefix hud-renderer)
[[ $pc_prefix == "$prefix" ]] || { echo "install-check: hud-renderer.pc says prefix=$pc_prefix, installed with PREFIX=$prefix" >&2; exit 1; }
cflags=$(echo $(PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --define-variable=prefix="$root" --cflags hud-renderer))
[[ $cflags == "-I$root/include/hud" ]] || { echo "install-check: pkg-config --cflags gave '$cflags'" >&2; exit 1; }
[[ $(PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --variable=abi_version hud-renderer) == $("$hudhost" sdk --abi-version) ]]
test -d "$root/lib/hud/renderers"

# Man pages and completions.
for page in "$root"/share/man/man1/*.1; do
  MANWIDTH=80 man -l "$page" >/dev/null 2>"$work/man.err" || { cat "$work/man.err"; exit 1; }
done
test -f "$root/share/man/man1/hudhost-render.1"
# The topic pages: found by `man SECTION NAME`, with a NAME line for
# whatis/apropos, rendered without a macro warning, and holding every
# section of their document.
Scripts/topic-man.sh --list | while read -r section page document; do
  file=$(MANPATH="$root/share/man" man -w "$section" "$page") || { echo "install-check: man $section $page finds no page" >&2; exit 1; }
  lexgrog "$file" | grep -q "\"$page - " || { echo "install-check: $file has no NAME line" >&2; exit 1; }
  warnings=$(groff -k -t -man -Tutf8 -z -wmac -Wbreak "$file" 2>&1 | grep '^troff:' || true)
  [[ -z $warnings ]] || { echo "install-check: groff warns on $file:" >&2; echo "$warnings" >&2; exit 1; }
  text=$(MANWIDTH=200 man -l "$file" 2>/dev/null | sed "s/^ *//; s/’/'/g")
  while read -r heading; do
    grep -qxF -- "$heading" <<<"$text" || { echo "install-check: $file lacks the section '$heading' of $document" >&2; exit 1; }
  done < <(awk '/^```/ { fenced = !fenced; next } !fenced && /^#+ / { sub(/^#+ /, ""); gsub(/`/, ""); print }' "$document")
done
bash -n "$root/share/bash-completion/completions/hudhost"
if command -v zsh >/dev/null; then zsh -n "$root/share/zsh/site-functions/_hudhost"; fi
if command -v fish >/dev/null; then fish --no-execute "$root/share/fish/vendor_completions.d/hudhost.fish"; fi

# hudhost new, with the installed SDK, for every language.
cargo=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
"$hudhost" new --lang c --id org.example.check-c "$work/c" >/dev/null
make -C "$work/c" >/dev/null
"$hudhost" new --lang rust --id org.example.check-rust "$work/rust" >/dev/null
(cd "$work/rust" && "$cargo" build --release --offline --quiet)
"$hudhost" new --lang swift --id org.example.check-swift "$work/swift" >/dev/null
(cd "$work/swift" && swift build -c release >/dev/null)
for library in "$work"/c/lib*.so "$work"/rust/target/release/lib*.so "$work"/swift/.build/release/lib*.so; do
  echo "install-check: validate --profile strict $library"
  HOME="$work/home" "$hudhost" validate --profile strict "$library" >"$work/validate.log" 2>&1 \
    || { cat "$work/validate.log"; exit 1; }
done

echo "install-check: make uninstall"
make uninstall DESTDIR="$stage" PREFIX="$prefix" >/dev/null
left=$(find "$stage" -type f)
if [[ -n $left ]]; then
  echo "install-check: make uninstall left files behind:" >&2
  echo "$left" >&2
  exit 1
fi
echo "install-check: passed"
