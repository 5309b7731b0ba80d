// SPDX-License-Identifier: MIT
import HudRegistry
import HudPluginBoundary
import HudPresentation
import HudScenes
import HudConformance
import HudRaster

/// `hudhost render`: lays out the seed's demo complications (or a scene
/// file) in the headless shell with one renderer on one device, optionally
/// plays a script of pointer events, and draws the result.
struct RenderCommand: Command {
    static let name = "render"
    static let summary = "Lay out complications with a renderer and draw them (ascii, svg, png, json)"
    static let style = Option.value("--style", "ID", "tray (default), scattered, minimal, or any renderer id")
    static let format = Option.value("--format", "F", .choices(["ascii", "svg", "png", "json"]), "ascii (default), svg, png or json")
    static let json = Option.flag("--json", "same as --format json")
    static let scale = Option.value("--scale", "S", "png: pixels per point, 1 to 4 (default 2); the same input gives the same bytes on one machine")
    static let out = Option.value("--out", "FILE", .file, "write the picture or document to FILE instead of stdout (png: stdout only when it is not a terminal)")
    static let hitRegions = Option.flag("--hit-regions", "svg: outline every touch target")
    static let symbolNames = Option.flag("--symbol-names", "svg: print each slot's SF Symbol name under it")
    static let stats = Option.flag("--stats", "also report action-thunk counts after the shell is released (created, live, calls caught)")
    static let scene = Option.value("--scene", "FILE", .file, "a JSON scene (hud-scenes(5)) instead of the demo set")
    static let reveal = Option.value("--reveal", "POSITION", .choices(Position.allCases.map(\.description)), "show POSITION's long-press modes revealed (topLeft, topRight, bottomLeft, bottomRight, center; a slot without modes is a usage error)")
    static let events = Option.value("--events", "SCRIPT", "pointer events to play, ';'-separated (hud-events(7)): tap|longpress|press|move T, release [T], wait SECONDS, T = a position, slot:/secondary:<position>, mode:<id> or x,y (points on the chosen screen); append @SECONDS for an explicit time; key escape; pivot, close, backdrop (the control deck's)")
    static let longPress = Option.value("--long-press", "S", "long-press threshold in seconds (default 0.45)")
    static let presentation = Option.value("--presentation", "P", .choices(["always", "on-demand"]), #"always (default: every slot shown) or on-demand (the control deck: a pivot button until tapped; render it expanded with --events "tap pivot"); overrides a scene's presentation"#)
    static let deckTimeout = Option.value("--deck-timeout", "S", "on-demand: seconds without interaction before the expanded deck collapses (default 6)")
    static let columns = Option.value("--columns", "N", "width of the ascii picture in characters (default 48)")
    static let options = [style, format, json, scale, out, hitRegions, symbolNames, stats, scene, reveal, events, longPress, presentation, deckTimeout, columns]
        + EnvironmentOptions.options + RegistryOptions.options
    static let help = HelpPage(
        usage: """
            hudhost render [--style ID] [--device ID] [--rtl] [--format ascii|svg|png|json]
                                  [--out FILE] [--scene FILE] [--reveal POSITION] [--events SCRIPT]
                                  [--presentation always|on-demand] [options]
            """,
        description: """
            Lays out the seed's demo complications (or the pages of a scene file) in
            the headless shell with the chosen renderer, plays --events if given, and
            draws the final layout: a to-scale terminal picture plus a legend
            (ascii), an SVG picture of the screen (svg) or that picture drawn by
            librsvg (png), or the full node list (json). All come from the same
            layout nodes. With --events, every step's actions, interaction changes
            and style changes are reported.
            """,
        sections: [
            .options(options),
            RegistryOptions.environment,
            HelpSection("THE ASCII PICTURE", [
                .entries([
                    HelpEntry(names: ["+---+ |"], text: "the screen's edge"),
                    HelpEntry(names: ["·······"], text: "the navigation bar's bottom edge, and the bottom safe-area edge"),
                    HelpEntry(names: ["Home"], text: "the navigation title, centered in the bar"),
                    HelpEntry(names: ["(P) (X)"], text: "the control deck's pivot and close buttons; ┄┄┄ the edge of a lane it reserves"),
                    HelpEntry(names: ["(TL) (TR) (BL) (BR) (C)"], text: "a slot by position (topLeft, topRight, bottomLeft, bottomRight, center; the leading corners are on the right in RTL); (*C*) while pressed; (?) a slot with no position"),
                    HelpEntry(names: ["S  s"], text: "a secondary chip: S has an action, s is a badge"),
                    HelpEntry(names: ["╭──╮ │ ╰──╯"], text: "a container: the tray, a mode picker's card"),
                    HelpEntry(names: ["[✓Tray] [Scat…]"], text: "a mode item, by label, cut with … to its width; ✓ the current mode"),
                ]),
                .text("""
                    Below the picture, one line per node in emission order: position
                    (-- for none), kind, icon, "label", frame and hit region (x,y w×h in
                    pt), placement, material, fill; then the content insets and the
                    hidden positions.
                    """),
            ]),
            .examples("""
                hudhost render --style tray --format ascii
                hudhost render --style scattered --device iphone-se --rtl
                hudhost render --style minimal --json --text-size AX5
                hudhost render --events "longpress center; tap mode:scattered"
                hudhost render --format svg --out tray.svg --reveal center
                hudhost render --format png --scale 3 --out tray.png
                hudhost render --scene "$(hudhost sdk --doc-dir)/examples/home.json" --reveal center
                hudhost render --presentation on-demand --events "tap pivot"
                """),
            .exitCodes(),
        ])

    let registryOptions: RegistryOptions
    let environmentOptions: EnvironmentOptions
    let style: HudPhoneComplicationsStyle?
    let json: Bool
    let svg: Bool
    /// --format png: the SVG picture drawn at `scale` pixels per point.
    let png: Bool
    let scale: Double
    let outPath: String?
    let hitRegions: Bool
    let symbolNames: Bool
    let stats: Bool
    let scenePath: String?
    let reveal: Position?
    let columns: Int
    let script: EventScript?
    let longPress: Double?
    /// --presentation / --deck-timeout (nil: the scene's, else always).
    let presentation: HudPhoneComplicationsPresentation?

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("render takes no arguments; got '\(arguments.positionals[0])'") }
        registryOptions = try RegistryOptions(arguments)
        let format = try arguments.value(Self.format, accepted: "ascii, svg, png or json") { ["ascii", "svg", "png", "json"].contains($0) ? $0 : nil } ?? "ascii"
        // --json is --format json: asking for another format too is a contradiction, not a choice to guess.
        if arguments.flag(Self.json), format != "json", arguments.value(Self.format) != nil {
            throw UsageError("--json and --format \(format) ask for two formats; use --format json (or --json) alone, or drop --json for \(format)")
        }
        json = arguments.flag(Self.json) || format == "json"
        svg = format == "svg" && !json
        png = format == "png" && !json
        let scale = try arguments.value(Self.scale, accepted: "a number from 1 to 4") { Double($0).flatMap { (1...4).contains($0) ? $0 : nil } }
        if scale != nil, !png { throw UsageError("--scale sets the pixels per point of a PNG; add --format png, or drop --scale") }
        self.scale = scale ?? 2
        outPath = arguments.value(Self.out).map(Output.absolute)  // before any plugin code runs
        if png, outPath == nil, Output.standardOutputIsTerminal {
            throw UsageError("--format png writes binary data; give --out FILE, or redirect stdout to a file")
        }
        hitRegions = arguments.flag(Self.hitRegions)
        symbolNames = arguments.flag(Self.symbolNames)
        stats = arguments.flag(Self.stats)
        reveal = try arguments.value(Self.reveal, accepted: "topLeft, topRight, bottomLeft, bottomRight or center", Position.init(name:))
        columns = try arguments.value(Self.columns, accepted: "a whole number from 20 to 400") { Int($0).flatMap { (20...400).contains($0) ? $0 : nil } } ?? 48
        longPress = try arguments.seconds(Self.longPress, atLeast: 0.05, atMost: 10)
        scenePath = arguments.value(Self.scene)
        let mode = try arguments.value(Self.presentation, accepted: "always or on-demand") { ["always", "on-demand"].contains($0) ? $0 : nil }
        let timeout = try arguments.seconds(Self.deckTimeout, atLeast: 0.1, atMost: HudPhoneControlDeckPolicy.maximumInactivityTimeout)
        if let timeout, mode != "on-demand" {
            throw UsageError("--deck-timeout \(AsciiPresenter.number(timeout)) only applies with --presentation on-demand")
        }
        switch mode {
        case "always": presentation = .alwaysVisible
        case "on-demand": presentation = .summonOnDemand(HudPhoneControlDeckPolicy(inactivityTimeout: timeout ?? HudPhoneControlDeckPolicy.defaultInactivityTimeout))
        default: presentation = nil
        }
        if let source = arguments.value(Self.events) {
            do {
                script = try EventScript(parsing: source)
            } catch {
                throw UsageError("--events: \(error)")
            }
        } else {
            script = nil
        }
        environmentOptions = try EnvironmentOptions(arguments, defaultTitle: nil)
        style = arguments.value(Self.style).map(HudPhoneComplicationsStyle.init(name:))
        if let script { try Self.checkPoints(script, environmentOptions) }
    }

    /// Every `x,y` point of the script lies on the chosen screen.
    static func checkPoints(_ script: EventScript, _ options: EnvironmentOptions) throws(UsageError) {
        let size = options.environment.screenSize
        guard let off = script.points(outside: size.width, size.height).first else { return }
        throw UsageError("--events: event \(off.index + 1) '\(off.step.text)': the point (\(AsciiPresenter.number(off.x)), \(AsciiPresenter.number(off.y))) is off the screen; \(options.device.id) in \(options.orientation.rawValue) is \(AsciiPresenter.number(size.width))×\(AsciiPresenter.number(size.height)) pt (x 0…\(AsciiPresenter.number(size.width)), y 0…\(AsciiPresenter.number(size.height)))")
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
    private func emit(_ text: String) -> CommandFailure? { emitBytes(Array(text.utf8)) }

    /// Writes `bytes` to --out or stdout.
    private func emitBytes(_ bytes: [UInt8]) -> CommandFailure? {
        guard let outPath else {
            Output.out(bytes: bytes)
            return nil
        }
        return Output.writeFile(outPath, bytes: bytes).map(CommandFailure.unwritableOutput)
    }

    /// Reports `failure` (as a JSON document too with --json) and returns its exit code.
    private func fail(_ failure: CommandFailure) -> ExitCode {
        if json { Output.out(failure.document()) }
        failure.report()
        return failure.exit
    }

    private func draw() -> ExitCode {
        // The targets first, before any plugin code runs: the scene, the
        // output file, the plugins, the style (exit 3 for each).
        var scene: SceneFile?
        if let scenePath {
            switch SceneLoader.load(scenePath) {
            case .success(let loaded): scene = loaded
            case .failure(let failure): return fail(failure)
            }
        }
        if let outPath, let problem = Output.writeProblem(file: outPath) {
            return fail(.unwritableOutput(problem))
        }
        let (registry, explicit, catalog) = registryOptions.makeRegistry()
        if let first = explicit.first {
            if json { Output.out(CommandFailure(first).document()) }
            explicit.forEach(report)
            return .unusableTarget
        }
        let chosen = style ?? scene?.style ?? .tray
        if registry.info(id: chosen.rendererID) == nil {
            return fail(RendererLookup(id: chosen.rendererID, registry: registry, report: catalog).failure)
        }
        var environment = environmentOptions.environment
        let shell: HudPhoneAppShell
        // The page behind the chrome follows the chrome's palette: with
        // `--appearance system --scheme light` a light background, as the
        // seed asks of scheme-adaptive content under `.system`.
        let background = environment.chromePalette.bg
        if let scene {
            shell = scene.makeShell(style: style, presentation: presentation, registry: registry, environment: environment,
                                    appearance: environment.appearance, background: background)
        } else {
            shell = DemoComplications.makeShell(style: chosen, presentation: presentation ?? .alwaysVisible, registry: registry,
                                                environment: environment, appearance: environment.appearance, background: background)
        }
        if let title = environment.navigationTitle {
            shell.updateTop { $0.title = title }
        }
        if let longPress { shell.longPressThreshold = longPress }
        var steps: [EventScriptRunner.StepResult] = []
        do throws(RegistryError) {
            if let reveal {
                let modes = try shell.modeIDs(at: reveal)
                guard !modes.isEmpty else {
                    UsageError(Self.noModes(reveal, shell: shell)).report(command: Self.name, json: json)
                    return .usage
                }
                try shell.reveal(reveal)
            }
            if let script {
                do {
                    steps = try EventScriptRunner(shell: shell).run(script)
                } catch .registry(let error) {
                    throw error
                } catch {
                    return fail(CommandFailure(code: "event-target", message: "--events \(error)", exit: .failure))
                }
            }
            let layout = try shell.layout()
            // The chosen renderer's host failed (the shell drew a built-in
            // instead): that is this command's failure, named as such.
            if let failure = shell.rendererFailure { throw failure }
            environment = shell.environment
            let info = registry.info(id: shell.complicationsStyle.rendererID)
            let problem: CommandFailure?
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
                members.append(("accessibility", AccessibilityModel(layout: layout, complications: shell.resolvedComplications).json))
                problem = emit(JSONValue.object(members).serialized())
            } else if svg || png {
                let caption = "\(shell.complicationsStyle) · \(environmentOptions.device.id) · \(environment.layoutDirection.rawValue)"
                let picture = SvgPresenter(showHitRegions: hitRegions, showSymbolNames: symbolNames).render(
                    layout, environment: environment, device: environmentOptions.device, background: shell.background, caption: caption)
                if png {
                    let size = SvgPresenter.captionedSize(environment)
                    switch PNGRaster.png(svg: picture, width: size.width, height: size.height, scale: scale) {
                    case .success(let bytes): problem = emitBytes(bytes)
                    case .failure(let failure): problem = .unrenderablePicture(failure.description)
                    }
                } else {
                    problem = emit(picture)
                }
                if problem == nil, let outPath { Output.error("wrote \(outPath)") }
            } else {
                for step in steps {
                    Output.line(TextChecks.escapingControls("▸ \(step.step.text): " + (step.events.isEmpty ? "nothing happened" : step.events.map(\.description).joined(separator: ", "))))
                }
                if !steps.isEmpty { Output.line() }
                let presenter = AsciiPresenter(columns: columns)
                let header = "\(info?.name ?? shell.complicationsStyle.description) (\(shell.complicationsStyle.rendererID)) on \(environmentOptions.device.id) \(environmentOptions.orientation.rawValue), \(environment.layoutDirection.rawValue), \(environment.chromeScheme.rawValue) chrome, \(environment.appearance.rawValue) appearance, text ×\(AsciiPresenter.number(environment.textScale))\n"
                problem = emit(header + presenter.render(layout, environment: environment) + presenter.legend(layout))
            }
            if let problem {
                problem.report()
                return problem.exit
            }
            return .ok
        } catch {
            // A style switched to by an action may be unknown too: explain it.
            if case .unknownRenderer(let id, _) = error {
                return fail(RendererLookup(id: id, registry: registry, report: catalog).failure)
            }
            return fail(CommandFailure(error))
        }
    }

    /// "--reveal topLeft: …" for a slot that has no long-press modes.
    private static func noModes(_ position: Position, shell: HudPhoneAppShell) -> String {
        let withModes = Position.allCases.filter { (try? shell.modeIDs(at: $0).isEmpty) == false }
        return "--reveal \(position): the \(position) slot has no long-press modes, so there is nothing to reveal; "
            + (withModes.isEmpty ? "no slot has modes here" : "slots with modes: \(withModes.map(\.description).joined(separator: ", "))")
    }
}

/// Reads and parses a scene file; every problem is a failure naming the
/// file (exit 3: a target that cannot be used).
enum SceneLoader {
    static func load(_ path: String) -> Result<SceneFile, CommandFailure> {
        let bytes: [UInt8]
        switch Output.readRegularFile(path) {
        case .success(let read): bytes = read
        case .failure(let error): return .failure(.unusableScene(path, "cannot read it: \(error.reason)"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(.unusableScene(path, "not valid UTF-8"))
        }
        do {
            return .success(try SceneFile(json: text))
        } catch {
            return .failure(.unusableScene(path, error.description))
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
        ] + (result.keyEvent.map { [("key", .object([("key", .string($0.key.rawValue)), ("time", .number($0.time))]))] } ?? [])
          + (result.deck.map { [("deck", LayoutJSON.deck($0))] } ?? []))
    }
}
