// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe

/// `hudhost render`: lays out the seed's demo complications (or a scene
/// file) in the headless shell with one renderer on one device, optionally
/// plays a script of pointer events, and draws the result.
struct RenderCommand: Command {
    static let name = "render"
    static let summary = "Lay out complications with a renderer and draw them (ascii, svg, json)"
    static let options: [Arguments.Option] = RegistryOptions.options + EnvironmentOptions.options + [
        .value("--style"), .value("--format", .choices(["ascii", "svg", "json"])), .flag("--json"), .value("--scene", .file),
        .value("--reveal", .choices(Position.allCases.map(\.description))), .value("--columns"),
        .value("--events"), .value("--long-press"), .value("--out", .file), .flag("--hit-regions"), .flag("--stats"), .flag("--help"),
    ]
    static let help = """
        USAGE: hudhost render [--style ID] [--device ID] [--rtl] [--format ascii|svg|json]
                              [--out FILE] [--scene FILE] [--reveal POSITION] [--events SCRIPT]
                              [options]

        Lays out the seed's demo complications (or the pages of a scene file) in
        the headless shell with the chosen renderer, plays --events if given, and
        draws the final layout: a to-scale terminal picture plus a legend
        (ascii), an SVG picture of the screen (svg), or the full node list
        (json). All three come from the same layout nodes. With --events, every
        step's actions, interaction changes and style changes are reported.

        OPTIONS
          --style ID          tray (default), scattered, minimal, or any renderer id
          --format F          ascii (default), svg or json
          --json              same as --format json
          --out FILE          write the picture or document to FILE instead of stdout
          --hit-regions       svg: outline every touch target
          --stats             also report action-thunk counts after the shell is
                              released (created, live, calls caught)
          --scene FILE        a JSON scene (Docs/SCENES.md) instead of the demo set
          --reveal POSITION   show POSITION's long-press modes revealed
                              (topLeft, topRight, bottomLeft, bottomRight, center)
          --events SCRIPT     pointer events to play, ';'-separated (Docs/EVENTS.md):
                              tap|longpress|press|move T, release [T], wait SECONDS,
                              T = a position, slot:/secondary:<position>, mode:<id>
                              or x,y; append @SECONDS for an explicit time
          --long-press S      long-press threshold in seconds (default 0.45)
          --columns N         width of the ascii picture in characters (default 48)
        \(EnvironmentOptions.help)
        \(RegistryOptions.help)

        EXAMPLES
          hudhost render --style tray --format ascii
          hudhost render --style scattered --device iphone-se --rtl
          hudhost render --style minimal --json --text-size AX5
          hudhost render --events "longpress center; tap mode:scattered"
          hudhost render --format svg --out tray.svg --reveal center
          hudhost render --scene Docs/examples/home.json --reveal center

        \(exitCodeHelp)
        """

    let registryOptions: RegistryOptions
    let environmentOptions: EnvironmentOptions
    let style: HudPhoneComplicationsStyle?
    let json: Bool
    let svg: Bool
    let outPath: String?
    let hitRegions: Bool
    let stats: Bool
    let scene: SceneFile?
    let reveal: Position?
    let columns: Int
    let script: EventScript?
    let longPress: Double?

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("render takes no arguments; got '\(arguments.positionals[0])'") }
        registryOptions = try RegistryOptions(arguments)
        let format = try arguments.value("--format", accepted: "ascii, svg or json") { ["ascii", "svg", "json"].contains($0) ? $0 : nil } ?? "ascii"
        json = arguments.flag("--json") || format == "json"
        svg = format == "svg" && !json
        outPath = arguments.value("--out").map(Output.absolute)  // before any plugin code runs
        hitRegions = arguments.flag("--hit-regions")
        stats = arguments.flag("--stats")
        reveal = try arguments.value("--reveal", accepted: "topLeft, topRight, bottomLeft, bottomRight or center", Position.init(name:))
        columns = try arguments.value("--columns", accepted: "a whole number from 20 to 400") { Int($0).flatMap { (20...400).contains($0) ? $0 : nil } } ?? 48
        longPress = try arguments.value("--long-press", accepted: "seconds between 0.05 and 10") { Double($0).flatMap { (0.05...10).contains($0) ? $0 : nil } }
        if let path = arguments.value("--scene") {
            scene = try SceneLoader.load(path)
        } else {
            scene = nil
        }
        if let source = arguments.value("--events") {
            do {
                script = try EventScript(parsing: source)
            } catch {
                throw UsageError("--events: \(error)")
            }
        } else {
            script = nil
        }
        environmentOptions = try EnvironmentOptions(arguments, defaultTitle: nil)
        style = arguments.value("--style").map(HudPhoneComplicationsStyle.init(name:))
    }

    func run() -> ExitCode {
        let created = ActionThunkCounters.created
        let caught = ActionThunkCounters.retiredCalls
        let result = draw()
        // The shell is gone here: every thunk it made must be retired.
        if stats {
            let line = "thunks: created \(ActionThunkCounters.created - created), live after release \(ActionThunkCounters.live), late calls caught \(ActionThunkCounters.retiredCalls - caught), calls during layout \(ActionThunkCounters.callsDuringLayout)"
            Output.error(line)
        }
        return result
    }

    /// Writes `text` to --out or stdout.
    private func emit(_ text: String) -> Bool {
        guard let outPath else {
            Output.out(text)
            return true
        }
        if let error = Output.writeFile(outPath, text) {
            Output.error("hudhost render: \(error)")
            return false
        }
        return true
    }

    private func draw() -> ExitCode {
        let (registry, explicit, _) = registryOptions.makeRegistry()
        if !explicit.isEmpty {
            if json { Output.out(errorDocument(explicit[0])) }
            explicit.forEach(report)
            return .loadFailure
        }
        var environment = environmentOptions.environment
        let shell: HudPhoneAppShell
        if let scene {
            shell = scene.makeShell(style: style, registry: registry, environment: environment, appearance: environment.appearance)
        } else {
            shell = DemoComplications.makeShell(style: style ?? .tray, registry: registry, environment: environment, appearance: environment.appearance)
        }
        if let title = environment.navigationTitle {
            shell.updateTop { $0.title = title }
        }
        if let longPress { shell.longPressThreshold = longPress }
        var steps: [EventScriptRunner.StepResult] = []
        do throws(RegistryError) {
            if let reveal { try shell.reveal(reveal) }
            if let script {
                do {
                    steps = try EventScriptRunner(shell: shell).run(script)
                } catch .registry(let error) {
                    throw error
                } catch {
                    if json { Output.out(errorDocument(code: "event-target", message: error.description)) }
                    Output.error("hudhost render: --events \(error)")
                    return .failure
                }
            }
            let layout = try shell.layout()
            // The chosen renderer's host failed (the shell drew a built-in
            // instead): that is this command's failure, named as such.
            if let failure = shell.rendererFailure { throw failure }
            environment = shell.environment
            let info = registry.info(id: shell.complicationsStyle.rendererID)
            if json {
                var members: [(String, JSONValue)] = [
                    ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
                    ("renderer", info.map(LayoutJSON.renderer) ?? .null),
                    ("device", environmentOptions.deviceJSON),
                    ("environment", LayoutJSON.environment(environment)),
                    ("interaction", LayoutJSON.interaction(shell.interaction)),
                ]
                if script != nil { members.append(("events", .array(steps.map(SceneLoader.stepJSON)))) }
                members.append(("layout", LayoutJSON.layout(layout)))
                guard emit(JSONValue.object(members).serialized()) else { return .failure }
            } else if svg {
                let caption = "\(shell.complicationsStyle) · \(environmentOptions.device.id) · \(environment.layoutDirection.rawValue)"
                let picture = SvgPresenter(showHitRegions: hitRegions).render(
                    layout, environment: environment, device: environmentOptions.device, background: shell.background, caption: caption)
                guard emit(picture) else { return .failure }
                if let outPath { Output.error("wrote \(outPath)") }
            } else {
                for step in steps {
                    Output.line("▸ \(step.step.text): " + (step.events.isEmpty ? "nothing happened" : step.events.map(\.description).joined(separator: ", ")))
                }
                if !steps.isEmpty { Output.line() }
                let presenter = AsciiPresenter(columns: columns)
                let header = "\(info?.name ?? shell.complicationsStyle.description) (\(shell.complicationsStyle.rendererID)) on \(environmentOptions.device.id) \(environmentOptions.orientation.rawValue), \(environment.layoutDirection.rawValue), \(environment.chromeScheme.rawValue) chrome, \(environment.appearance.rawValue) appearance, text ×\(AsciiPresenter.number(environment.textScale))\n"
                guard emit(header + presenter.render(layout, environment: environment) + presenter.legend(layout)) else { return .failure }
            }
            return .ok
        } catch {
            if json { Output.out(errorDocument(error)) }
            report(error)
            return .failure
        }
    }

    private func errorDocument(_ error: RegistryError) -> String {
        JSONValue.object([("schemaVersion", .number(Double(LayoutJSON.schemaVersion))), ("error", LayoutJSON.error(error))]).serialized()
    }

    private func errorDocument(code: String, message: String) -> String {
        JSONValue.object([
            ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
            ("error", .object([("code", .string(code)), ("path", .null), ("rendererId", .null), ("message", .string(message))])),
        ]).serialized()
    }
}

/// Reads and parses a scene file, turning every problem into a usage error
/// that names the file.
enum SceneLoader {
    static func load(_ path: String) throws(UsageError) -> SceneFile {
        let bytes: [UInt8]
        switch Output.readFile(path) {
        case .success(let read): bytes = read
        case .failure(let error): throw UsageError(error.description)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError("scene \(path): not valid UTF-8")
        }
        do {
            return try SceneFile(json: text)
        } catch {
            throw UsageError("scene \(path): \(error)")
        }
    }

    /// One played step of an event script.
    static func stepJSON(_ result: EventScriptRunner.StepResult) -> JSONValue {
        .object([
            ("step", .string(result.step.text)),
            ("pointer", .array(result.pointerEvents.map { event in
                .object([("phase", .string(event.phase.rawValue)), ("x", .number(event.x)), ("y", .number(event.y)), ("time", .number(event.time))])
            })),
            ("events", .array(result.events.map { .string($0.description) })),
            ("actions", .array(result.events.compactMap { event in
                if case .actionFired(let target) = event { .string(target.name) } else { nil }
            })),
            ("style", .string(result.style.rendererID)),
            ("interaction", LayoutJSON.interaction(result.interaction)),
        ])
    }
}
