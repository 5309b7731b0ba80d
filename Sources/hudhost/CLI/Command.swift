import HudRegistry

/// One hudhost subcommand: declares its options, validates its input in
/// `init` (a usage error, exit 2, before any work), then runs.
protocol Command: SendableMetatype {
    static var name: String { get }
    static var summary: String { get }
    static var help: String { get }
    static var options: [Arguments.Option] { get }
    init(_ arguments: Arguments) throws(UsageError)
    func run() -> ExitCode
}

/// A subcommand as plain values. hudhost dispatches through these rather
/// than `any Command.Type`: opening that existential next to typed throws
/// crashes the Swift 6.3 compiler.
struct CommandEntry: Sendable {
    let name: String
    let summary: String
    let help: String
    let options: [Arguments.Option]
    let execute: @Sendable (Arguments) -> Result<ExitCode, UsageError>

    init<C: Command>(_ command: C.Type) {
        name = C.name
        summary = C.summary
        help = C.help
        options = C.options
        execute = { arguments in
            do throws(UsageError) {
                return .success(try C(arguments).run())
            } catch {
                return .failure(error)
            }
        }
    }
}

/// Options every registry-using command shares.
struct RegistryOptions {
    static let options: [Arguments.Option] = [.value("--plugin", repeatable: true), .flag("--builtin-only")]

    static let help = """
          --plugin PATH       also load the renderer plugin at PATH (repeatable)
          --builtin-only      do not search HUD_RENDERER_PATH or the user/system
                              plugin directories (safe mode)
        """

    let plugins: [String]
    let builtinOnly: Bool

    init(_ arguments: Arguments) {
        plugins = arguments.all("--plugin")
        builtinOnly = arguments.flag("--builtin-only")
    }

    /// The built-ins, then every plugin on the search path, then the
    /// explicit `--plugin` files. Errors loading an explicit plugin are
    /// returned separately: the user asked for it, so it is fatal (exit 3).
    func makeRegistry() -> (registry: RendererRegistry, explicitFailures: [RegistryError], discovery: DiscoveryReport?) {
        let registry = RendererRegistry.withBuiltins()
        let discovery = builtinOnly ? nil : registry.discover()
        var explicit: [RegistryError] = []
        for path in plugins {
            let before = registry.failures.count
            do {
                try registry.load(path: path)
                explicit += registry.failures[before...]
            } catch {
                explicit.append(error)
            }
        }
        return (registry, explicit, discovery)
    }
}

/// Options describing the screen and the user, shared by render and probe.
struct EnvironmentOptions {
    static let options: [Arguments.Option] = [
        .value("--device"), .flag("--landscape"), .flag("--rtl"), .value("--scheme"), .value("--appearance"),
        .value("--text-size"), .value("--title"), .flag("--reduce-transparency"), .flag("--increase-contrast"),
    ]

    static let help = """
          --device ID         device preset (default \(DevicePreset.default.id)); one of:
                              \(DevicePreset.all.map(\.id).joined(separator: ", "))
          --landscape         landscape orientation (default portrait)
          --rtl               right-to-left layout direction
          --scheme S          device color scheme: dark (default) or light
          --appearance A      hudson (default: stable dark chrome) or system
          --text-size C       Dynamic Type category: \(TextSizeCategory.allCases.map(\.rawValue).joined(separator: ", ")) (default L)
          --title TEXT        navigation title (default "Home")
          --reduce-transparency, --increase-contrast
                              accessibility settings
        """

    let environment: HudEnvironment
    let device: DevicePreset
    let orientation: DevicePreset.Orientation

    init(_ arguments: Arguments, defaultTitle: String? = "Home") throws(UsageError) {
        device = try arguments.value("--device", accepted: DevicePreset.all.map(\.id).joined(separator: ", "), DevicePreset.named) ?? .default
        orientation = arguments.flag("--landscape") ? .landscape : .portrait
        let scheme = try arguments.value("--scheme", accepted: "dark or light") { HudColorScheme(rawValue: $0) } ?? .dark
        let appearance = try arguments.value("--appearance", accepted: "hudson or system") { HudPhoneAppShellAppearance(rawValue: $0) } ?? .hudson
        let textSize = try arguments.value("--text-size", accepted: TextSizeCategory.allCases.map(\.rawValue).joined(separator: ", "), TextSizeCategory.init(name:)) ?? .large
        var accessibility: HudEnvironment.AccessibilityOptions = []
        if arguments.flag("--reduce-transparency") { accessibility.insert(.reduceTransparency) }
        if arguments.flag("--increase-contrast") { accessibility.insert(.increaseContrast) }
        environment = HudEnvironment(
            device: device, orientation: orientation,
            layoutDirection: arguments.flag("--rtl") ? .rightToLeft : .leftToRight,
            colorScheme: scheme, appearance: appearance, textSize: textSize,
            navigationTitle: arguments.value("--title") ?? defaultTitle, accessibility: accessibility)
    }

    /// The device as JSON.
    var deviceJSON: JSONValue {
        .object([("id", .string(device.id)), ("model", .string(device.model)), ("orientation", .string(orientation.rawValue)),
                 ("displayCornerRadius", .number(device.displayCornerRadius))])
    }
}

/// Prints a registry error for humans.
func report(_ error: RegistryError) {
    Output.error("hudhost: error: \(error)")
}
