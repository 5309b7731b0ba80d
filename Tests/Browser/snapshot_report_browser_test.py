#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A real browser on `hudhost snapshot verify --report` and `hudhost gallery`
(Docs/PLUGIN_GUIDE.md).

Builds ExampleRing as shipped and with its corner slots moved (RING_RADIUS
110 -> 122), records snapshots of the first and verifies the second with
--report, then opens the review page in Debian's chromium, headless, over
Playwright (no browser is downloaded) and checks that every picture loads,
that the filters hide and show rows, and that the outline of the moved
bottomRight slot sits on the new picture where the new layout JSON puts
the slot's frame. Then the gallery of the moved ring: every picture loads
and the state filter shows one per device.

    python3 Tests/Browser/snapshot_report_browser_test.py HUDHOST

Exit 0 when every check passed, 1 with the reason otherwise. ~5 s.
"""
import json
import os
import subprocess
import sys
import tempfile

from playwright.sync_api import sync_playwright

CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = ["--filter", "_portrait_ltr_L_dark_"]


def fail(message):
    print(f"snapshot report browser test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(command, expected):
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != expected:
        fail(f"{' '.join(command)} exited {result.returncode}, not {expected}:\n{result.stdout}\n{result.stderr}")
    return result


def build_rings(work):
    source = open(os.path.join(ROOT, "Plugins/ExampleRing/ring.c"), encoding="utf-8").read()
    moved = source.replace("#define RING_RADIUS 110.0", "#define RING_RADIUS 122.0")
    if moved == source:
        fail("ring.c no longer defines RING_RADIUS 110.0")
    paths = []
    for name, text in (("original", source), ("moved", moved)):
        os.makedirs(os.path.join(work, name))
        with open(os.path.join(work, name, "ring.c"), "w", encoding="utf-8") as file:
            file.write(text)
        output = os.path.join(work, name, "libring.so")
        run(["cc", "-std=c11", "-O2", "-shared", "-fPIC", "-I", os.path.join(ROOT, "Sources/HudRendererAPI/include/hud"),
             "-o", output, os.path.join(work, name, "ring.c")], 0)
        paths.append(output)
    return paths


def main():
    if len(sys.argv) != 2:
        fail("usage: snapshot_report_browser_test.py HUDHOST")
    hudhost = sys.argv[1]
    chromium = next((path for path in CHROMIUM_CANDIDATES if os.access(path, os.X_OK)), None)
    if chromium is None:
        fail("no chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="hud-snapshot-report-") as work:
        original, moved = build_rings(work)
        baselines, review = os.path.join(work, "snapshots"), os.path.join(work, "review")
        run([hudhost, "snapshot", "record", original, "--dir", baselines] + CASES, 0)
        run([hudhost, "snapshot", "verify", moved, "--dir", baselines, "--report", review] + CASES, 1)
        case = "iphone-16_portrait_ltr_L_dark_resting"
        new_layout = json.load(open(os.path.join(baselines, "org.hudson.example.ring", case + ".new.json"), encoding="utf-8"))
        slot = next(node for node in new_layout["layout"]["nodes"]
                    if node["kind"] == "slot" and node["position"] == "bottomRight")
        with sync_playwright() as playwright:
            # --no-sandbox: CI runs as root, where chromium's own sandbox cannot start.
            browser = playwright.chromium.launch(executable_path=chromium, headless=True,
                                                 args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto("file://" + os.path.join(review, "index.html"))
            images = page.eval_on_selector_all("img", "images => images.map(i => [i.complete, i.naturalWidth, i.naturalHeight])")
            if not images or any(not complete or width == 0 for complete, width, _ in images):
                fail(f"pictures that did not load: {images}")
            rows = page.eval_on_selector_all(".row", "rows => rows.length")
            # 3 devices x 4 states, less the collapsed deck (the corners hidden: unchanged).
            if rows != 9:
                fail(f"{rows} rows, expected 9 changed cases")
            page.select_option("#device", "iphone-se")
            visible = page.eval_on_selector_all(".row", "rows => rows.filter(r => r.style.display !== 'none').map(r => r.dataset.device)")
            if len(visible) != 3 or set(visible) != {"iphone-se"}:
                fail(f"the device filter shows {visible}")
            if "3 shown" not in page.inner_text("#shown"):
                fail(f"the count says {page.inner_text('#shown')!r}")
            page.select_option("#device", "")
            kinds = page.eval_on_selector_all("#kind option", "options => options.map(o => o.value)")
            if kinds != ["", "both"]:
                fail(f"the kinds offered are {kinds}: every row moved nodes and pixels")
            page.select_option("#kind", "both")
            if page.eval_on_selector_all(".row", "rows => rows.filter(r => r.style.display !== 'none').length") != 9:
                fail("the kind filter hides rows of its kind")
            page.select_option("#kind", "")
            # The outline of the moved slot on the new picture: where the JSON says, scaled as shown.
            row = page.locator(f"[id='org.hudson.example.ring/{case}']")
            picture = row.locator("img.new").bounding_box()
            outline = row.locator(".frame:has(img.new) rect[data-node='slot bottomRight']").bounding_box()
            natural = row.locator("img.new").evaluate("i => [i.naturalWidth, i.naturalHeight]")
            scale = picture["width"] / natural[0]
            frame = slot["frame"]
            # Centres: the stroke (centred on the rectangle's edge) widens the box evenly.
            expected = (picture["x"] + (frame["x"] + frame["width"] / 2) * scale, picture["y"] + (frame["y"] + frame["height"] / 2) * scale)
            centre = (outline["x"] + outline["width"] / 2, outline["y"] + outline["height"] / 2)
            if abs(centre[0] - expected[0]) > 1 or abs(centre[1] - expected[1]) > 1 \
                    or abs(outline["width"] - (frame["width"] + 3) * scale) > 1:
                fail(f"the outline {outline} is not at the slot's frame {frame} (picture {picture}, scale {scale:.3f})")
            gallery = os.path.join(work, "gallery")
            run([hudhost, "gallery", moved, "--out", gallery] + CASES, 0)
            page.goto("file://" + os.path.join(gallery, "index.html"))
            page.wait_for_function("() => [...document.images].every(i => i.complete)")
            images = page.eval_on_selector_all("img", "images => images.map(i => i.naturalWidth)")
            if len(images) != 12 or 0 in images:
                fail(f"the gallery's pictures: {images} (expected 12 loaded: 3 devices x 4 states)")
            page.select_option("#state", "revealed")
            shown = page.eval_on_selector_all(".row", "rows => rows.filter(r => r.style.display !== 'none').map(r => r.dataset.device)")
            if sorted(shown) != ["iphone-16", "iphone-16-pro-max", "iphone-se"]:
                fail(f"the state filter shows {shown}")
            browser.close()
    print("snapshot report browser test: ok (pictures load, filters work, the moved slot is outlined at its frame; the gallery)")


if __name__ == "__main__":
    main()
