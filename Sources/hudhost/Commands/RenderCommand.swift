import HudRegistry

/// `hudhost render`: lays out the seed's demo complications (or a scene
/// file) with one renderer on one device and draws the result.
struct RenderCommand: Command {
    static let name = "render"
    static let summary = "Lay out complications with a renderer and draw them (ascii, json)"
    static let options: [Arguments.Option] = RegistryOptions.options + EnvironmentOptions.options + [
        .value("--style"), .value("--format"), .flag("--json"), .value("--scene"), .value("--reveal"), .value("--columns"), .flag("--help"),
    ]
    static let help = """
        USAGE: hudhost render [--style ID] [--device ID] [--rtl] [--format ascii|json]
                              [--scene FILE] [--reveal POSITION] [options]

        Lays out the seed's demo complications (or the complications of a scene
        file) with the chosen renderer and draws the layout: a to-scale terminal
        picture plus a legend (ascii), or the full node list (json).

        OPTIONS
          --style ID          tray (default), scattered, minimal, or any renderer id
          --format F          ascii (default) or json
          --json              same as --format json
          --scene FILE        a JSON scene (Docs/SCENES.md) instead of the demo set
          --reveal POSITION   show POSITION's long-press modes revealed
                              (topLeft, topRight, bottomLeft, bottomRight, center)
          --columns N         width of the ascii picture in characters (default 48)
        \(EnvironmentOptions.help)
        \(RegistryOptions.help)

        EXAMPLES
          hudhost render --style tray --format ascii
          hudhost render --style scattered --device iphone-se --rtl
          hudhost render --style minimal --json --text-size AX5
          hudhost render --scene Examples/scenes/home.json --reveal center

        \(exitCodeHelp)
        """

    let registryOptions: RegistryOptions
    let environmentOptions: EnvironmentOptions
    let style: HudPhoneComplicationsStyle?
    let json: Bool
    let scene: SceneFile?
    let reveal: Position?
    let columns: Int

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("render takes no arguments; got '\(arguments.positionals[0])'") }
        registryOptions = RegistryOptions(arguments)
        let format = try arguments.value("--format", accepted: "ascii or json") { ["ascii", "json"].contains($0) ? $0 : nil } ?? "ascii"
        json = arguments.flag("--json") || format == "json"
        reveal = try arguments.value("--reveal", accepted: "topLeft, topRight, bottomLeft, bottomRight or center", Position.init(name:))
        columns = try arguments.value("--columns", accepted: "a whole number from 20 to 400") { Int($0).flatMap { (20...400).contains($0) ? $0 : nil } } ?? 48
        if let path = arguments.value("--scene") {
            scene = try SceneLoader.load(path)
        } else {
            scene = nil
        }
        environmentOptions = try EnvironmentOptions(arguments, defaultTitle: scene?.title ?? "Home")
        style = arguments.value("--style").map(HudPhoneComplicationsStyle.init(name:))
    }

    func run() -> ExitCode {
        let (registry, explicit, _) = registryOptions.makeRegistry()
        if !explicit.isEmpty {
            explicit.forEach(report)
            return .loadFailure
        }
        let chosen = style ?? scene?.style ?? .tray
        let complications = scene?.complications { _ in } ?? DemoComplications.make(renderers: registry.renderers) { _ in }
        let environment = environmentOptions.environment
        do {
            let snapshot = try ComplicationsSnapshot(complications)
            let interaction = HudInteraction(revealedPosition: reveal)
            let layout = try registry.layout(style: chosen, snapshot: snapshot, environment: environment, interaction: interaction)
            let info = registry.info(id: chosen.rendererID)
            if json {
                Output.out(JSONValue.object([
                    ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
                    ("renderer", info.map(LayoutJSON.renderer) ?? .null),
                    ("device", environmentOptions.deviceJSON),
                    ("environment", LayoutJSON.environment(environment)),
                    ("interaction", .object([("revealedPosition", reveal.map { .string($0.description) } ?? .null)])),
                    ("layout", LayoutJSON.layout(layout)),
                ]).serialized())
            } else {
                let presenter = AsciiPresenter(columns: columns)
                Output.line("\(info?.name ?? chosen.description) (\(chosen.rendererID)) on \(environmentOptions.device.id) \(environmentOptions.orientation.rawValue), \(environment.layoutDirection.rawValue), \(environment.chromeScheme.rawValue) chrome, \(environment.appearance.rawValue) appearance, text ×\(AsciiPresenter.number(environment.textScale))")
                Output.out(presenter.render(layout, environment: environment))
                Output.out(presenter.legend(layout))
            }
            return .ok
        } catch {
            if json {
                Output.out(JSONValue.object([
                    ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
                    ("error", LayoutJSON.error(error)),
                ]).serialized())
            }
            report(error)
            return .failure
        }
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
}
