// SPDX-License-Identifier: MIT

/// A command's `--help` text read back as a document: the usage lines, the
/// description, and each section (OPTIONS, ENVIRONMENT, EXAMPLES, …) with
/// its option entries. The man pages and the shell completions are made
/// from this and from the command's option declarations, and a test holds
/// the two together (every declared option is documented here, every
/// option documented here is declared), so help, man and completions
/// cannot drift apart.
struct HelpDocument {
    /// One documented option: `--name ARG   what it does`. A line may name
    /// several options (`--reduce-transparency, --increase-contrast`).
    struct Entry {
        var names: [String]
        /// The value's placeholder (`ID`, `FILE`), nil for a flag.
        var valueName: String?
        /// The description, continuation lines joined with spaces.
        var text: String
    }

    struct Section {
        var title: String
        /// The section's lines, their common indentation removed.
        var lines: [String]
        /// The option entries found in the section (OPTIONS, ENVIRONMENT
        /// and any section whose lines start with `-`).
        var entries: [Entry]
    }

    /// `USAGE:` and its continuation lines, without the `USAGE:` word.
    var usage: [String]
    /// The paragraphs between the usage and the first section.
    var description: [String]
    var sections: [Section]

    /// Every entry in every section.
    var entries: [Entry] { sections.flatMap(\.entries) }

    /// The description of option `name`, if documented.
    func text(for name: String) -> String? {
        entries.first { $0.names.contains(name) }?.text
    }

    init(_ help: String) {
        var usage: [String] = []
        var description: [String] = []
        var sections: [Section] = []
        var inUsage = false
        for raw in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let line = raw.droppingTrailingSpaces
            if line.hasPrefix("USAGE:") {
                inUsage = true
                usage.append(String(line.dropFirst("USAGE:".count)).trimmingSpaces)
                continue
            }
            if let (title, remark) = Self.heading(line) {
                inUsage = false
                sections.append(Section(title: title, lines: remark.map { [$0, ""] } ?? [], entries: []))
                continue
            }
            if inUsage {
                if line.isEmpty { inUsage = false } else { usage.append(line.trimmingSpaces) }
                continue
            }
            if sections.isEmpty {
                description.append(line)
            } else {
                sections[sections.count - 1].lines.append(line)
            }
        }
        self.usage = usage
        self.description = Self.paragraphs(description)
        self.sections = sections.map { section in
            var section = section
            section.lines = Self.dedented(Self.trimmed(section.lines))
            section.entries = Self.entries(in: section.lines)
            return section
        }
    }

    /// A heading: upper-case words alone on an unindented line, perhaps
    /// followed by a remark in parentheses (`EXIT CODES (the same for
    /// every command)`), returned separately.
    private static func heading(_ line: String) -> (title: String, remark: String?)? {
        guard let first = line.first, first.isUppercase else { return nil }
        var title = line
        var remark: String?
        if let open = line.firstRange(of: " ("), line.hasSuffix(")") {
            title = String(line[..<open.lowerBound])
            remark = String(line[open.upperBound...].dropLast())
        }
        guard title.count >= 4, title.allSatisfy({ $0.isUppercase || $0 == " " }) else { return nil }
        return (title, remark.map { $0.prefix(1).uppercased() + $0.dropFirst() + "." })
    }

    /// Option entries: a line starting with `-` (after the section's
    /// indentation) begins one; more-indented lines continue it.
    private static func entries(in lines: [String]) -> [Entry] {
        var entries: [Entry] = []
        var continuing = false
        for line in lines {
            let indent = line.prefix { $0 == " " }.count
            let body = line.trimmingSpaces
            if indent == 0, body.hasPrefix("-") || Self.isEnvironmentName(body) || Self.isCode(body) {
                entries.append(entry(from: body))
                continuing = true
            } else if continuing, indent > 0, !body.isEmpty, var last = entries.popLast() {
                last.text = last.text.isEmpty ? body : last.text + " " + body
                entries.append(last)
            } else {
                continuing = false
            }
        }
        return entries
    }

    /// `HUD_ISOLATION       text` or `HUD_RENDERERS_DISABLE, HUD_RENDERERS_SELECT`.
    private static func isEnvironmentName(_ body: String) -> Bool {
        let word = body.prefix { $0 != " " && $0 != "," }
        return word.count > 2 && word.allSatisfy { $0.isUppercase || $0 == "_" || $0.isNumber } && word.contains("_")
    }

    /// `0  success`: an exit code and what it means.
    private static func isCode(_ body: String) -> Bool {
        let word = body.prefix { $0 != " " }
        return !word.isEmpty && word.allSatisfy(\.isNumber) && body.dropFirst(word.count).hasPrefix("  ")
    }

    /// Splits `--name ARG   text` at the first run of two or more spaces.
    private static func entry(from body: String) -> Entry {
        var head = body
        var text = ""
        if let gap = body.firstRange(of: "  ") {
            head = String(body[..<gap.lowerBound])
            text = String(body[gap.upperBound...]).trimmingSpaces
        }
        var names: [String] = []
        var valueName: String?
        for part in head.split(separator: ",").map({ String($0).trimmingSpaces }) {
            let words = part.split(separator: " ", maxSplits: 1).map(String.init)
            var name = words[0]
            if let equals = name.firstIndex(of: "=") {
                valueName = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            names.append(name)
            if words.count > 1 { valueName = words[1] }
        }
        return Entry(names: names, valueName: valueName, text: text)
    }

    private static func trimmed(_ lines: [String]) -> [String] {
        var lines = lines
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    private static func dedented(_ lines: [String]) -> [String] {
        let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) }
    }

    /// Lines joined into paragraphs at blank lines.
    private static func paragraphs(_ lines: [String]) -> [String] {
        var paragraphs: [String] = []
        var current: [String] = []
        for line in lines + [""] {
            if line.trimmingSpaces.isEmpty {
                if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
                current = []
            } else {
                current.append(line.trimmingSpaces)
            }
        }
        return paragraphs
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

    var droppingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
