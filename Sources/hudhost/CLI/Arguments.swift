// SPDX-License-Identifier: MIT

/// One command-line option, declared once: the parser accepts it, a
/// command reads its value through it, and the `--help` entry, the man
/// page entry and the shell completions are all made from it.
struct Option: Sendable, Hashable {
    /// What an option's value is, for the shell completions.
    enum Value: Sendable, Hashable {
        /// Free text (a number, a title, an id).
        case text
        /// A path to a file.
        case file
        /// A path to a directory.
        case directory
        /// One of these words.
        case choices([String])
    }

    /// Every spelling, the short one first (`-j`, `--jobs`).
    let names: [String]
    /// The value's placeholder in the help (`PATH`, `ID`); nil for a flag.
    let valueName: String?
    /// What the value is; nil for a flag.
    let value: Value?
    let repeatable: Bool
    /// What the option does: one paragraph, wrapped when printed.
    let help: String

    /// The long spelling: the key values are kept under, and the name usage
    /// errors use.
    var name: String { names[names.count - 1] }

    static func flag(_ name: String, _ help: String) -> Option {
        Option(names: [name], valueName: nil, value: nil, repeatable: false, help: help)
    }

    static func value(_ name: String, _ valueName: String, _ value: Value, repeatable: Bool = false, _ help: String) -> Option {
        Option(names: [name], valueName: valueName, value: value, repeatable: repeatable, help: help)
    }

    /// An option whose value is free text.
    static func value(_ name: String, _ valueName: String, repeatable: Bool = false, aliases: [String] = [], _ help: String) -> Option {
        Option(names: aliases + [name], valueName: valueName, value: .text, repeatable: repeatable, help: help)
    }

    /// `-h`, `--help`: accepted by every command and never listed in its
    /// options.
    static let helpFlag = Option(names: ["-h", "--help"], valueName: nil, value: nil, repeatable: false, help: "show this command's help")

    /// The entry in the help and the man page.
    var entry: HelpEntry { HelpEntry(names: names, valueName: valueName, text: help) }
}

/// A parsed command line for one subcommand: options declared up front,
/// so unknown or malformed input is a usage error before any work starts.
struct Arguments {
    private var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    init(_ raw: [String], options: [Option]) throws(UsageError) {
        let declared = options + [Option.helpFlag]
        var byName: [String: Option] = [:]
        for option in declared {
            for name in option.names { byName[name] = option }
        }
        var index = 0
        var onlyPositionals = false
        while index < raw.count {
            let word = raw[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name = word
            var inline: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inline = String(word[word.index(after: equals)...])
            }
            guard let option = byName[name] else {
                let suggestion = declared.flatMap(\.names).min { Suggestion.distance($0, name) < Suggestion.distance($1, name) }
                let hint = suggestion.flatMap { Suggestion.distance($0, name) <= 3 ? " (did you mean \($0)?)" : nil } ?? ""
                throw UsageError("unknown option '\(name)'\(hint)")
            }
            let value: String
            if option.valueName != nil {
                if let inline {
                    value = inline
                } else {
                    guard index < raw.count else { throw UsageError("option '\(name)' needs a value") }
                    value = raw[index]
                    index += 1
                }
            } else {
                guard inline == nil else { throw UsageError("option '\(name)' takes no value") }
                value = ""
            }
            if !option.repeatable, values[option.name] != nil {
                throw UsageError("option '\(option.names.joined(separator: "/"))' was given more than once")
            }
            values[option.name, default: []].append(value)
        }
    }

    func flag(_ option: Option) -> Bool { values[option.name] != nil }
    func value(_ option: Option) -> String? { values[option.name]?.last }
    func all(_ option: Option) -> [String] { values[option.name] ?? [] }

    /// A value parsed by `parse`, or a usage error naming the option and the accepted values.
    func value<T>(_ option: Option, accepted: String, _ parse: (String) -> T?) throws(UsageError) -> T? {
        guard let raw = value(option) else { return nil }
        guard let parsed = parse(raw) else { throw UsageError("invalid value '\(raw)' for \(option.name); expected \(accepted)") }
        return parsed
    }
}

/// Bad command-line input: exit code 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
