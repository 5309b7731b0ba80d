// SPDX-License-Identifier: MIT
import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe
import HudRendererAPI

/// One hudhost subcommand: declares its options, validates its input in
/// `init` (a usage error, exit 2, before any work), then runs.
protocol Command: SendableMetatype {
    static var name: String { get }
    static var summary: String { get }
    static var help: String { get }
    static var options: [Arguments.Option] { get }
    init(_ arguments: Arguments) throws(UsageError)
    func run() -> ExitCode
    /// Internal commands (e.g. `_sandbox`) are left out of the usage list.
    static var isHidden: Bool { get }
    /// What the command's arguments are, for the shell completions; nil
    /// when it takes none.
    static var arguments: Arguments.Option.Value? { get }
}

extension Command {
    static var isHidden: Bool { false }
    static var arguments: Arguments.Option.Value? { nil }
}

/// A subcommand as plain values. hudhost dispatches through these rather
/// than `any Command.Type`: opening that existential next to typed throws
/// crashes the Swift 6.3 compiler.
struct CommandEntry: Sendable {
    let name: String
    let summary: String
    /// Laid out when asked for (`--help`, the man page, completions), not
    /// for every entry at every start: the help texts are built by string
    /// interpolation, about 0.3 ms for all commands.
    var help: String { helpText() }
    private let helpText: @Sendable () -> String
    let options: [Arguments.Option]
    let isHidden: Bool
    let arguments: Arguments.Option.Value?
    let execute: @Sendable (Arguments) -> Result<ExitCode, UsageError>

    init<C: Command>(_ command: C.Type) {
        name = C.name
        summary = C.summary
        helpText = { C.help }
        options = C.options
        isHidden = C.isHidden
        arguments = C.arguments
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
    static let options: [Arguments.Option] = [
        .value("--plugin", .file, repeatable: true), .flag("--builtin-only"), .flag("--allow-insecure-path"), .flag("--no-cache"),
        .value("--isolation", .choices(RendererIsolation.allCases.map(\.rawValue))), .value("--layout-timeout"),
    ]

    static let help = """
          --plugin PATH       also use the renderer plugin at PATH (repeatable)
          --builtin-only      safe mode: only the built-in renderers; plugins on the
                              search path are not looked at (their records stay)
          --allow-insecure-path
                              load plugins from files or directories others can
                              write (DEVELOPMENT ONLY: anyone who can write there
                              can run code in this process)
          --no-cache          neither read nor write the registry cache
          --isolation MODE    where plugin renderers run: process (default: each
                              plugin file in a sandboxed renderer host; a crash
                              or hang there is an error naming the renderer) or
                              in-process (trusted plugins only: benchmarks,
                              debugging); built-ins always run in-process
          --layout-timeout S  deadline of one out-of-process layout call in
                              seconds (0 < S ≤ 3600, default 2)
        ENVIRONMENT
          HUD_ISOLATION       process or in-process, as --isolation (the flag wins)
          HUD_RENDERER_PATH   colon-separated absolute directories searched first
          HUD_RENDERERS_DISABLE, HUD_RENDERERS_SELECT
                              comma-separated globs on renderer ids; disable first
        """

    let plugins: [String]
    let builtinOnly: Bool
    let allowInsecure: Bool
    let useCache: Bool
    let isolation: RendererIsolation
    let hostSettings: RendererHostSettings

    init(_ arguments: Arguments) throws(UsageError) {
        plugins = arguments.all("--plugin")
        builtinOnly = arguments.flag("--builtin-only")
        allowInsecure = arguments.flag("--allow-insecure-path")
        useCache = !arguments.flag("--no-cache")
        if let chosen = try arguments.value("--isolation", accepted: "process or in-process", RendererIsolation.init(rawValue:)) {
            isolation = chosen
        } else {
            switch RendererIsolation.fromEnvironment() {
            case .success(let fromEnvironment): isolation = fromEnvironment
            case .failure(let error): throw UsageError(error.description)
            }
        }
        var settings = RendererHostSettings()
        settings.allowInsecurePath = allowInsecure
        if let seconds = try arguments.seconds("--layout-timeout", atMost: 3600) {
            settings.layoutTimeoutSeconds = seconds
        }
        hostSettings = settings
        if allowInsecure {
            Output.error("hudhost: WARNING: --allow-insecure-path: plugin files and directories that others can write are loaded anyway")
        }
    }

    var security: PathSecurity { PathSecurity(allowInsecure: allowInsecure) }

    /// The defaults (search path, cache, security on), for commands that
    /// only need to find plugin files.
    static var discoveryOnly: RegistryOptions {
        RegistryOptions(plugins: [], builtinOnly: false, allowInsecure: false, useCache: true)
    }

    private init(plugins: [String], builtinOnly: Bool, allowInsecure: Bool, useCache: Bool) {
        self.plugins = plugins
        self.builtinOnly = builtinOnly
        self.allowInsecure = allowInsecure
        self.useCache = useCache
        self.isolation = .process
        self.hostSettings = RendererHostSettings()
    }

    /// The search path, the cache for it, and the catalog that reads plugin
    /// metadata without running plugin code (files without metadata are
    /// scanned in a sandboxed child process).
    func catalog() -> PluginCatalog {
        let searchPaths = SearchPaths.standard()
        let cache = useCache ? RegistryCache.defaultDirectory().map { RegistryCache(directory: $0, searchPath: searchPaths.directories) } : nil
        let catalog = PluginCatalog(searchPaths: searchPaths, security: security, cache: cache)
        if Output.showsProgress {
            catalog.willScan = { path in Output.progress("loading \(path) in a sandboxed child to check it (once per change of the file)…") }
        }
        return catalog
    }

    /// The built-ins, then every usable plugin on the search path (known
    /// from its metadata or a sandboxed scan: a plugin that crashed or hung
    /// there is never loaded into this process), then the explicit
    /// `--plugin` files. Errors loading an explicit plugin are returned
    /// separately: the user asked for it, so it is fatal (exit 3).
    func makeRegistry() -> (registry: RendererRegistry, explicitFailures: [RegistryError], catalog: PluginCatalog.Report?) {
        let registry = RendererRegistry.withBuiltins(security: security, filters: .fromEnvironment(), isolation: isolation)
        registry.hostSettings = hostSettings
        var report: PluginCatalog.Report?
        if !builtinOnly {
            report = registry.loadPlugins(from: catalog())
        }
        var explicit: [RegistryError] = []
        for path in plugins {
            let before = registry.failures.count
            // Path checks, then a trial load in a sandboxed child: a plugin
            // that crashes, hangs or calls exit() while loading must not take
            // hudhost down.
            do {
                try registry.load(checking: Output.absolute(path))
                explicit += registry.failures[before...]
            } catch {
                explicit.append(error)
            }
        }
        return (registry, explicit, report)
    }
}

/// Options describing the screen and the user, shared by render and probe.
struct EnvironmentOptions {
    static let options: [Arguments.Option] = [
        .value("--device", .choices(DevicePreset.all.map(\.id))), .flag("--landscape"), .flag("--rtl"),
        .value("--scheme", .choices(["dark", "light"])), .value("--appearance", .choices(["hudson", "system"])),
        .value("--text-size", .choices(TextSizeCategory.allCases.map(\.rawValue))), .value("--title"), .flag("--reduce-transparency"), .flag("--increase-contrast"),
        .flag("--assistive-technology"),
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
          --assistive-technology
                              an assistive technology runs (VoiceOver, Switch
                              Control): the control deck's timeout is suspended
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
        let title = try Self.title(arguments)
        var accessibility: HudEnvironment.AccessibilityOptions = []
        if arguments.flag("--reduce-transparency") { accessibility.insert(.reduceTransparency) }
        if arguments.flag("--increase-contrast") { accessibility.insert(.increaseContrast) }
        if arguments.flag("--assistive-technology") { accessibility.insert(.assistiveTechnology) }
        environment = HudEnvironment(
            device: device, orientation: orientation,
            layoutDirection: arguments.flag("--rtl") ? .rightToLeft : .leftToRight,
            colorScheme: scheme, appearance: appearance, textSize: textSize,
            navigationTitle: title ?? defaultTitle, accessibility: accessibility)
    }

    /// `--title`, within the ABI's limit for a navigation title.
    private static func title(_ arguments: Arguments) throws(UsageError) -> String? {
        guard let title = arguments.value("--title") else { return nil }
        let limit = Int(HUD_MAX_TITLE_BYTES)
        guard title.utf8.count <= limit else {
            throw UsageError("--title is \(title.utf8.count) bytes of UTF-8; a navigation title is at most \(limit) bytes (HUD_MAX_TITLE_BYTES)")
        }
        return title
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
