// SPDX-License-Identifier: MIT

/// The preview page, its script and its style, embedded in hudhost: the page
/// loads nothing from anywhere but this server (Docs/PREVIEW.md).
enum PreviewAssets {
    /// The page; `token` goes into the script and style URLs (every request
    /// needs it). The token is 32 hex digits, so it needs no escaping.
    static func page(token: String) -> String {
        #"""
        <!-- SPDX-License-Identifier: MIT -->
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Hudson HUD preview</title>
        <link rel="stylesheet" href="/preview.css?token=\#(token)">
        <script src="/preview.js?token=\#(token)" defer></script>
        </head>
        <body>
        <main>
          <section id="stage" aria-label="The HUD">
            <div id="problem" role="alert" hidden></div>
            <img id="frame" alt="The current frame" draggable="false">
            <p id="hint">Click or touch to tap; hold 0.45 s to long-press; drag more than 10 pt to cancel. Escape: the control deck.</p>
          </section>
          <aside id="controls">
            <h1>Hudson HUD preview</h1>
            <fieldset id="look"><legend>Style and screen</legend>
              <label>Style <select id="style" data-setting="style"></select></label>
              <label>Device <select id="device" data-setting="device"></select></label>
              <label>Orientation <select id="orientation" data-setting="orientation"></select></label>
              <label>Direction <select id="direction" data-setting="direction"></select></label>
              <label>Text size <select id="textSize" data-setting="textSize"></select></label>
              <label>Appearance <select id="appearance" data-setting="appearance"></select></label>
              <label>Scheme <select id="scheme" data-setting="scheme"></select></label>
            </fieldset>
            <fieldset id="deck"><legend>Control deck</legend>
              <label>Presentation <select id="presentation" data-setting="presentation"></select></label>
              <p>State: <output id="deck-state">–</output></p>
              <button type="button" id="deck-pivot">Show controls (tap pivot)</button>
              <button type="button" id="deck-escape">Escape (key escape)</button>
            </fieldset>
            <fieldset id="pages"><legend>Page stack</legend>
              <ol id="stack"></ol>
              <button type="button" id="pop">Pop</button>
              <select id="push-title" aria-label="Page to push"></select>
              <button type="button" id="push">Push</button>
            </fieldset>
            <fieldset id="fired"><legend>Actions fired</legend>
              <ol id="actions" reversed></ol>
            </fieldset>
            <p id="error" role="status"></p>
            <p id="status"><span id="version">v0</span> · <span id="reveal">no modes revealed</span> · <span id="connection">connecting…</span></p>
          </aside>
        </main>
        </body>
        </html>

        """#
    }

    static let script = #"""
        // SPDX-License-Identifier: MIT
        // The preview page: shows /api/frame.svg, turns pointer input into
        // --events steps (press/move/release with the time each happened, and
        // `wait 0` when a press is held past the long-press threshold), sends
        // the controls to /api/settings, and follows /api/stream.
        'use strict';
        (() => {
          const token = new URLSearchParams(location.search).get('token') || '';
          const url = (path) => path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
          const $ = (id) => document.getElementById(id);
          const frame = $('frame');
          let state = null;
          let shownVersion = -1;
          let chain = Promise.resolve();
          let lastTime = 0;      // the latest event time sent, on the shell's clock
          let active = null;     // the press in progress

          function showError(text) { $('error').textContent = text || ''; }

          function fill(select, values, labels) {
            const wanted = values.join('\n');
            if (select.dataset.values === wanted) return;
            select.dataset.values = wanted;
            select.replaceChildren(...values.map((value, index) => {
              const option = document.createElement('option');
              option.value = value;
              option.textContent = labels ? labels[index] : value;
              return option;
            }));
          }

          function list(element, items) {
            element.replaceChildren(...items.map((item) => {
              const li = document.createElement('li');
              li.textContent = item;
              return li;
            }));
          }

          function apply(next) {
            if (!next || typeof next.version !== 'number') return;
            if (state && next.version < state.version) return;
            state = next;
            lastTime = Math.max(lastTime, state.clock);
            if (state.version !== shownVersion) {
              shownVersion = state.version;
              frame.src = url('/api/frame.svg') + '&v=' + state.version;
              frame.dataset.version = String(state.version);
            }
            document.body.dataset.version = String(state.version);
            document.body.dataset.style = state.style.id;
            fill($('style'), state.renderers.map((r) => r.id), state.renderers.map((r) => r.name + ' (' + r.id + ')'));
            $('style').value = state.style.id;
            for (const key of ['device', 'orientation', 'direction', 'textSize', 'appearance', 'scheme']) {
              fill($(key), state.choices[key]);
              $(key).value = state.settings[key];
            }
            fill($('presentation'), state.choices.presentation);
            $('presentation').value = state.deck.presentation;
            $('deck-state').textContent = state.deck.state ? state.deck.state.presentation : 'off (every slot shown)';
            $('deck-pivot').disabled = !(state.deck.state && state.deck.state.presentation === 'deckResting');
            list($('stack'), state.stack);
            fill($('push-title'), state.pages);
            $('push').disabled = state.pages.length === 0;
            $('pop').disabled = state.stack.length < 2;
            list($('actions'), state.actions.slice().reverse());
            $('version').textContent = 'v' + state.version;
            $('reveal').textContent = state.revealedPosition ? state.revealedPosition + ' modes: ' + state.modes.join(', ') : 'no modes revealed';
            const problem = $('problem');
            problem.hidden = !state.problem;
            problem.textContent = state.problem ? 'Showing the last good frame. ' + state.problem : '';
            fit();
          }

          // The frame as large as the window allows, whole: scaled to the
          // stage's width and the window's height, aspect kept (a landscape
          // phone must not push the controls off the window).
          function fit() {
            if (!state || !state.frameSize) return;
            const stage = $('stage'), problem = $('problem');
            const width = stage.clientWidth;
            const height = window.innerHeight - 32 - $('hint').offsetHeight - (problem.hidden ? 0 : problem.offsetHeight) - 24;
            const scale = Math.max(0.05, Math.min(width / state.frameSize.width, height / state.frameSize.height));
            frame.style.width = Math.floor(state.frameSize.width * scale) + 'px';
            frame.style.height = Math.floor(state.frameSize.height * scale) + 'px';
          }
          window.addEventListener('resize', fit);

          async function request(path, options) {
            const response = await fetch(url(path), options);
            let body = null;
            try { body = await response.json(); } catch (e) { body = null; }
            if (!response.ok) showError((body && body.error && body.error.message) || (response.status + ' ' + response.statusText));
            else showError('');
            apply(body);
            return body;
          }

          // Requests go out one at a time, in order, like the steps of a script.
          function enqueue(path, options) {
            chain = chain.then(() => request(path, options)).catch((e) => showError(String(e)));
            return chain;
          }
          function sendEvents(script) { return enqueue('/api/events', { method: 'POST', body: script, headers: { 'Content-Type': 'text/plain' } }); }
          function sendSettings(change) { return enqueue('/api/settings', { method: 'POST', body: JSON.stringify(change), headers: { 'Content-Type': 'application/json' } }); }

          // Client coordinates → points on the screen of the frame.
          function point(event) {
            const box = frame.getBoundingClientRect();
            const x = (event.clientX - box.left) * state.frameSize.width / box.width;
            const y = (event.clientY - box.top) * state.frameSize.height / box.height;
            const cx = Math.min(Math.max(x, 0), state.screen.width);
            const cy = Math.min(Math.max(y, 0), state.screen.height);
            return { x: cx, y: cy, text: cx.toFixed(1) + ',' + cy.toFixed(1) };
          }
          function clock(timeStamp) {
            const t = active.base + (timeStamp - active.start) / 1000;
            lastTime = Math.max(lastTime, t);
            return '@' + t.toFixed(3);
          }

          frame.addEventListener('pointerdown', (event) => {
            if (!state || active || event.button > 0) return;
            event.preventDefault();
            frame.setPointerCapture(event.pointerId);
            active = { id: event.pointerId, base: lastTime + 0.1, start: event.timeStamp, last: point(event) };
            sendEvents('press ' + active.last.text + ' ' + clock(event.timeStamp));
            const press = active;
            // Held past the threshold: let the shell's clock run, as `wait` does.
            press.timer = setTimeout(() => {
              if (active === press) sendEvents('wait 0 ' + clock(performance.now()));
            }, (state.longPressThreshold + 0.02) * 1000);
          });
          frame.addEventListener('pointermove', (event) => {
            if (!active || event.pointerId !== active.id) return;
            const p = point(event);
            if (Math.abs(p.x - active.last.x) < 1 && Math.abs(p.y - active.last.y) < 1) return;
            active.last = p;
            sendEvents('move ' + p.text + ' ' + clock(event.timeStamp));
          });
          function finish(event) {
            if (!active || event.pointerId !== active.id) return;
            clearTimeout(active.timer);
            const p = event.type === 'pointercancel' ? active.last : point(event);
            sendEvents('release ' + p.text + ' ' + clock(event.timeStamp));
            active = null;
          }
          frame.addEventListener('pointerup', finish);
          frame.addEventListener('pointercancel', finish);
          frame.addEventListener('contextmenu', (event) => event.preventDefault());

          document.addEventListener('keydown', (event) => {
            if (event.key === 'Escape') { event.preventDefault(); sendEvents('key escape'); }
          });
          $('deck-escape').addEventListener('click', () => sendEvents('key escape'));
          $('deck-pivot').addEventListener('click', () => sendEvents('tap pivot'));
          for (const select of document.querySelectorAll('select[data-setting]')) {
            select.addEventListener('change', () => sendSettings({ [select.dataset.setting]: select.value }));
          }
          $('pop').addEventListener('click', () => sendSettings({ pop: true }));
          $('push').addEventListener('click', () => sendSettings({ push: $('push-title').value }));

          // New versions: one event stream for every tab of this run, held by
          // a shared worker (a stream per tab would take one of the browser's
          // six connections to this server each, and the seventh tab would
          // wait for ever); a tab of its own where there are no shared workers.
          function follow(message) {
            if (message.kind === 'open') $('connection').textContent = 'live';
            else if (message.kind === 'error') $('connection').textContent = 'reconnecting…';
            else if (message.kind === 'frame' && (!state || message.version !== state.version)) enqueue('/api/state');
          }
          if (typeof SharedWorker === 'function') {
            const worker = new SharedWorker(url('/preview-worker.js'), { name: 'hud-preview' });
            worker.port.onmessage = (event) => follow(event.data);
            worker.port.start();
            addEventListener('pagehide', () => worker.port.postMessage('leaving'));
          } else {
            const stream = new EventSource(url('/api/stream'));
            stream.addEventListener('open', () => follow({ kind: 'open' }));
            stream.addEventListener('error', () => follow({ kind: 'error' }));
            stream.addEventListener('frame', (event) => follow({ kind: 'frame', version: JSON.parse(event.data).version }));
          }

          // For scripts driving the page (Tests/Browser): the state, and where
          // a point of the screen is in the window.
          window.hudPreview = {
            state: () => state,
            clientPoint: (x, y) => {
              const box = frame.getBoundingClientRect();
              return { x: box.left + x * box.width / state.frameSize.width, y: box.top + y * box.height / state.frameSize.height };
            },
          };
          enqueue('/api/state');
        })();

        """#

    /// The shared worker behind every tab of one run (same URL, token
    /// included): holds the one `/api/stream` and passes its news on to each
    /// tab's port; the stream closes when the last tab has left.
    static let worker = #"""
        // SPDX-License-Identifier: MIT
        'use strict';
        const ports = new Set();
        let stream = null;
        let last = null;   // the newest message, for tabs that join later
        function tell(message) {
          if (message.kind !== 'open') last = message;
          for (const port of ports) port.postMessage(message);
        }
        function open() {
          stream = new EventSource('/api/stream' + location.search);
          stream.addEventListener('open', () => tell({ kind: 'open' }));
          stream.addEventListener('error', () => tell({ kind: 'error' }));
          stream.addEventListener('frame', (event) => tell({ kind: 'frame', version: JSON.parse(event.data).version }));
        }
        onconnect = (event) => {
          const port = event.ports[0];
          ports.add(port);
          port.onmessage = (message) => {
            if (message.data !== 'leaving') return;
            ports.delete(port);
            if (ports.size === 0 && stream) { stream.close(); stream = null; last = null; }
          };
          port.start();
          if (!stream) open();
          else {
            if (stream.readyState === EventSource.OPEN) port.postMessage({ kind: 'open' });
            if (last) port.postMessage(last);
          }
        };

        """#

    static let style = #"""
        /* SPDX-License-Identifier: MIT */
        :root { color-scheme: dark; font: 14px/1.4 system-ui, sans-serif; background: #0b0b0c; color: #e5e5e5; }
        body { margin: 0; }
        main { display: flex; gap: 24px; padding: 16px; align-items: flex-start; box-sizing: border-box; height: 100vh; }
        #stage { flex: 1 1 auto; min-width: 0; display: flex; flex-direction: column; align-items: center; }
        /* Sized by the script (fit): the whole frame in the window. */
        #frame { display: block; touch-action: none; user-select: none; -webkit-user-select: none; cursor: pointer; }
        #hint { color: #8a8a8a; font-size: 12px; max-width: 420px; margin: 8px 0 0; }
        #problem { background: #4a1212; border: 1px solid #b33; color: #fdd; padding: 8px 10px; margin-bottom: 8px; max-width: 420px; white-space: pre-wrap; }
        #controls { flex: 0 0 320px; max-height: 100%; overflow: auto; box-sizing: border-box; }
        @media (max-width: 720px) {
          main { flex-wrap: wrap; height: auto; }
          #controls { flex: 1 1 100%; max-height: none; }
        }
        h1 { font-size: 16px; margin: 0 0 12px; }
        fieldset { border: 1px solid #333; margin: 0 0 12px; padding: 8px 12px; min-width: 0; }
        legend { color: #aaa; }
        label { display: flex; justify-content: space-between; gap: 8px; margin: 4px 0; }
        select, button { background: #1c1c1f; color: #eee; border: 1px solid #444; border-radius: 4px; padding: 3px 6px; font: inherit; }
        label select { min-width: 0; max-width: 65%; }
        ol { margin: 4px 0; padding-left: 22px; max-height: 160px; overflow: auto; }
        #error { color: #f88; min-height: 1.4em; white-space: pre-wrap; }
        #status { color: #888; font-size: 12px; }

        """#
}
