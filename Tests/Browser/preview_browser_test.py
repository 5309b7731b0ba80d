#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A real browser against a real `hudhost preview` (Docs/PREVIEW.md).

Starts `hudhost preview` on a free loopback port, drives Debian's chromium
headless over the DevTools protocol (Playwright, launched with the system
browser: no browser is downloaded), loads the page, long-presses the center
slot with the mouse held 0.6 s, picks "Scattered" in the mode picker, and
checks that the style, the fired actions, the state's version and the frame
changed. Then seven tabs of one profile (past Chromium's six connections to
a server) each go live and follow a change made from outside. A screenshot is taken and checked not to be blank (decoded by the
browser itself: it must hold many distinct colours).

    python3 Tests/Browser/preview_browser_test.py HUDHOST [--screenshot FILE]

Exit 0 when every check passed, 1 with the reason otherwise. ~5 s.
"""
import argparse
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from playwright.sync_api import sync_playwright

CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]


def fail(message):
    print(f"preview browser test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


def start_preview(hudhost, home):
    env = dict(os.environ, HOME=home, HUD_RENDERER_PATH="", NO_COLOR="1", XDG_CACHE_HOME=os.path.join(home, "cache"))
    process = subprocess.Popen([hudhost, "preview", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env, text=True)
    url = process.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:") or "?token=" not in url:
        process.kill()
        fail(f"the first line of hudhost preview is not its URL: {url!r}; stderr: {process.stderr.read()}")
    return process, url


def wait_for(page, expression, what, timeout=5000):
    try:
        page.wait_for_function(expression, timeout=timeout)
    except Exception as error:  # Playwright's TimeoutError
        state = page.evaluate("() => window.hudPreview && window.hudPreview.state()")
        fail(f"{what}: not within {timeout} ms ({error.__class__.__name__}); state: {json.dumps(state)[:2000]}")


def node_center(state, kind, **match):
    for node in state["layout"]["nodes"]:
        if node["kind"] == kind and all(node.get(key) == value for key, value in match.items()):
            area = node["hit"] if node["hit"]["width"] > 0 else node["frame"]
            return area["x"] + area["width"] / 2, area["y"] + area["height"] / 2
    fail(f"no {kind} node with {match} on screen; nodes: {[(n['kind'], n['position'], n['label']) for n in state['layout']['nodes']]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("hudhost")
    parser.add_argument("--screenshot", help="also keep the screenshot here (Docs/preview.png)")
    options = parser.parse_args()
    chromium = next((path for path in CHROMIUM_CANDIDATES if os.access(path, os.X_OK)), None)
    if chromium is None:
        fail("no chromium (apt-get install chromium)")

    home = tempfile.mkdtemp(prefix="hud-browser-")
    process, url = start_preview(options.hudhost, home)
    base = url.split("/?token=")[0]
    token = url.split("?token=")[1]
    try:
        first_frame = fetch(f"{base}/api/frame.svg?token={token}")
        with sync_playwright() as playwright:
            # --no-sandbox: CI runs as root, where chromium's own sandbox cannot start.
            browser = playwright.chromium.launch(executable_path=chromium, headless=True,
                                                 args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            page = browser.new_page(viewport={"width": 1000, "height": 960})
            console = []
            page.on("console", lambda message: console.append(message.text))
            page.on("pageerror", lambda error: console.append(str(error)))
            page.goto(url)
            wait_for(page, "() => window.hudPreview && window.hudPreview.state() && document.getElementById('frame').complete"
                           " && document.getElementById('frame').naturalWidth > 0", "the page shows a frame")
            start = page.evaluate("() => window.hudPreview.state()")
            if start["style"]["id"] != "com.hudson.tray":
                fail(f"the preview starts with {start['style']['id']}, not the tray")

            # Long-press the center slot: the mouse held 0.6 s.
            x, y = node_center(start, "slot", position="center")
            point = page.evaluate(f"() => window.hudPreview.clientPoint({x}, {y})")
            page.mouse.move(point["x"], point["y"])
            page.mouse.down()
            page.wait_for_timeout(600)
            page.mouse.up()
            wait_for(page, "() => window.hudPreview.state().revealedPosition === 'center'", "the long press reveals the center's modes")
            revealed = page.evaluate("() => window.hudPreview.state()")

            # Pick "Scattered".
            x, y = node_center(revealed, "modeItem", label="Scattered")
            point = page.evaluate(f"() => window.hudPreview.clientPoint({x}, {y})")
            page.mouse.click(point["x"], point["y"], delay=50)
            wait_for(page, "() => window.hudPreview.state().style.id === 'com.hudson.scattered'", "picking Scattered switches the style")
            wait_for(page, "() => document.getElementById('frame').dataset.version === String(window.hudPreview.state().version)"
                           " && document.getElementById('frame').complete", "the page shows the new frame")
            end = page.evaluate("() => window.hudPreview.state()")
            if not end["actions"]:
                fail("no action was listed as fired")
            if end["version"] <= start["version"]:
                fail(f"the version did not grow: {start['version']} → {end['version']}")
            if end["revealedPosition"] is not None:
                fail("the picker is still open after picking a mode")
            listed = page.evaluate("() => [...document.querySelectorAll('#actions li')].map(li => li.textContent)")
            if not listed:
                fail("the page lists no fired action")
            last_frame = fetch(f"{base}/api/frame.svg?token={token}")
            if last_frame == first_frame or 'data-device="iphone-16-pro"' not in last_frame:
                fail("the frame did not change")

            shot = page.screenshot(full_page=True)
            if options.screenshot:
                with open(options.screenshot, "wb") as out:
                    out.write(shot)
            # Decoded by the browser, in a blank page (the preview's own
            # content policy loads no data: images): a blank screenshot has
            # one or two colours.
            scratch = browser.new_page()
            colours = scratch.evaluate("""async (data) => {
                const image = new Image();
                image.src = 'data:image/png;base64,' + data;
                await image.decode();
                const canvas = document.createElement('canvas');
                canvas.width = image.width; canvas.height = image.height;
                const context = canvas.getContext('2d');
                context.drawImage(image, 0, 0);
                const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
                const seen = new Set();
                for (let i = 0; i < pixels.length; i += 4 * 7) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
                return seen.size;
            }""", base64.b64encode(shot).decode("ascii"))
            if colours < 16:
                fail(f"the screenshot looks blank ({colours} distinct colours)")
            # The control deck from the page: the presentation select turns
            # it on (resting), the "Show controls" button taps the pivot
            # (expanded), and the Escape key collapses it again.
            deck = "window.hudPreview.state().deck.state"
            page.select_option("#presentation", "on-demand")
            wait_for(page, f"() => {deck} && {deck}.presentation === 'deckResting'", "the deck is on, resting")
            page.click("#deck-pivot")
            wait_for(page, f"() => {deck} && {deck}.presentation === 'deckExpanded'", "the pivot expands the deck")
            page.keyboard.press("Escape")
            wait_for(page, f"() => {deck} && {deck}.presentation === 'deckResting'", "Escape collapses the deck")

            # The page fits the window at every device and orientation: the
            # whole frame and the controls' first row without scrolling, at
            # 1280×720 and 1440×900 (a landscape frame once grew to ~1,750 px).
            devices = page.evaluate("() => window.hudPreview.state().choices.device")
            for width, height in [(1280, 720), (1440, 900)]:
                sized = browser.new_page(viewport={"width": width, "height": height})
                sized.on("pageerror", lambda error: console.append(str(error)))
                sized.goto(url)
                wait_for(sized, "() => window.hudPreview && window.hudPreview.state()", f"the page at {width}×{height}")
                for device in devices:
                    for orientation in ["portrait", "landscape"]:
                        body = json.dumps({"device": device, "orientation": orientation}).encode()
                        change = urllib.request.Request(f"{base}/api/settings?token={token}", data=body, method="POST")
                        with urllib.request.urlopen(change, timeout=10) as response:
                            version = json.load(response)["version"]
                        wait_for(sized, f"() => window.hudPreview.state().version >= {version}"
                                        " && document.getElementById('frame').dataset.version === String(window.hudPreview.state().version)"
                                        " && document.getElementById('frame').complete", f"{device} {orientation} at {width}×{height}")
                        boxes = sized.evaluate("""() => {
                            const box = (id) => document.getElementById(id).getBoundingClientRect();
                            const f = box('frame'), c = box('controls'), s = box('style');
                            const widest = Math.max(...[...document.querySelectorAll('#controls select')].map((e) => e.getBoundingClientRect().right));
                            return {frame: [f.left, f.top, f.right, f.bottom], controls: [c.left, c.top, c.right], style: s.bottom, widest,
                                    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
                                    window: [innerWidth, innerHeight]};
                        }""")
                        where = f"{device} {orientation} at {width}×{height}: {boxes}"
                        frame_box, (inner_width, inner_height) = boxes["frame"], boxes["window"]
                        if frame_box[0] < 0 or frame_box[1] < 0 or frame_box[2] > inner_width or frame_box[3] > inner_height:
                            fail(f"the frame leaves the window ({where})")
                        if frame_box[2] - frame_box[0] < 200:
                            fail(f"the frame is shrunk to almost nothing ({where})")
                        if boxes["controls"][2] > inner_width or boxes["style"] > inner_height or boxes["widest"] > boxes["controls"][2]:
                            fail(f"the controls are not visible without scrolling ({where})")
                        if boxes["scroll"][0] > inner_width or boxes["scroll"][1] > inner_height:
                            fail(f"the page scrolls ({where})")
                sized.close()
            restore = urllib.request.Request(f"{base}/api/settings?token={token}", data=b'{"device":"iphone-16-pro","orientation":"portrait"}', method="POST")
            urllib.request.urlopen(restore, timeout=10).close()

            # Seven tabs of one browser profile: Chromium allows six
            # connections to one server, so a held event stream per tab
            # would leave the seventh waiting for ever. Every tab shows the
            # frame, is live, and follows a change made from outside.
            context = browser.new_context(viewport={"width": 800, "height": 700})
            tabs = [context.new_page() for _ in range(7)]
            for tab in tabs:
                tab.on("pageerror", lambda error: console.append(str(error)))
                tab.goto(url)
            for number, tab in enumerate(tabs, 1):
                wait_for(tab, "() => window.hudPreview && window.hudPreview.state() && document.getElementById('connection').textContent === 'live'",
                         f"tab {number} of 7 is live")
            change = urllib.request.Request(f"{base}/api/settings?token={token}", data=b'{"style":"minimal"}', method="POST")
            with urllib.request.urlopen(change, timeout=10) as response:
                if response.status != 200:
                    fail(f"POST /api/settings answered {response.status}")
            for number, tab in enumerate(tabs, 1):
                wait_for(tab, "() => window.hudPreview.state().style.id === 'com.hudson.minimal'", f"tab {number} of 7 follows a change")
            context.close()

            errors = [line for line in console if "error" in line.lower() and "400" not in line]
            browser.close()
        print(f"preview browser test: ok (version {start['version']} → {end['version']}, actions {end['actions']}, "
              f"{colours} colours in the screenshot{', console: ' + '; '.join(errors) if errors else ''})")
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
