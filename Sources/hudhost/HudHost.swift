// SPDX-License-Identifier: MIT
import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudSystem

/// The hudhost command-line tool: finds, loads, probes and drives HUD
/// renderers. One type per subcommand (Commands/); this type dispatches.
@main
enum HudHost {
    static let commands = [
        CommandEntry(ListCommand.self),
        CommandEntry(ProbeCommand.self),
        CommandEntry(RenderCommand.self),
        CommandEntry(DemoCommand.self),
        CommandEntry(PreviewCommand.self),
        CommandEntry(WhyCommand.self),
        CommandEntry(CacheCommand.self),
        CommandEntry(DoctorCommand.self),
        CommandEntry(SdkCommand.self),
        CommandEntry(ValidateCommand.self),
        CommandEntry(SnapshotCommand.self),
        CommandEntry(GalleryCommand.self),
        CommandEntry(NewCommand.self),
        CommandEntry(CompletionsCommand.self),
        CommandEntry(ManCommand.self),
    ]

    /// hudhost's release; `--version` prints it with the ABI version.
    static let version = "1.0.0"

    /// The commands a user sees: in the usage list, the man pages and the
    /// completions.
    static var documentedCommands: [CommandEntry] { commands.filter { !$0.isHidden && !$0.name.hasPrefix("_") } }

    /// The words accepted before a command.
    static let globalOptions = [
        Option.flag("--version", "print hudhost's version and the renderer ABI version"),
        Option.flag("--require-sandbox", "run plugin code only where every sandbox layer is active (the same as HUD_REQUIRE_SANDBOX=1; see `hudhost doctor` and hud-isolation(7))"),
        Option.flag("--verbose", "(before the command) show what plugin code printed in its sandboxed children even when they did not fail; a failed child's output is always shown, each line escaped and prefixed with [renderer or file]"),
    ]

    /// The tool's own help: the commands and the global options.
    static var help: HelpPage {
        HelpPage(
            usage: "hudhost <command> [options]\n       hudhost --version",
            description: "Run `hudhost <command> --help` for a command's options and examples.",
            sections: [
                HelpSection("COMMANDS", [.entries(documentedCommands.map { HelpEntry(names: [$0.name], text: $0.summary) }, column: 13)]),
                HelpSection("GLOBAL OPTIONS", [.entries(globalOptions.map(\.entry))]),
                .exitCodes(),
            ])
    }

    static var usage: String { "hudhost — the Hudson HUD renderer host\n\n" + help.plain }

    static func main() {
        Output.configure()
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--require-sandbox") {
            // Before any thread or child exists: every sandboxed child inherits it.
            arguments.removeAll { $0 == "--require-sandbox" }
            SystemCalls.setEnvironment("HUD_REQUIRE_SANDBOX", "1")
        }
        // Global, so only before the command (validate has a --verbose of its own, which also shows it).
        let verbose = arguments.first == "--verbose" || (arguments.count > 1 && arguments[0] == "validate" && arguments.contains("--verbose"))
        if arguments.first == "--verbose" { arguments.removeFirst() }
        // What plugin code printed in a sandboxed child: to stderr, each line
        // escaped and prefixed with its renderer or file; a failed child's
        // always, every child's with --verbose (Docs/ISOLATION.md).
        PluginOutputLog.install(everything: verbose) { output in
            Output.error(output.displayLines.joined(separator: "\n"))
        }
        let status = Output.finish(run(arguments))
        // The status is hudhost's: everything was written with write(2), so
        // nothing is buffered, and `_exit` runs no atexit handler or ELF
        // destructor of a loaded plugin that could crash or change it.
        SystemCalls.exitImmediately(status.rawValue)
    }

    static func run(_ arguments: [String]) -> ExitCode {
        guard let name = arguments.first else {
            Output.error(usage)
            return .usage
        }
        if name == "--version" {
            Output.line("hudhost \(version) (renderer ABI \(SdkCommand.abiVersion))")
            return .ok
        }
        if ["--help", "-h", "help"].contains(name) {
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                Output.out(command.help.plain + "\n")
            } else {
                Output.out(usage + "\n")
            }
            return .ok
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Output.error("hudhost: unknown command '\(name)'; commands: \(documentedCommands.map(\.name).joined(separator: ", "))")
            return .usage
        }
        let result: Result<ExitCode, UsageError>
        do {
            let parsed = try Arguments(Array(arguments.dropFirst()), options: command.options)
            if parsed.flag(Option.helpFlag) {
                Output.out(command.help.plain + "\n")
                return .ok
            }
            result = command.execute(parsed)
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let code):
            return code
        case .failure(let error):
            // With --json, stdout stays a JSON document even for usage errors.
            error.report(command: name, json: wantsJSON(arguments))
            return .usage
        }
    }
}

/// True when the command line asks for JSON output (`--json`,
/// `--format json`, `--format=json`), judged from the words alone.
func wantsJSON(_ arguments: [String]) -> Bool {
    arguments.contains("--json") || arguments.contains("--format=json")
        || zip(arguments, arguments.dropFirst()).contains { $0 == "--format" && $1 == "json" }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
