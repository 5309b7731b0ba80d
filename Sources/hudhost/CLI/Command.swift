// SPDX-License-Identifier: MIT
import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudRendererAPI

/// One hudhost subcommand: declares its options, validates its input in
/// `init` (a usage error, exit 2, before any work), then runs.
protocol Command: SendableMetatype {
    static var name: String { get }
    static var summary: String { get }
    /// The options it accepts, in the order its help lists them.
    static var options: [Option] { get }
    static var help: HelpPage { get }
    init(_ arguments: Arguments) throws(UsageError)
    func run() -> ExitCode
    /// Internal commands (e.g. `_sandbox`) are left out of the usage list.
    static var isHidden: Bool { get }
    /// What the command's arguments are, for the shell completions; nil
    /// when it takes none.
    static var arguments: Option.Value? { get }
}

extension Command {
    static var isHidden: Bool { false }
    static var arguments: Option.Value? { nil }
}

/// A subcommand as plain values. hudhost dispatches through these rather
/// than `any Command.Type`: opening that existential next to typed throws
/// crashes the Swift 6.3 compiler.
struct CommandEntry: Sendable {
    let name: String
    let summary: String
    /// Made when asked for (`--help`, the man page), not for every entry
    /// at every start.
    var help: HelpPage { helpPage() }
    private let helpPage: @Sendable () -> HelpPage
    let options: [Option]
    let isHidden: Bool
    let arguments: Option.Value?
    let execute: @Sendable (Arguments) -> Result<ExitCode, UsageError>

    init<C: Command>(_ command: C.Type) {
        name = C.name
        summary = C.summary
        helpPage = { C.help }
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
    static let plugin = Option.value("--plugin", "PATH", .file, repeatable: true, "also use the renderer plugin at PATH (repeatable)")
    static let builtinOnly = Option.flag("--builtin-only", "safe mode: only the built-in renderers; plugins on the search path are not looked at (their records stay)")
    static let allowInsecurePath = Option.flag("--allow-insecure-path", "load plugins from files or directories others can write (DEVELOPMENT ONLY: anyone who can write there can run code in this process)")
    static let noCache = Option.flag("--no-cache", "neither read nor write the registry cache")
    static let isolation = Option.value("--isolation", "MODE", .choices(RendererIsolation.allCases.map(\.rawValue)), "where plugin renderers run: process (default: each plugin file in a sandboxed renderer host; a crash or hang there is an error naming the renderer) or in-process (trusted plugins only: benchmarks, debugging); built-ins always run in-process")
    static let layoutTimeout = Option.value("--layout-timeout", "S", "deadline of one out-of-process layout call in seconds (0 < S ≤ 3600, default 2)")

    static let options = [plugin, builtinOnly, allowInsecurePath, noCache, isolation, layoutTimeout]

    /// The variables that choose and filter renderers.
    static let environment = HelpSection("ENVIRONMENT", [.entries([
        HelpEntry(names: ["HUD_ISOLATION"], text: "process or in-process, as --isolation (the flag wins)"),
        HelpEntry(names: ["HUD_RENDERER_PATH"], text: "colon-separated absolute directories searched first"),
        HelpEntry(names: ["HUD_RENDERERS_DISABLE", "HUD_RENDERERS_SELECT"], text: "comma-separated globs on renderer ids; disable first"),
    ])])

    let plugins: [String]
    let builtinOnly: Bool
    let allowInsecure: Bool
    let useCache: Bool
    let isolation: RendererIsolation
    let hostSettings: RendererHostSettings

    init(_ arguments: Arguments) throws(UsageError) {
        plugins = arguments.all(Self.plugin)
        builtinOnly = arguments.flag(Self.builtinOnly)
        allowInsecure = arguments.flag(Self.allowInsecurePath)
        useCache = !arguments.flag(Self.noCache)
        if let chosen = try arguments.value(Self.isolation, accepted: "process or in-process", RendererIsolation.init(rawValue:)) {
            isolation = chosen
        } else {
            switch RendererIsolation.fromEnvironment() {
            case .success(let fromEnvironment): isolation = fromEnvironment
            case .failure(let error): throw UsageError(error.description)
            }
        }
        var settings = RendererHostSettings()
        settings.allowInsecurePath = allowInsecure
        if let seconds = try arguments.seconds(Self.layoutTimeout, atMost: 3600) {
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
    /// `settings` adjusts the renderer hosts' settings (`snapshot` restarts
    /// a crashed host at once, for its next case).
    func makeRegistry(settings: (inout RendererHostSettings) -> Void = { _ in })
        -> (registry: RendererRegistry, explicitFailures: [RegistryError], catalog: PluginCatalog.Report?) {
        let registry = RendererRegistry.withBuiltins(security: security, filters: .fromEnvironment(), isolation: isolation)
        var adjusted = hostSettings
        settings(&adjusted)
        registry.hostSettings = adjusted
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
    static let device = Option.value("--device", "ID", .choices(DevicePreset.all.map(\.id)), "device preset (default \(DevicePreset.default.id)); one of: \(DevicePreset.all.map(\.id).joined(separator: ", "))")
    static let landscape = Option.flag("--landscape", "landscape orientation (default portrait)")
    static let rtl = Option.flag("--rtl", "right-to-left layout direction")
    static let scheme = Option.value("--scheme", "S", .choices(["dark", "light"]), "device color scheme: dark (default) or light")
    static let appearance = Option.value("--appearance", "A", .choices(["hudson", "system"]), "hudson (default: stable dark chrome) or system")
    static let textSize = Option.value("--text-size", "C", .choices(TextSizeCategory.allCases.map(\.rawValue)), "Dynamic Type category: \(TextSizeCategory.allCases.map(\.rawValue).joined(separator: ", ")) (default L)")
    static let title = Option.value("--title", "TEXT", "navigation title (default \"Home\")")
    static let reduceTransparency = Option.flag("--reduce-transparency", "accessibility setting: reduce transparency")
    static let increaseContrast = Option.flag("--increase-contrast", "accessibility setting: increase contrast")
    static let assistiveTechnology = Option.flag("--assistive-technology", "an assistive technology runs (VoiceOver, Switch Control): the control deck's timeout is suspended")

    static let options = [device, landscape, rtl, scheme, appearance, textSize, title, reduceTransparency, increaseContrast, assistiveTechnology]

    let environment: HudEnvironment
    let device: DevicePreset
    let orientation: DevicePreset.Orientation

    init(_ arguments: Arguments, defaultTitle: String? = "Home") throws(UsageError) {
        device = try arguments.value(Self.device, accepted: DevicePreset.all.map(\.id).joined(separator: ", "), DevicePreset.named) ?? .default
        orientation = arguments.flag(Self.landscape) ? .landscape : .portrait
        let scheme = try arguments.value(Self.scheme, accepted: "dark or light") { HudColorScheme(rawValue: $0) } ?? .dark
        let appearance = try arguments.value(Self.appearance, accepted: "hudson or system") { HudPhoneAppShellAppearance(rawValue: $0) } ?? .hudson
        let textSize = try arguments.value(Self.textSize, accepted: TextSizeCategory.allCases.map(\.rawValue).joined(separator: ", "), TextSizeCategory.init(name:)) ?? .large
        let title = try Self.title(arguments)
        var accessibility: HudEnvironment.AccessibilityOptions = []
        if arguments.flag(Self.reduceTransparency) { accessibility.insert(.reduceTransparency) }
        if arguments.flag(Self.increaseContrast) { accessibility.insert(.increaseContrast) }
        if arguments.flag(Self.assistiveTechnology) { accessibility.insert(.assistiveTechnology) }
        environment = HudEnvironment(
            device: device, orientation: orientation,
            layoutDirection: arguments.flag(Self.rtl) ? .rightToLeft : .leftToRight,
            colorScheme: scheme, appearance: appearance, textSize: textSize,
            navigationTitle: title ?? defaultTitle, accessibility: accessibility)
    }

    /// `--title`, within the ABI's limit for a navigation title.
    private static func title(_ arguments: Arguments) throws(UsageError) -> String? {
        guard let title = arguments.value(Self.title) else { return nil }
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
