#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The documents `make install` ships, as they read in the installed tree.

In the checkout the documents link to each other by their checkout paths
(README.md -> Docs/ABI.md, Docs/ABI.md -> ../README.md, -> the headers in
Sources/...). Installed, the documents lie side by side in
<prefix>/share/doc/hud/, the example scenes and plugins in its examples/,
the headers in <prefix>/include/hud/. `make` runs this to write the
documents with every relative link rewritten for that layout; `make
install` copies what it wrote.

A link to a file the install does not ship is an error that names the
document, the link and the file, so a shipped document never points to
nothing: ship the file (the Makefile's `docs` or `examples`) or drop the
link.

    Scripts/install-docs.py OUTDIR --in . FILE... --in examples FILE... --elsewhere FILE=INSTALLED...
    Scripts/install-docs.py --check DOCDIR     # every relative link of an installed tree resolves

OUTDIR is replaced only if this script wrote it (it holds the stamp file
.install-docs, which make also uses); a run that finds a bad link leaves
no OUTDIR.

`--in DIR` places the files after it in DIR of the document directory
(`.` for its top). `--elsewhere` names files installed outside it, each
with its installed path under the prefix
(Sources/HudRendererAPI/include/hud/hud_abi.h=include/hud/hud_abi.h).
"""

import os
import re
import shutil
import sys

# The target of an inline link or image, `](target)`, `](<target>)` or
# `](target "title")`, whatever the text before it holds (brackets, a
# nested image); and of a reference definition, `[label]: target` (not a
# footnote, `[^1]: …`). Code is never read: fenced blocks and code spans.
INLINE = re.compile(r'(\]\(\s*<?)([^)\s>]+)(>?(?:\s+"[^"]*")?\s*\))')
DEFINITION = re.compile(r"^(\s*\[[^\]^][^\]]*\]:\s*<?)([^\s>]+)(.*)$", re.M)
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`[^`\n]*`)")
# A document named in prose by its checkout path ("see Docs/ABI.md"), not a
# link: renamed to where it lies installed, when the install ships it.
MENTION = re.compile(r"(?<![\w/.-])(?<!\]\()(Docs/[A-Za-z0-9_-]+\.md)\b")
DOCDIR = "share/doc/hud"
STAMP = ".install-docs"


def is_relative(target):
    return not (target.startswith("#") or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("/"))


def prose(text):
    """The text as (is_code, piece) pieces, in order: fenced blocks and code
    spans are code, the rest is prose."""
    pieces, fence = [], None
    for line in text.splitlines(keepends=True):
        opening = FENCE.match(line)
        if fence or opening:
            pieces.append((True, line))
            if fence is None:
                fence = opening.group(1)
            elif opening and opening.group(1) == fence:
                fence = None
            continue
        pieces += [(index % 2 == 1, piece) for index, piece in enumerate(CODE_SPAN.split(line))]
    return pieces


def rewrite(text, rewrite_target, rename_mention=lambda path: path):
    def in_prose(piece):
        piece = INLINE.sub(lambda m: m.group(1) + rewrite_target(m.group(2)) + m.group(3), piece)
        piece = DEFINITION.sub(lambda m: m.group(1) + rewrite_target(m.group(2)) + m.group(3), piece)
        return MENTION.sub(lambda m: rename_mention(m.group(1)), piece)
    return "".join(piece if code else in_prose(piece) for code, piece in prose(text))


def links(text):
    return [m.group(2) for code, piece in prose(text) if not code
            for pattern in (INLINE, DEFINITION) for m in pattern.finditer(piece)]


def make(outdir, shipped, elsewhere):
    # Where each checkout file lands, relative to the document directory.
    placed = {os.path.normpath(source): os.path.normpath(os.path.join(directory, os.path.basename(source)))
              for directory, sources in shipped.items() for source in sources}
    for source, installed in elsewhere.items():
        placed[os.path.normpath(source)] = os.path.relpath(installed, DOCDIR)
    errors = []
    # Only a directory this script wrote (it holds the stamp) is replaced.
    if os.path.lexists(outdir):
        if not os.path.isfile(os.path.join(outdir, STAMP)):
            return [f"{outdir} exists and was not written by this script; remove it or name another directory"]
        shutil.rmtree(outdir)
    os.makedirs(outdir)
    open(os.path.join(outdir, STAMP), "w").close()
    for doc in [source for sources in shipped.values() for source in sources]:
        here = placed[os.path.normpath(doc)]
        destination = os.path.join(outdir, here)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        if not doc.endswith(".md"):
            shutil.copyfile(doc, destination)
            continue
        with open(doc, encoding="utf-8") as f:
            text = f.read()

        def installed(source, here=here):
            return os.path.relpath(placed[source], os.path.dirname(here) or ".")

        def rewrite_target(target, doc=doc, here=here):
            if not is_relative(target):
                return target
            path, _, anchor = target.partition("#")
            if not path:
                return target
            source = os.path.normpath(os.path.join(os.path.dirname(doc), path))
            if source not in placed:
                errors.append(f"{doc}: the link ({target}) points to {source}, which make install does not ship; "
                              "add it to the Makefile's docs, or drop the link")
                return target
            return installed(source) + ("#" + anchor if anchor else "")

        def rename_mention(path):
            # Named from the checkout's top (README's view); unshipped: kept.
            source = os.path.normpath(path)
            return installed(source) if source in placed else path

        with open(destination, "w", encoding="utf-8") as f:
            f.write(rewrite(text, rewrite_target, rename_mention))
    # A failed run leaves nothing, so make never takes it for a finished one.
    if errors:
        shutil.rmtree(outdir)
    return errors


def check(docdir):
    errors = []
    for root, _, files in os.walk(docdir):
        for name in files:
            if not name.endswith(".md"):
                continue
            doc = os.path.join(root, name)
            with open(doc, encoding="utf-8") as f:
                text = f.read()
            for target in links(text):
                path = target.partition("#")[0]
                if is_relative(target) and path and not os.path.exists(os.path.join(root, path)):
                    errors.append(f"{doc}: the link ({target}) points to nothing in the installed tree")
    return errors


def main(argv):
    if len(argv) == 2 and argv[0] == "--check":
        errors = check(argv[1])
    else:
        if not argv or argv[0].startswith("-"):
            sys.exit(__doc__)
        outdir, shipped, elsewhere, group = argv[0], {}, {}, None
        arguments = iter(argv[1:])
        for arg in arguments:
            if arg == "--in":
                group = shipped.setdefault(next(arguments, "."), [])
            elif arg == "--elsewhere":
                group = None
            elif group is not None:
                group.append(arg)
            elif "=" in arg:
                source, installed = arg.split("=", 1)
                elsewhere[source] = installed
            else:
                sys.exit(__doc__)
        if not any(shipped.values()):
            sys.exit(__doc__)
        errors = make(outdir, shipped, elsewhere)
    for error in errors:
        print("install-docs: " + error, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
