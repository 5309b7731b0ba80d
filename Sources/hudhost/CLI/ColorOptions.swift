// SPDX-License-Identifier: MIT
import HudSystem

/// `--color auto|always|never`, shared by every command that colours its
/// text (validate, why, doctor). Colour is decided for the descriptor the
/// text is actually written to: hudhost's own stdout (never descriptor 1,
/// which points at stderr while plugin code may run), or a file.
struct ColorOptions {
    enum When: String, CaseIterable {
        case auto, always, never
    }

    static let color = Option.value("--color", "WHEN", .choices(When.allCases.map(\.rawValue)), "auto (default): colour only when the text goes to a terminal, TERM is not \"dumb\" and NO_COLOR is unset or empty; always; never")

    let when: When

    init(_ arguments: Arguments) throws(UsageError) {
        when = try arguments.value(Self.color, accepted: "auto, always or never", When.init(rawValue:)) ?? .auto
    }

    /// Colour for text written to hudhost's stdout.
    var forStandardOutput: Bool { enabled(writingToTerminal: Output.standardOutputIsTerminal) }

    /// Colour for text written somewhere that is (or is not) a terminal;
    /// a file given with `--output` is not.
    func enabled(writingToTerminal terminal: Bool) -> Bool {
        switch when {
        case .always: true
        case .never: false
        case .auto: terminal && Self.environmentAllowsColor
        }
    }

    /// NO_COLOR (https://no-color.org): set and non-empty disables colour
    /// in auto mode; so does TERM=dumb.
    static var environmentAllowsColor: Bool {
        let noColor = SystemCalls.secureEnvironment("NO_COLOR") ?? ""
        return noColor.isEmpty && SystemCalls.secureEnvironment("TERM") != "dumb"
    }

    /// `text` in the SGR colour `code` (e.g. "32" green, "1;31" bold red) when `enabled`.
    static func paint(_ text: String, _ code: String, _ enabled: Bool) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
