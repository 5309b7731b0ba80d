// SPDX-License-Identifier: MIT
import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudRendererAPI
import HudSystem

/// `hudhost sdk`: what an out-of-tree plugin build needs, like
/// `pkg-config` or `python3-config`: the directory holding
/// `hud_renderer.h`, the compiler flags, the ABI version, a `.pc` file.
struct SdkCommand: Command {
    static let name = "sdk"
    static let summary = "Print the compiler flags, include dir and ABI version for building plugins"
    static let cflags = Option.flag("--cflags", "the compiler flags: -I<include dir>")
    static let includeDir = Option.flag("--include-dir", "the directory holding hud_renderer.h")
    static let docDir = Option.flag("--doc-dir", "the directory holding the documents (the guide, CONFORMANCE.md, …) and examples/ (the scenes the documents use): <prefix>/share/doc/hud installed, Docs in a source checkout")
    static let printABIVersion = Option.flag("--abi-version", "the ABI version this host implements (major.minor)")
    static let pkgConfig = Option.flag("--pkg-config", "a hud-renderer.pc file: Cflags, Version, and the variables abi_version, rendererdir (where plugins are installed) and helperdir (where hudsandbox is)")
    static let prefix = Option.value("--prefix", "DIR", .directory, "with --pkg-config: the file for an install at DIR (<DIR>/include/hud, <DIR>/lib/hud/renderers, <DIR>/libexec/hud), as `make install` writes it")
    static let json = Option.flag("--json", "everything above, and the Rust bindings' path, as JSON (schemaVersion 1); not combined with the other options")
    static let options = [cflags, includeDir, docDir, printABIVersion, pkgConfig, prefix, json]
    static let help = HelpPage(
        usage: "hudhost sdk [--cflags] [--include-dir] [--doc-dir] [--abi-version] [--pkg-config] [--json]",
        description: """
            Tells a plugin build where the renderer ABI header (hud_renderer.h) is,
            and a plugin author where the documents and example scenes are.
            With no option, prints a summary. With options, prints only what they
            ask for, one item per line in this order: ABI version, include dir,
            cflags, doc dir, then the pkg-config file.

            The header is looked up next to this hudhost binary:
              1. installed:       <prefix>/include/hud/hud_renderer.h for <prefix>/bin/hudhost
              2. source checkout: <dir>/Sources/HudRendererAPI/include/hud/hud_renderer.h,
                                  for the binary's directory and each one above it
                                  (swift build puts hudhost in <repo>/.build/<triple>/<config>)
            If neither exists, it says where it looked and exits 1.
            """,
        sections: [
            .options(options),
            .examples("""
                cc -std=c11 -O2 -shared -fPIC $(hudhost sdk --cflags) ring.c -o libring.so
                swift run hudhost sdk --cflags        # from a source checkout, not installed
                hudhost sdk --pkg-config > hud-renderer.pc && PKG_CONFIG_PATH=$PWD pkg-config --cflags hud-renderer
                hudhost sdk --json
                hudhost render --scene "$(hudhost sdk --doc-dir)/examples/home.json"
                """),
            .exitCodes("For sdk: 1 hud_renderer.h cannot be found next to this hudhost."),
        ])

    /// The ABI version of the header this host was built with.
    static let abiVersion = "\(HUD_ABI_VERSION_MAJOR).\(HUD_ABI_VERSION_MINOR)"

    let cflags: Bool
    let includeDir: Bool
    let docDir: Bool
    let abiVersion: Bool
    let pkgConfig: Bool
    let prefix: String?
    let json: Bool
    /// One of the options that print one item per line.
    private var asksForItems: Bool { cflags || includeDir || docDir || abiVersion || pkgConfig }

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("sdk takes no arguments; got '\(arguments.positionals[0])'") }
        cflags = arguments.flag(Self.cflags)
        includeDir = arguments.flag(Self.includeDir)
        docDir = arguments.flag(Self.docDir)
        abiVersion = arguments.flag(Self.printABIVersion)
        pkgConfig = arguments.flag(Self.pkgConfig)
        json = arguments.flag(Self.json)
        prefix = arguments.value(Self.prefix)
        if let prefix {
            guard pkgConfig, !(cflags || includeDir || docDir || abiVersion || json) else { throw UsageError("--prefix goes with --pkg-config alone") }
            guard prefix.hasPrefix("/") else { throw UsageError("--prefix must be an absolute directory; got '\(prefix)'") }
        }
        if json, asksForItems {
            throw UsageError("--json prints everything; it is not combined with --cflags, --include-dir, --doc-dir, --abi-version or --pkg-config")
        }
    }

    func run() -> ExitCode {
        // --abi-version alone needs no header; an install's pkg-config
        // file is described by its prefix alone.
        if abiVersion, !(cflags || includeDir || docDir || pkgConfig) {
            Output.line(Self.abiVersion)
            return .ok
        }
        if let prefix {
            Output.out(SdkLocation.pkgConfig(prefix: prefix, version: Self.abiVersion))
            return .ok
        }
        let sdk: SdkLocation
        switch SdkLocation.find() {
        case .success(let found):
            sdk = found
        case .failure(let error):
            if json {
                Output.out(JSONValue.object([
                    ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
                    ("error", .object([("code", .string("sdk-header-not-found")), ("path", .null), ("rendererId", .null),
                                       ("message", .string(error.description))])),
                    ("searched", .array(error.searched.map(JSONValue.string))),
                ]).serialized())
            }
            Output.error("hudhost sdk: error: \(error)")
            return .failure
        }

        if json {
            Output.out(JSONValue.object([
                ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
                ("abiVersion", .string(Self.abiVersion)),
                ("abiMajor", .number(Double(HUD_ABI_VERSION_MAJOR))),
                ("abiMinor", .number(Double(HUD_ABI_VERSION_MINOR))),
                ("includeDir", .string(sdk.includeDirectory)),
                ("header", .string(sdk.header)),
                ("cflags", .string(sdk.cflags)),
                ("docDir", .string(sdk.documentationDirectory)),
                ("rustBindings", .string(sdk.rustBindings)),
                ("layout", .string(sdk.layout.rawValue)),
                ("executable", .string(sdk.executable)),
                ("pkgConfig", .string(sdk.pkgConfig(version: Self.abiVersion))),
            ]).serialized())
            return .ok
        }
        guard asksForItems else {
            Output.out(Table.format([
                ["ABI version", Self.abiVersion],
                ["header", sdk.header],
                ["include dir", sdk.includeDirectory],
                ["cflags", sdk.cflags],
                ["documents", sdk.documentationDirectory],
                ["Rust bindings", sdk.rustBindings],
                ["found", sdk.layout == .installed ? "installed next to \(sdk.executable)" : "source checkout above \(sdk.executable)"],
            ]))
            Output.line()
            Output.line("Build a plugin:")
            Output.line("  cc -std=c11 -O2 -shared -fPIC $(hudhost sdk --cflags) ring.c -o libring.so")
            return .ok
        }
        if abiVersion { Output.line(Self.abiVersion) }
        if includeDir { Output.line(sdk.includeDirectory) }
        if cflags { Output.line(sdk.cflags) }
        if docDir { Output.line(sdk.documentationDirectory) }
        if pkgConfig { Output.out(sdk.pkgConfig(version: Self.abiVersion)) }
        return .ok
    }
}

/// Where `hud_renderer.h` is, found from the running hudhost binary.
struct SdkLocation {
    enum Layout: String {
        /// `<prefix>/include/hud` next to `<prefix>/bin/hudhost`.
        case installed
        /// `<repo>/Sources/HudRendererAPI/include/hud` above `<repo>/.build/...`.
        case sourceCheckout = "source-checkout"
    }

    static let headerName = "hud_renderer.h"
    static let checkoutIncludePath = "Sources/HudRendererAPI/include/hud"
    /// The SDK include directory below an installed prefix.
    static let installedIncludePath = "include/hud"

    /// The canonical directory holding the header.
    let includeDirectory: String
    let layout: Layout
    /// The hudhost binary it was found from.
    let executable: String

    var header: String { includeDirectory + "/" + Self.headerName }

    /// The generated Rust bindings (Sources/HudRendererAPI/bindings/rust in
    /// a checkout, `<prefix>/share/hud/rust` in an install).
    var rustBindings: String {
        let base = Self.parent(of: Self.parent(of: includeDirectory))
        return base + (layout == .installed ? "/share/hud/rust/" : "/bindings/rust/") + "hud_renderer.rs"
    }
    var cflags: String { "-I" + includeDirectory }

    /// The documents and `examples/`: `<prefix>/share/doc/hud` (`make
    /// install`) or the checkout's `Docs`.
    var documentationDirectory: String {
        let base = Self.parent(of: Self.parent(of: includeDirectory))
        return layout == .installed ? base + "/share/doc/hud" : Self.parent(of: Self.parent(of: base)) + "/Docs"
    }

    /// The path of the document `name` (`CONFORMANCE.md`, …).
    func documentation(_ name: String) -> String { documentationDirectory + "/" + name }

    /// A pkg-config file for the header (header-only: no Libs). For an
    /// install, every path is below `${prefix}`.
    func pkgConfig(version: String) -> String {
        if layout == .installed { return Self.pkgConfig(prefix: Self.parent(of: Self.parent(of: includeDirectory)), version: version) }
        let helper = (try? SandboxHelper.locate().get()).map(Self.parent(of:)) ?? Self.parent(of: executable)
        let renderers = SearchPaths.standard().directories.first { $0.hasSuffix("/.local/lib/hud/renderers") } ?? SearchPaths.systemDirectories[0]
        let prefix = Self.parent(of: Self.parent(of: includeDirectory))
        let includedir = includeDirectory == prefix + "/" + Self.installedIncludePath ? "${prefix}/" + Self.installedIncludePath : includeDirectory
        return Self.pkgConfigText(variables: [("prefix", prefix), ("includedir", includedir), ("rendererdir", renderers), ("helperdir", helper)],
                                  version: version)
    }

    /// The pkg-config file of an install at `prefix` (`make install`).
    static func pkgConfig(prefix: String, version: String) -> String {
        pkgConfigText(variables: [("prefix", prefix), ("includedir", "${prefix}/include/hud"),
                                  ("rendererdir", "${prefix}/lib/hud/renderers"), ("helperdir", "${prefix}/libexec/hud")],
                      version: version)
    }

    private static func pkgConfigText(variables: [(String, String)], version: String) -> String {
        """
        # hud-renderer.pc, written by `hudhost sdk --pkg-config`
        \(variables.map { "\($0.0)=\($0.1)" }.joined(separator: "\n"))
        abi_version=\(version)

        Name: hud-renderer
        Description: The Hudson HUD renderer ABI (hud_renderer.h) for renderer plugins
        Version: \(version)
        Cflags: -I${includedir}

        """
    }

    /// The header was nowhere to be found.
    struct NotFound: Error, CustomStringConvertible {
        let executable: String?
        /// Every header path tried, in order.
        let searched: [String]

        var description: String {
            let origin = executable.map { "from \($0)" } ?? "(the hudhost binary's path is unknown: /proc/self/exe and argv[0] did not resolve)"
            return """
                cannot find \(SdkLocation.headerName) \(origin). Looked at:
                \(searched.map { "  " + $0 }.joined(separator: "\n"))
                Install the headers as <prefix>/\(SdkLocation.installedIncludePath)/\(SdkLocation.headerName) next to <prefix>/bin/hudhost, \
                or run hudhost from a source checkout (swift run hudhost sdk).
                """
        }
    }

    /// The installed layout first, then a source checkout above the binary.
    static func find() -> Result<SdkLocation, NotFound> {
        guard let executable = executablePath() else { return .failure(NotFound(executable: nil, searched: [])) }
        var searched: [String] = []
        let binDirectory = parent(of: executable)
        let installed = parent(of: binDirectory) + "/" + installedIncludePath
        searched.append(installed + "/" + headerName)
        if isRegularFile(installed + "/" + headerName) {
            return .success(SdkLocation(includeDirectory: canonical(installed), layout: .installed, executable: executable))
        }
        var directory = binDirectory
        while true {
            let candidate = (directory == "/" ? "" : directory) + "/" + checkoutIncludePath
            searched.append(candidate + "/" + headerName)
            if isRegularFile(candidate + "/" + headerName) {
                return .success(SdkLocation(includeDirectory: canonical(candidate), layout: .sourceCheckout, executable: executable))
            }
            if directory == "/" { break }
            directory = parent(of: directory)
        }
        return .failure(NotFound(executable: executable, searched: searched))
    }

    /// The running binary: /proc/self/exe, else argv[0] if it names a path.
    static func executablePath() -> String? {
        if let path = realPath("/proc/self/exe") { return path }
        if let first = CommandLine.arguments.first, first.contains("/") { return realPath(first) }
        return nil
    }

    /// The directory part of an absolute path ("/" for "/x" and "/").
    static func parent(of path: String) -> String { PathSecurity.parent(of: path) }

    private static func isRegularFile(_ path: String) -> Bool {
        if case .success(let info) = SystemCalls.status(of: path) { info.isRegularFile } else { false }
    }

    private static func realPath(_ path: String) -> String? {
        try? SystemCalls.realPath(path).get()
    }

    private static func canonical(_ path: String) -> String { realPath(path) ?? path }
}
