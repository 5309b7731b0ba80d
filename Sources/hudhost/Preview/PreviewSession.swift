// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudRaster
import HudScenes
import HudHTTPServer
import HudSystem

/// Everything `hudhost preview` shows, owned by the main thread: the shell
/// (its registry, renderer hosts, page stack and interaction state), the
/// last good frame, the actions fired, and the live reload of plugin files
/// and the scene file. Only `run()`'s loop calls into it; HTTP requests
/// arrive through `PreviewMailbox`.
final class PreviewSession {
    let registry: RendererRegistry
    private let scenePath: String?
    private var scene: SceneFile?
    private(set) var settings: PreviewSettings
    private var shell: HudPhoneAppShell
    private let longPress: Double?
    private let mailbox: PreviewMailbox
    private let broadcast: PreviewBroadcast
    private let watcher: PreviewWatcher?
    /// Whether there was anything to watch.
    private let watching: Bool
    /// Grows with every change of the frame, of the problem shown, or reload.
    private(set) var version: UInt64 = 1
    /// The last frame the chosen renderer drew, as SVG, and its layout.
    private var frame = ""
    /// The frame's picture in points (the screen and the caption below it).
    private var frameSize = (width: 1.0, height: 1.0)
    private var frameLayout: HudLayout?
    /// Why the frame shown is not the current one (load failure, crash,
    /// invalid layout, a broken scene file), or nil.
    private var problem: String?
    /// Why the scene file's latest version cannot be used, or nil.
    private var sceneProblem: String?
    private var actions: [String] = []
    private var events: [String] = []
    private var reloads: [JSONValue] = []
    /// Files changed, waiting for the debounce to end (build tools write in steps).
    private var pendingChanges: Set<PreviewWatcher.Target> = []
    private var changesSettleAt: UInt64 = 0
    static let settleNanoseconds: UInt64 = 200_000_000
    static let historyLimit = 200

    init(registry: RendererRegistry, scene: SceneFile?, scenePath: String?, style: HudPhoneComplicationsStyle,
         settings: PreviewSettings, title: String?, longPress: Double?, watch: [String: PreviewWatcher.Target],
         mailbox: PreviewMailbox, broadcast: PreviewBroadcast) {
        self.registry = registry
        self.scene = scene
        self.scenePath = scenePath
        self.settings = settings
        self.longPress = longPress
        self.mailbox = mailbox
        self.broadcast = broadcast
        shell = Self.makeShell(scene: scene, style: style, registry: registry, environment: settings.environment)
        if let title { shell.updateTop { $0.title = title } }
        if let longPress { shell.longPressThreshold = longPress }
        watching = !watch.isEmpty
        watcher = watch.isEmpty ? nil : PreviewWatcher(watch)
        refresh()
    }

    /// What the watcher could not watch (reported once at start).
    var watchProblems: [String] {
        guard let watcher else { return watching ? ["inotify is not available (inotify_init1 failed)"] : [] }
        return watcher.problems
    }

    private static func makeShell(scene: SceneFile?, style: HudPhoneComplicationsStyle, registry: RendererRegistry,
                                  environment: HudEnvironment) -> HudPhoneAppShell {
        let background = environment.chromePalette.bg
        if let scene {
            return scene.makeShell(style: style, registry: registry, environment: environment, appearance: environment.appearance, background: background)
        }
        return DemoComplications.makeShell(style: style, registry: registry, environment: environment, appearance: environment.appearance,
                                           background: background)
    }

    // MARK: - The main loop

    /// Serves requests and reloads until the process is killed.
    ///
    /// `answer` and `reload` are kept out of line so this loop's body stays
    /// small for the optimizer (see the hudhost target in Package.swift).
    func run() -> Never {
        while true {
            var descriptors = [mailbox.wakeDescriptor]
            if let watcher { descriptors.append(watcher.descriptor) }
            var timeout: Int32 = -1
            if !pendingChanges.isEmpty {
                let now = SystemCalls.monotonicNanoseconds()
                timeout = now >= changesSettleAt ? 0 : Int32((changesSettleAt - now) / 1_000_000) + 1
            }
            let ready = SystemCalls.pollReadable(descriptors, timeoutMilliseconds: timeout)
            if let watcher, ready.contains(watcher.descriptor) {
                let changed = watcher.changedTargets()
                if !changed.isEmpty {
                    pendingChanges.formUnion(changed)
                    changesSettleAt = SystemCalls.monotonicNanoseconds() + Self.settleNanoseconds
                }
            }
            if !pendingChanges.isEmpty, SystemCalls.monotonicNanoseconds() >= changesSettleAt {
                let changed = pendingChanges
                pendingChanges = []
                reload(changed)
            }
            for letter in mailbox.takeLetters() {
                mailbox.answer(letter, with: answer(letter.request))
            }
        }
    }

    /// A request that needs the shell (the server checked token and Host).
    @inline(never)
    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let before = version
        defer { if version != before { broadcast.publish(version) } }
        let response: HTTPResponse
        switch (request.method, request.path) {
        case ("GET", "/api/state"), ("HEAD", "/api/state"):
            response = PreviewServer.json(200, state())
        case ("GET", "/api/frame.svg"), ("HEAD", "/api/frame.svg"):
            response = HTTPResponse(status: 200, headers: PreviewServer.commonHeaders + [("Content-Type", "image/svg+xml; charset=utf-8"),
                                                                                          ("X-Hud-Version", "\(version)")],
                                    body: .bytes(Array(frame.utf8)))
        case ("GET", "/api/frame.png"), ("HEAD", "/api/frame.png"):
            // The same picture drawn by librsvg at 2 pixels per point.
            switch PNGRaster.png(svg: frame, width: frameSize.width, height: frameSize.height, scale: 2) {
            case .success(let bytes):
                response = HTTPResponse(status: 200, headers: PreviewServer.commonHeaders + [("Content-Type", "image/png"), ("X-Hud-Version", "\(version)")],
                                        body: .bytes(bytes))
            case .failure(let failure):
                response = PreviewServer.error(500, "unrenderable-picture", "the frame could not be drawn as PNG: \(failure)")
            }
        case ("POST", "/api/events"):
            response = events(request.body)
        case ("POST", "/api/settings"):
            response = changeSettings(request.body)
        default:
            response = PreviewServer.error(404, "unknown-path", "no such endpoint: \(request.method) \(request.path)")
        }
        return response
    }

    // MARK: - The frame

    /// Lays out again; keeps the last good frame when the chosen renderer
    /// cannot draw (the reason becomes `problem`). Bumps `version` on any
    /// change.
    private func refresh() {
        var newProblem: String?
        defer {
            newProblem = sceneProblem ?? newProblem
            if newProblem != problem {
                problem = newProblem
                version += 1
            }
        }
        do throws(RegistryError) {
            let layout = try shell.layout()
            if let failure = shell.rendererFailure {
                newProblem = failure.description
            } else {
                let environment = shell.environment
                let caption = SvgPresenter.caption(style: shell.complicationsStyle, device: settings.device, environment: environment)
                let svg = SvgPresenter().render(layout, environment: environment, device: settings.device, background: shell.background,
                                                caption: caption)
                if svg != frame {
                    frame = svg
                    frameSize = SvgPresenter.captionedSize(environment)
                    frameLayout = layout
                    version += 1
                }
            }
        } catch {
            newProblem = error.description
        }
    }

    // MARK: - Requests

    private func events(_ body: [UInt8]) -> HTTPResponse {
        guard let source = String(validating: body, as: UTF8.self) else {
            return PreviewServer.error(400, "malformed-events", "the body is not UTF-8 text; send steps in the --events grammar, e.g. \"longpress center\"")
        }
        let script: EventScript
        do {
            script = try EventScript(parsing: source)
        } catch {
            return PreviewServer.error(400, "malformed-events", error.description)
        }
        let size = shell.environment.screenSize
        if let off = script.points(outside: size.width, size.height).first {
            return PreviewServer.error(400, "point-off-screen",
                                       "event \(off.index + 1) '\(off.step.text)': the point (\(AsciiPresenter.number(off.x)), \(AsciiPresenter.number(off.y))) is off the screen, which is \(AsciiPresenter.number(size.width))×\(AsciiPresenter.number(size.height)) pt")
        }
        var steps: [EventScriptRunner.StepResult] = []
        var failure: String?
        do {
            _ = try EventScriptRunner(shell: shell).run(script) { steps.append($0) }
        } catch {
            failure = error.description
        }
        for step in steps { record(step.events) }
        record(shell.takePendingEvents())
        refresh()
        var members = stateMembers()
        members.append(("steps", .array(steps.map(SceneLoader.stepJSON))))
        if let failure {
            members.append(("error", .object([("code", .string("event-failed")), ("message", .string(failure))])))
            return PreviewServer.json(422, .object(members))
        }
        return PreviewServer.json(200, .object(members))
    }

    private func changeSettings(_ body: [UInt8]) -> HTTPResponse {
        guard let text = String(validating: body, as: UTF8.self), let document = try? JSONParser.parse(text) else {
            return PreviewServer.error(400, "malformed-settings", "the body is not a JSON document; send e.g. {\"style\":\"scattered\",\"device\":\"iphone-se\"}")
        }
        let changes: [PreviewSettings.Change]
        switch settings.applying(document, renderers: registry.renderers, pages: scene?.pages.map(\.title) ?? []) {
        case .success(let checked): changes = checked
        case .failure(let error): return PreviewServer.error(400, "invalid-settings", error.description)
        }
        for change in changes {
            switch change {
            case .settings(let next):
                settings = next
                shell.environment = next.environment
            case .style(let style):
                shell.perform(.style(style))
            case .push(let title):
                perform(.push(title))
            case .pop:
                shell.pop()
            case .presentation(let presentation):
                if PreviewSettings.presentationName(presentation) != PreviewSettings.presentationName(shell.complicationsPresentation) {
                    shell.complicationsPresentation = presentation
                }
            }
        }
        record(shell.takePendingEvents())
        refresh()
        return PreviewServer.json(200, state())
    }

    /// A scene action fired from the page's controls, with the scene's page table.
    private func perform(_ action: SceneAction) {
        shell.perform(action, pages: scenePage)
    }

    private func scenePage(_ title: String) -> HudPage? {
        scene?.page(titled: title)?.page { [weak self] action in self?.perform(action) }
    }

    private func record(_ happened: [ShellEvent]) {
        for event in happened {
            events.append(event.description)
            if case .actionFired(let target) = event { actions.append(target.name) }
        }
        if events.count > Self.historyLimit { events.removeFirst(events.count - Self.historyLimit) }
        if actions.count > Self.historyLimit { actions.removeFirst(actions.count - Self.historyLimit) }
    }

    // MARK: - Live reload

    @inline(never)
    private func reload(_ changed: Set<PreviewWatcher.Target>) {
        for target in changed.sorted(by: { $0.path < $1.path }) {
            switch target.kind {
            case .plugin:
                // The renderer host is restarted on the new file at the next
                // layout; the shell (page stack, revealed modes, style) stays.
                registry.host(forPath: target.path)?.reset()
                note(reload: target, outcome: nil)
                Output.error("hudhost preview: \(target.path) changed; restarting its renderer host")
            case .scene:
                switch SceneLoader.load(target.path) {
                case .failure(let failure):
                    note(reload: target, outcome: failure.message)
                    sceneProblem = "scene \(target.path): \(failure.message)"
                    Output.error("hudhost preview: \(target.path) changed but cannot be used: \(failure.message); keeping the last good frame")
                    continue
                case .success(let loaded):
                    scene = loaded
                    sceneProblem = nil
                    let revealed = shell.interaction.revealedPosition
                    let next = Self.makeShell(scene: loaded, style: shell.complicationsStyle, registry: registry, environment: shell.environment)
                    if let longPress { next.longPressThreshold = longPress }
                    shell = next
                    if let revealed { try? shell.reveal(revealed) }
                    note(reload: target, outcome: nil)
                    Output.error("hudhost preview: \(target.path) changed; scene reloaded")
                }
            }
        }
        // Forget the cached layout: the next one comes from the new files.
        shell.environment = shell.environment
        version += 1
        refresh()
        if let problem { Output.error("hudhost preview: the new frame could not be drawn: \(problem); keeping the last good frame") }
        broadcast.publish(version)
    }

    private func note(reload target: PreviewWatcher.Target, outcome failure: String?) {
        reloads.append(.object([("path", .string(target.path)), ("kind", .string(target.kind.rawValue)),
                                ("version", .number(Double(version + 1))), ("error", failure.map(JSONValue.string) ?? .null)]))
        if reloads.count > Self.historyLimit { reloads.removeFirst() }
    }

    // MARK: - State

    func state() -> JSONValue { .object(stateMembers()) }

    /// `/api/state` (Docs/PREVIEW.md lists every member).
    private func stateMembers() -> [(String, JSONValue)] {
        let environment = shell.environment
        let style = shell.complicationsStyle
        let revealed = shell.interaction.revealedPosition
        let modes = revealed.flatMap { try? shell.modeIDs(at: $0) } ?? []
        let screen = environment.screenSize, picture = SvgPresenter.captionedSize(environment)
        return [
            ("schemaVersion", .number(1)),
            ("version", .number(Double(version))),
            ("style", .object([("id", .string(style.rendererID)), ("name", .string(registry.info(id: style.rendererID)?.name ?? style.description))])),
            ("renderers", .array(registry.renderers.map { info in
                .object([("id", .string(info.id)), ("name", .string(info.name)), ("origin", .string(info.origin.description)),
                         ("outOfProcess", .bool(registry.isOutOfProcess(id: info.id)))])
            })),
            ("device", .object([("id", .string(settings.device.id)), ("model", .string(settings.device.model)),
                                ("orientation", .string(settings.orientation.rawValue))])),
            ("settings", settings.json),
            ("choices", PreviewSettings.choicesJSON),
            ("environment", LayoutJSON.environment(environment)),
            ("screen", .object([("width", .number(screen.width)), ("height", .number(screen.height))])),
            ("frameSize", .object([("width", .number(picture.width)), ("height", .number(picture.height))])),
            ("interaction", LayoutJSON.interaction(shell.interaction)),
            ("revealedPosition", revealed.map { .string($0.description) } ?? .null),
            ("modes", .array(modes.map(JSONValue.string))),
            // The control deck (`presentation`: always | on-demand); under
            // on-demand, `state` is the deck's status as `render --json`
            // reports it in `layout.deck` (Docs/JSON.md).
            ("deck", .object([("presentation", .string(PreviewSettings.presentationName(shell.complicationsPresentation))),
                              ("state", shell.deckStatus.map(LayoutJSON.deck) ?? .null)])),
            ("stack", .array(shell.stack.map { .string($0.title) })),
            ("pages", .array((scene?.pages.map(\.title) ?? []).map(JSONValue.string))),
            ("actions", .array(actions.map(JSONValue.string))),
            ("events", .array(events.map(JSONValue.string))),
            ("clock", .number(shell.clock ?? 0)),
            ("longPressThreshold", .number(shell.longPressThreshold)),
            ("problem", problem.map(JSONValue.string) ?? .null),
            ("reloads", .array(reloads)),
            ("layout", frameLayout.map(LayoutJSON.layout) ?? .null),
        ]
    }
}
