#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the checked-in seed corpora under Fuzz/corpus/ (run once by hand
after a format change; Fuzz/run.sh only reads them).

    swift build && python3 Fuzz/make-seeds.py

- scene/  : Docs/examples/*.json plus small hand-made scenes (both forms,
            and a few near-misses so the fuzzer starts next to each error).
- events/ : scripts from Docs/EVENTS.md and the tests.
- elf/    : minimal ELF64 shared objects built here byte by byte (a
            .hud_renderers section with one or two records, a build-id note,
            no section at all, 32-bit, big-endian, another machine, ET_EXEC)
            and bare metadata records (the parser is fed the input as-is too).
- cache/  : registry cache files in the writer's exact form (the fast
            reader's input; FuzzHarness.cache compares it with the general
            parser), keyed on FuzzHarness.cacheKey.
- layout/ : the real layouts of the built-in renderers (from
            `hudhost render --json`), encoded in the input format described
            at FuzzHarness.layout (Tests/hudhostTests/FuzzHarness.swift).
Every file is small (the largest is a few KB).
"""
import json
import os
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


# --- scene -----------------------------------------------------------------

def scenes():
    examples = os.path.join(ROOT, "Docs", "examples")
    for name in sorted(os.listdir(examples)):
        if name.endswith(".json"):
            with open(os.path.join(examples, name), "rb") as f:
                write("scene", "example-" + name, f.read())
    write("scene", "minimal.json", '{"schemaVersion": 1}')
    write("scene", "one-slot.json",
          '{"schemaVersion":1,"title":"Inbox","style":"minimal","complications":'
          '{"center":{"icon":"square.and.pencil","role":"accent","label":"Compose","action":"push:Compose"}}}')
    write("scene", "secondary.json",
          '{"schemaVersion":1,"complications":{"topRight":{"icon":"ellipsis.circle","secondary":'
          '{"icon":"bell.badge","label":"3 new","action":"log:bell"}},"bottomLeft":{"icon":"gearshape",'
          '"secondary":{"icon":"exclamationmark.circle"}}}}')
    write("scene", "pages.json",
          '{"schemaVersion":1,"pages":[{"title":"Home","complications":{"center":{"icon":"a",'
          '"longPressModes":[{"id":"tray","icon":"t","label":"Tray","action":"style:tray"},'
          '{"id":"minimal","icon":"m","label":"","action":"style:minimal"}]}},"children":[{"title":"Feed"}]},'
          '{"title":"Settings","complications":null}],"stack":["Home","Settings"]}')
    write("scene", "escapes.json",
          '{"schemaVersion":1,"title":"\\u00e9\\ud83d\\ude00\\n\\t\\"\\\\\\/","complications":{}}')
    write("scene", "numbers.json", '[0, -0, 1.5e3, -2E-7, 123456789012345678, 0.1, 1e308]')
    write("scene", "bad-role.json", '{"schemaVersion": 1, "complications": {"center": {"icon": "a", "role": "loud"}}}')
    write("scene", "bad-version.json", '{"schemaVersion": 2}')


# --- events ----------------------------------------------------------------

def events():
    for index, script in enumerate([
        "longpress center; tap mode:scattered",
        "press center; wait 0.5; release",
        "press 201,794 @0; move 215,794 @0.1; release @0.2",
        "longpress center; tap mode:minimal; longpress center; tap mode:tray",
        "tap topLeft\ntap slot:bottomRight\ntap secondary:topRight",
        "tap tl; tap top-right; longpress CENTER @2.5; release",
        "wait 3600; tap 0,0; move -1e6,1e6; release 10,10",
    ]):
        write("events", "script-%d.txt" % index, script)


# --- elf -------------------------------------------------------------------

EM_X86_64, EM_AARCH64 = 62, 183


def metadata_record(renderer_id, name="Fuzz seed", version="1.0.0", vendor="Hudson fuzz",
                    abi=0x10000, positions=0x1F, capabilities=0):
    def field(text, size):
        raw = text.encode()
        return raw + b"\0" * (size - len(raw))
    record = b"HUDMETA1" + struct.pack("<IIII", 408, abi, positions, capabilities)
    record += field(renderer_id, 72) + field(name, 136) + field(version, 40) + field(vendor, 136)
    assert len(record) == 408
    return record


def build_id_note(payload=bytes(range(20))):
    return struct.pack("<III", 4, len(payload), 3) + b"GNU\0" + payload


def elf(sections, machine=EM_X86_64, elf_class=2, data=1, elf_type=3):
    """A little ELF64 file: header, the section contents, .shstrtab, then the
    section header table. `sections` is a list of (name, type, bytes)."""
    names = b"\0"
    offsets = []
    body = b""
    contents = []
    for name, kind, payload in sections + [(".shstrtab", 3, None)]:
        name_offset = len(names)
        names += name.encode() + b"\0"
        contents.append((name_offset, kind, payload))
    position = 64
    layout = []
    for name_offset, kind, payload in contents:
        payload = names if payload is None else payload
        while (position + len(body)) % 8:
            body += b"\0"
        layout.append((name_offset, kind, position + len(body), len(payload)))
        body += payload
    while (64 + len(body)) % 8:
        body += b"\0"
    shoff = 64 + len(body)
    count = len(layout) + 1  # plus the null section
    header = b"\x7fELF" + bytes([elf_class, data, 1, 0]) + b"\0" * 8
    header += struct.pack("<HHIQQQIHHHHHH", elf_type, machine, 1, 0, 0, shoff, 0, 64, 0, 0, 64, count, count - 1)
    assert len(header) == 64
    table = b"\0" * 64
    for name_offset, kind, offset, size in layout:
        table += struct.pack("<IIQQQQIIQQ", name_offset, kind, 0, 0, offset, size, 0, 0, 1, 0)
    return header + body + table


def elves():
    one = metadata_record("org.fuzz.one")
    two = metadata_record("org.fuzz.two", capabilities=1)
    write("elf", "meta-one.so", elf([(".hud_renderers", 1, one), (".note.gnu.build-id", 7, build_id_note())]))
    write("elf", "meta-two-padded.so", elf([(".hud_renderers", 1, b"\0" * 8 + one + b"\0" * 8 + two)]))
    write("elf", "no-metadata.so", elf([(".text", 1, b"\xc3" * 16), (".bss", 8, b"")]))
    write("elf", "no-sections.so", elf([])[:64])
    write("elf", "aarch64.so", elf([(".hud_renderers", 1, one)], machine=EM_AARCH64))
    write("elf", "elf32.so", elf([(".hud_renderers", 1, one)], elf_class=1))
    write("elf", "big-endian.so", elf([(".hud_renderers", 1, one)], data=2))
    write("elf", "executable.so", elf([(".hud_renderers", 1, one)], elf_type=2))
    write("elf", "bad-record.so", elf([(".hud_renderers", 1, one[:200])]))
    write("elf", "record.bin", one + two)
    write("elf", "text.so", "not a plugin\n")


# --- layout ----------------------------------------------------------------

KINDS = {"container": 0, "slot": 1, "secondary": 2, "modeItem": 3}
POSITIONS = {"topLeft": 0, "topRight": 1, "bottomLeft": 2, "bottomRight": 3, "center": 4}
PARTS = {"slot": 0, "secondary": 1, "mode": 2, "container": 3}
SHAPES = {"rectangle": 0, "roundedRectangle": 1, "circle": 2, "capsule": 3}
MATERIALS = {"none": 0, "solid": 1, "glass": 2, "regular": 3}
PLACEMENTS = {"overlay": 0, "navigationBar": 1, "bottomInset": 2}
DEVICES = ["iphone-se", "iphone-13-mini", "iphone-16", "iphone-16-plus", "iphone-16-pro",
           "iphone-16-pro-max", "iphone-17-pro", "iphone-air"]


def color(text):
    value = int(text.lstrip("#"), 16)
    return (value << 8) | 0xFF if len(text.lstrip("#")) == 6 else value


def encode_layout(document, device, flags):
    layout = document["layout"]
    pool = b""

    def string(text):
        nonlocal pool
        if text is None:
            return 0
        selector = len(pool) + 1
        pool += text.encode() + b"\0"
        return selector

    nodes = b""
    for n in layout["nodes"]:
        record = struct.pack("<iiii", KINDS[n["kind"]], POSITIONS.get(n["position"], -1), PARTS.get(n["part"], -1),
                             -1 if n["modeIndex"] is None else n["modeIndex"])
        for rect in (n["frame"], n["hit"]):
            record += struct.pack("<dddd", rect["x"], rect["y"], rect["width"], rect["height"])
        record += struct.pack("<ii", SHAPES[n["shape"]], MATERIALS[n["material"]])
        record += struct.pack("<ddd", n["cornerRadius"], n["strokeWidth"], n["fontSize"])
        record += struct.pack("<IIII", *(color(n[key]) for key in ("fill", "stroke", "iconColor", "textColor")))
        flag_bits = (1 if n["pressed"] else 0) | (2 if n["interactive"] else 0)
        record += struct.pack("<iiII", PLACEMENTS[n["placement"]], int(n["z"]), flag_bits, 0)
        record += struct.pack("<QQQ", string(n["icon"]), string(n["label"]), string(n["accessibilityLabel"]))
        assert len(record) == 168
        nodes += record
    hidden = sum(1 << POSITIONS[p] for p in layout["hiddenPositions"])
    insets = layout["contentInsets"]
    header = struct.pack("<II", len(layout["nodes"]), hidden)
    header += struct.pack("<dddd", insets["top"], insets["left"], insets["bottom"], insets["right"])
    header += bytes([DEVICES.index(device), flags]) + b"\0" * 6
    assert len(header) == 48
    return header + nodes + pool


def cache_record(index, status="ok", renderers=1, reason=None, description=None):
    record = {
        "path": "/fuzz/plugins/gen-%05d.so" % index, "device": "65024", "inode": str(16229223 + index),
        "size": "15624", "mtimeNs": "1796172590766351398", "ctimeNs": "1796172590766351398", "buildId": "bb642df4c33f760803d70671726dfaa4aa6a463e",
        "status": status, "source": "elf-section" if status == "ok" else None,
        "failureCode": None if status == "ok" else "crashed", "failureReason": reason,
        "time": "1796182549", "validation": None, "trialLoaded": index % 2 == 1, "hostFailures": index % 3,
        "renderers": [],
    }
    for n in range(renderers):
        renderer = {"id": "org.fuzz.r%05d-%d" % (index, n), "name": "Fuzz \"%d\"" % index, "version": "1.0.%d" % n,
                    "vendor": "hudson fuzz", "abi": 65537, "positions": 31 - n, "capabilities": n % 2}
        if description is not None:
            renderer["description"] = description
        record["renderers"].append(renderer)
    return record


def caches():
    key = "abi 1.1\n/fuzz/plugins"
    def document(files):
        text = json.dumps({"cacheFormat": 1, "key": key, "files": files}, separators=(",", ":"), ensure_ascii=False)
        return text + "\n"
    write("cache", "empty.json", document([]))
    write("cache", "two.json", document([cache_record(0), cache_record(1, renderers=2, description="ring é über \"q\" \\ back")]))
    write("cache", "failed.json", document([cache_record(2, status="failed", renderers=0, reason="segfault \\ at \"init\"\n")]))
    write("cache", "other-key.json", document([cache_record(3)]).replace("/fuzz/plugins\"", "/elsewhere\"", 1))


def layouts():
    hudhost = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip() + "/hudhost"
    cases = [
        ("tray", "iphone-16-pro", [], 0),
        ("tray", "iphone-se", ["--reveal", "center"], 0),
        ("scattered", "iphone-16", ["--rtl"], 1),
        ("minimal", "iphone-air", ["--reveal", "center", "--landscape"], 2),
    ]
    for style, device, extra, flags in cases:
        output = subprocess.run([hudhost, "render", "--json", "--builtin-only", "--style", style, "--device", device] + extra,
                                capture_output=True, text=True, check=True).stdout
        name = "-".join([style, device] + [e.lstrip("-") for e in extra]) + ".bin"
        write("layout", name, encode_layout(json.loads(output), device, flags))
    write("layout", "empty.bin", struct.pack("<II", 0, 0) + b"\0" * 40)


if __name__ == "__main__":
    scenes()
    events()
    elves()
    caches()
    if "--no-layout" not in sys.argv:
        layouts()
    for target in sorted(os.listdir(CORPUS)):
        files = os.listdir(os.path.join(CORPUS, target))
        size = sum(os.path.getsize(os.path.join(CORPUS, target, f)) for f in files)
        print("%-7s %2d files, %6d bytes" % (target, len(files), size))
