// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe
/// A parsed command line for one subcommand: options declared up front,
/// so unknown or malformed input is a usage error before any work starts.
struct Arguments {
    struct Option: Sendable {
        /// What an option's value is, for the shell completions.
        enum Value: Sendable, Equatable {
            /// Free text (a number, a title, an id).
            case text
            /// A path to a file.
            case file
            /// A path to a directory.
            case directory
            /// One of these words.
            case choices([String])
        }

        let name: String
        let takesValue: Bool
        let repeatable: Bool
        let value: Value?

        static func flag(_ name: String) -> Option { Option(name: name, takesValue: false, repeatable: false, value: nil) }
        static func value(_ name: String, _ value: Value = .text, repeatable: Bool = false) -> Option {
            Option(name: name, takesValue: true, repeatable: repeatable, value: value)
        }
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    init(_ raw: [String], options: [Option]) throws(UsageError) {
        let byName = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
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
            if name == "-h" { name = "--help" }
            guard let option = byName[name] else {
                let suggestion = options.map(\.name).min { Self.distance($0, name) < Self.distance($1, name) }
                let hint = suggestion.flatMap { Self.distance($0, name) <= 3 ? " (did you mean \($0)?)" : nil } ?? ""
                throw UsageError("unknown option '\(name)'\(hint)")
            }
            let value: String
            if option.takesValue {
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
            if !option.repeatable, values[name] != nil {
                throw UsageError("option '\(name)' was given more than once")
            }
            values[name, default: []].append(value)
        }
    }

    func flag(_ name: String) -> Bool { values[name] != nil }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// A value parsed by `parse`, or a usage error naming the option and the accepted values.
    func value<T>(_ name: String, accepted: String, _ parse: (String) -> T?) throws(UsageError) -> T? {
        guard let raw = value(name) else { return nil }
        guard let parsed = parse(raw) else { throw UsageError("invalid value '\(raw)' for \(name); expected \(accepted)") }
        return parsed
    }

    private static func distance(_ a: String, _ b: String) -> Int { Suggestion.distance(a, b) }
}

/// Bad command-line input: exit code 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
