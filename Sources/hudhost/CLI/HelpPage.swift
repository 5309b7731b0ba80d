// SPDX-License-Identifier: MIT

/// A command's documentation as data: its usage, description and sections,
/// whose option entries are the command's own option declarations. `--help`
/// prints it (`plain`), the man pages set it in roff (ManPage) and the
/// shell completions take the options' descriptions from the same
/// declarations, so the three cannot drift apart.
struct HelpPage: Sendable {
    /// The usage lines as printed after `USAGE: `; continuation lines carry
    /// their own indentation.
    var usage: String
    /// Paragraphs of prose, printed as written.
    var description: String
    var sections: [HelpSection]

    /// `--help`'s text.
    var plain: String {
        var text = "USAGE: \(usage)\n\n\(description)\n"
        for section in sections {
            text += "\n" + section.heading + "\n"
            for block in section.blocks {
                text += block.plain
            }
        }
        return String(text.dropLast())
    }

    /// The usage lines without their indentation, for the man page's synopsis.
    var usageLines: [String] { usage.split(separator: "\n").map { String($0).trimmingSpaces } }
}

/// One documented term: an option, an environment variable, an exit code.
struct HelpEntry: Sendable {
    /// One or more spellings (`-j`, `--jobs`; two environment variables).
    var names: [String]
    /// The value's placeholder, nil for a flag or a variable.
    var valueName: String?
    /// What it means: one paragraph, wrapped when printed.
    var text: String

    init(names: [String], valueName: String? = nil, text: String) {
        self.names = names
        self.valueName = valueName
        self.text = text
    }

    /// `-j N, --jobs N`.
    var term: String { names.map { name in valueName.map { "\(name) \($0)" } ?? name }.joined(separator: ", ") }
}

struct HelpSection: Sendable {
    var title: String
    /// Said after the title in parentheses: `EXIT CODES (the same for every command)`.
    var remark: String?
    var blocks: [HelpBlock]

    init(_ title: String, remark: String? = nil, _ blocks: [HelpBlock]) {
        self.title = title
        self.remark = remark
        self.blocks = blocks
    }

    var heading: String { remark.map { "\(title) (\($0))" } ?? title }

    /// `OPTIONS` made from option declarations.
    static func options(_ options: [Option]) -> HelpSection {
        HelpSection("OPTIONS", [.entries(options.map(\.entry))])
    }

    /// `EXAMPLES`: command lines, printed as written.
    static func examples(_ lines: String) -> HelpSection {
        HelpSection("EXAMPLES", [.literal(lines)])
    }

    /// The exit codes every command shares, then what `forCommand` adds.
    static func exitCodes(_ forCommand: String? = nil) -> HelpSection {
        HelpSection("EXIT CODES", remark: "the same for every command", [.entries(ExitCode.documented, column: 3)] + (forCommand.map { [.text($0)] } ?? []))
    }
}

enum HelpBlock: Sendable {
    /// Terms and what they mean, the meaning starting `column` characters
    /// after the section's indentation (on the next line when the term is
    /// wider).
    case entries([HelpEntry], column: Int = 20)
    /// Prose as written; filled into paragraphs in the man page.
    case text(String)
    /// Lines as written in both (examples, tables).
    case literal(String)

    /// The width `--help` wraps an entry's meaning to.
    static let width = 78

    /// The block's lines in `--help`, each indented two spaces under its heading.
    var plain: String {
        switch self {
        case .entries(let entries, let column):
            var text = ""
            for entry in entries {
                let lines = Self.wrapped(entry.text, width: Self.width - 2 - column)
                let term = entry.term
                let indent = String(repeating: " ", count: 2 + column)
                if term.count <= column - 2 {
                    text += "  " + term.padding(column) + (lines.first ?? "") + "\n"
                    text += lines.dropFirst().map { indent + $0 + "\n" }.joined()
                } else {
                    text += "  " + term + "\n" + lines.map { indent + $0 + "\n" }.joined()
                }
            }
            return text
        case .text(let lines), .literal(let lines):
            return lines.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "\n" : "  " + $0 + "\n" }.joined()
        }
    }

    /// `text`'s words in lines of at most `width` characters (a longer word
    /// stands alone). A comparison stays on one line: `0 < S ≤ 3600`.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var words: [String] = []
        var glued = false
        for word in text.split(separator: " ").map(String.init) {
            let isOperator = ["<", "≤", ">", "≥", "="].contains(word)
            if (isOperator || glued), let last = words.popLast() {
                words.append(last + " " + word)
            } else {
                words.append(word)
            }
            glued = isOperator
        }
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
