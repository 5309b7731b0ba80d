// SPDX-License-Identifier: MIT

/// `hudhost completions SHELL`: the completion script for bash, zsh or fish,
/// made from the commands' option declarations and help (Completions).
struct CompletionsCommand: Command {
    static let name = "completions"
    static let summary = "Print the shell completion script for bash, zsh or fish"
    static let options: [Option] = []
    static let arguments: Option.Value? = .choices(Completions.Shell.allCases.map(\.rawValue))
    static let help = HelpPage(
        usage: "hudhost completions <bash | zsh | fish>",
        description: """
            Prints a completion script for hudhost's commands, options and option
            values (device ids, formats, profiles, files). It is made from the same
            option declarations as --help and the man pages, so the three always
            agree. `make install` installs all three scripts where the shells look
            for them.
            """,
        sections: [
            .examples("""
                source <(hudhost completions bash)
                hudhost completions zsh > ~/.zsh/completions/_hudhost
                hudhost completions fish > ~/.config/fish/completions/hudhost.fish
                """),
            .exitCodes(),
        ])

    let shell: Completions.Shell

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError("completions takes one shell: \(Completions.Shell.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let shell = Completions.Shell(rawValue: arguments.positionals[0]) else {
            throw UsageError("unknown shell '\(arguments.positionals[0])'; expected \(Completions.Shell.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.shell = shell
    }

    func run() -> ExitCode {
        Output.out(Completions.script(for: shell, commands: HudHost.documentedCommands))
        return .ok
    }
}

/// `hudhost _man DIR`: writes hudhost.1 and one hudhost-COMMAND.1 per
/// command into DIR (used by `make install`; hidden from the usage list).
struct ManCommand: Command {
    static let name = "_man"
    static let summary = "Write the man pages into a directory"
    static let isHidden = true
    static let options: [Option] = []
    static let help = HelpPage(
        usage: "hudhost _man <directory>",
        description: """
            Writes hudhost.1 and hudhost-<command>.1 for every command into the
            directory (created if missing), made from each command's help.
            """,
        sections: [.exitCodes()])

    let directory: String

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else { throw UsageError("_man takes one directory") }
        directory = Output.absolute(arguments.positionals[0])
    }

    func run() -> ExitCode {
        if let error = Output.makeDirectory(directory) {
            Output.error("hudhost _man: error: \(error)")
            return .unusableTarget
        }
        let commands = HudHost.documentedCommands
        var pages = [("hudhost.1", ManPage.tool(commands: commands, version: HudHost.version))]
        pages += commands.map { ("hudhost-\($0.name).1", ManPage.command($0, version: HudHost.version)) }
        for (name, page) in pages {
            if let error = Output.writeFile(directory + "/" + name, page) {
                Output.error("hudhost _man: error: \(error)")
                return .unusableTarget
            }
        }
        Output.line("wrote \(pages.count) man pages to \(directory)")
        return .ok
    }
}
