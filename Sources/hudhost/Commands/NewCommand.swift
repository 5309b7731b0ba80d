// SPDX-License-Identifier: MIT
import HudModel
import HudRegistry
import HudSystem

/// `hudhost new`: scaffolds a renderer plugin project in C, Rust or Swift
/// from the templates in Plugins/Templates (carried inside hudhost, see
/// ScaffoldTemplates), wired to this hudhost's SDK, that builds with one
/// command and passes `validate --profile strict`.
struct NewCommand: Command {
    static let name = "new"
    static let summary = "Create a renderer plugin project (C, Rust or Swift) that builds and validates"
    static let arguments: Option.Value? = .directory
    static let languages = ["c", "rust", "swift"]
    static let lang = Option.value("--lang", "L", .choices(languages), "c (default), rust or swift")
    static let id = Option.value("--id", "ID", "the renderer id, lowercase reverse-DNS (default org.example.<directory name>)")
    static let displayName = Option.value("--name", "NAME", "the display name (default: the id's last label, capitalised)")
    static let options = [lang, id, displayName]
    static let help = HelpPage(
        usage: "hudhost new [--lang c|rust|swift] [--id ID] [--name NAME] <directory>",
        description: """
            Creates <directory> (it must not exist, or be empty) holding a renderer
            plugin project: the "Starter" style, a small but complete renderer
            (every slot at its position, secondary chips, the long-press mode
            picker, RTL, accessibility labels) that passes `hudhost validate
            --profile strict` as it is. Change it from there.

            The project is wired to this hudhost's SDK (`hudhost sdk`): C gets
            sdk/hud-renderer.pc for pkg-config, Rust a copy of the generated
            #[repr(C)] bindings (src/hud_renderer.rs), Swift a module map naming
            the SDK's header. Each builds with one command:
              c       make                               -> lib<name>.so
              rust    cargo build --release --offline    -> target/release/lib<name>.so
              swift   swift build -c release             -> .build/release/lib<name>.so
            and its README says how to validate and install it.
            """,
        sections: [
            .options(options),
            .examples("""
                hudhost new --lang c --id com.example.glow glow && make -C glow
                hudhost new --lang rust rings && (cd rings && cargo build --release --offline)
                hudhost new --lang swift --name "Night Shift" nightshift
                """),
            .exitCodes(),
        ])

    let language: String
    let directory: String
    let id: String
    let displayName: String

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else { throw UsageError("new takes one directory; got \(arguments.positionals.count) arguments") }
        language = try arguments.value(Self.lang, accepted: Self.languages.joined(separator: ", ")) { Self.languages.contains($0) ? $0 : nil } ?? "c"
        directory = Output.absolute(arguments.positionals[0])
        let base = String(directory.split(separator: "/").last ?? "")
        if let chosen = arguments.value(Self.id) {
            id = chosen
        } else {
            id = "org.example." + Self.label(from: base)
        }
        if let problem = RendererInfo.idProblem(id) { throw UsageError("invalid --id: \(problem)") }
        guard id.utf8.count < 64 else { throw UsageError("invalid --id: '\(id)' is longer than 63 bytes") }
        let last = String(id.split(separator: ".").last ?? "starter")
        displayName = arguments.value(Self.displayName) ?? (last.prefix(1).uppercased() + last.dropFirst())
        guard !displayName.isEmpty, displayName.utf8.count < 128, displayName.allSatisfy({ !$0.isNewline && $0 != "\"" && $0 != "\\" }) else {
            throw UsageError("invalid --name '\(displayName)': 1 to 127 bytes, no quotes, backslashes or line breaks")
        }
    }

    /// A renderer-id label from a directory name: lowercase, [a-z0-9-].
    static func label(from name: String) -> String {
        let mapped = String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
        let trimmed = mapped.split(separator: "-").joined(separator: "-")
        return trimmed.isEmpty ? "starter" : trimmed
    }

    /// Words C, Rust, Swift or Cargo reserve: an identifier never is one.
    static let reservedWords: Set<String> = [
        "as", "async", "await", "break", "case", "char", "class", "const", "continue", "crate", "default", "do", "double", "dyn",
        "else", "enum", "extern", "false", "float", "fn", "for", "func", "goto", "if", "impl", "import", "in", "int", "let", "long",
        "loop", "match", "mod", "move", "mut", "nil", "pub", "ref", "return", "self", "short", "signed", "sizeof", "static",
        "struct", "super", "switch", "test", "trait", "true", "try", "type", "typedef", "union", "unsafe", "unsigned", "use",
        "var", "void", "where", "while",
    ]

    /// An identifier for C, Rust and Swift ([a-z][a-z0-9_]*) from the id's
    /// last label: `-` becomes `_`, a leading digit gets `r_`, a reserved
    /// word gets `_style`.
    static func identifier(from id: String) -> String {
        let last = String(id.split(separator: ".").last ?? "starter")
        var ident = String(last.map { $0 == "-" ? "_" : $0 })
        if ident.first?.isNumber == true { ident = "r_" + ident }
        if reservedWords.contains(ident) { ident += "_style" }
        return ident
    }

    func run() -> ExitCode {
        let sdk: SdkLocation
        switch SdkLocation.find() {
        case .success(let found): sdk = found
        case .failure(let error):
            Output.error("hudhost new: error: \(error)")
            return .failure
        }
        if let problem = Self.unusableDirectory(directory) {
            Output.error("hudhost new: error: cannot create the project in \(directory): \(problem)")
            return .unusableTarget
        }
        let ident = Self.identifier(from: id)
        let substitutions = [("@ID@", id), ("@NAME@", displayName), ("@IDENT@", ident), ("@LIB@", ident), ("@HUD_HEADER@", sdk.header)]
        var files = ScaffoldTemplates.files(for: language).map { file in
            (file.path, substitutions.reduce(file.contents) { text, pair in text.replacing(pair.0, with: pair.1) })
        }
        switch language {
        case "c":
            files.append(("sdk/hud-renderer.pc", sdk.pkgConfig(version: SdkCommand.abiVersion)))
        case "rust":
            switch Output.readRegularFile(sdk.rustBindings) {
            case .success(let bytes): files.append(("src/hud_renderer.rs", String(decoding: bytes, as: UTF8.self)))
            case .failure(let error):
                Output.error("hudhost new: error: the SDK's Rust bindings are missing: \(error)")
                return .failure
            }
        default: break
        }
        for (path, contents) in files {
            let target = directory + "/" + path
            if let error = Output.makeDirectory(PathSecurity.parent(of: target)) ?? Output.writeFile(target, contents) {
                Output.error("hudhost new: error: \(error)")
                return .unusableTarget
            }
        }
        let (build, library) = switch language {
        case "rust": ("cargo build --release --offline", "target/release/lib\(ident).so")
        case "swift": ("swift build -c release", ".build/release/lib\(ident).so")
        default: ("make", "lib\(ident).so")
        }
        Output.line("Created \(language) renderer plugin '\(id)' (\(displayName)) in \(directory): \(files.count) files.")
        Output.line("Build it:     cd \(directory) && \(build)")
        Output.line("Validate it:  hudhost validate --profile strict \(directory)/\(library)")
        Output.line("Read:         \(directory)/README.md (what to change, how to install)")
        return .ok
    }

    /// Why the project cannot go in `path`, or nil (missing or empty).
    static func unusableDirectory(_ path: String) -> String? {
        switch SystemCalls.status(of: path) {
        case .failure: return nil
        case .success(let info):
            guard info.isDirectory else { return "it exists and is not a directory" }
            switch SystemCalls.directoryEntries(path) {
            case .success(let entries): return entries.isEmpty ? nil : "the directory is not empty (\(entries.count) entries); choose a new one"
            case .failure(let error): return "it cannot be read: \(error)"
            }
        }
    }
}
