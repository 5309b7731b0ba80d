// SPDX-License-Identifier: MIT
import Glibc
import HudSystem

/// `HUD_RENDERERS_DISABLE` and `HUD_RENDERERS_SELECT`: comma-separated,
/// case-insensitive globs (`*`, `?`, `[...]`) on renderer ids. Disable is
/// applied first; when a select list is given, only matching ids remain.
public struct RendererFilters: Sendable, Hashable {
    public var disable: [String]
    public var select: [String]

    public init(disable: [String] = [], select: [String] = []) {
        self.disable = disable.map { $0.lowercased() }
        self.select = select.map { $0.lowercased() }
    }

    public static let none = RendererFilters()

    /// The filters the environment asks for (ignored when elevated).
    public static func fromEnvironment() -> RendererFilters {
        func list(_ name: String) -> [String] {
            (SearchPaths.secureEnvironment(name) ?? "").split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        }
        return RendererFilters(disable: list("HUD_RENDERERS_DISABLE"), select: list("HUD_RENDERERS_SELECT"))
    }

    /// Why `id` is filtered out, or nil when it may be used.
    public func exclusion(for id: String) -> String? {
        guard !isEmpty else { return nil }  // the common case: no filter set
        let lower = id.lowercased()
        if let pattern = disable.first(where: { SystemCalls.matches(pattern: $0, lower) }) {
            return "disabled by HUD_RENDERERS_DISABLE pattern '\(pattern)'"
        }
        if !select.isEmpty, !select.contains(where: { SystemCalls.matches(pattern: $0, lower) }) {
            return "not selected by HUD_RENDERERS_SELECT (\(select.joined(separator: ",")))"
        }
        return nil
    }

    public var isEmpty: Bool { disable.isEmpty && select.isEmpty }
}
