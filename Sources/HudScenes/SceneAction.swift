// SPDX-License-Identifier: MIT
public import HudRegistry
/// A named action in a scene file. Scene files cannot carry closures, so a
/// slot's action is a small command the host carries out when it fires.
public enum SceneAction: Sendable, Hashable, CustomStringConvertible {
    /// Record a line in the action log.
    case log(String)
    /// Switch the shell to another render style.
    case style(HudPhoneComplicationsStyle)
    /// Push a page with this title.
    case push(String)
    /// Pop the top page.
    case pop

    /// Parses `log:<text>`, `style:<id>`, `push:<title>` or `pop`.
    public init?(parsing text: String) {
        if text == "pop" {
            self = .pop
            return
        }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let verb = text[..<colon]
        let argument = String(text[text.index(after: colon)...])
        switch verb {
        case "log": self = .log(argument)
        case "style" where !argument.isEmpty: self = .style(HudPhoneComplicationsStyle(name: argument))
        case "push" where !argument.isEmpty: self = .push(argument)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .log(let text): "log:\(text)"
        case .style(let style): "style:\(style)"
        case .push(let title): "push:\(title)"
        case .pop: "pop"
        }
    }
}

extension HudPhoneAppShell {
    /// Carries out a scene's named action. Style changes and navigation take
    /// effect at the next layout; each is reported as a `ShellEvent`.
    /// `pages` supplies the page for `push:<title>` (a scene's page table);
    /// without one, or for an unknown title, an empty page is pushed.
    public func perform(_ action: SceneAction, pages: (String) -> HudPage? = { _ in nil }) {
        switch action {
        case .log(let text):
            record(.log(text))
        case .style(let style):
            let previous = complicationsStyle
            complicationsStyle = style
            if previous != style { record(.styleChanged(from: previous, to: style)) }
        case .push(let title):
            push(pages(title) ?? HudPage(title: title))
        case .pop:
            pop()
        }
    }
}
