// SPDX-License-Identifier: MIT
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport
import Testing

/// The terminal picture's mode picker: every label on its own columns, a
/// blank column between neighbours, inside the card's border, cut with `…`
/// only when the row is too narrow for all of them.
struct AsciiPresenterTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var style: HudPhoneComplicationsStyle
        var columns: Int
        var direction: HudLayoutDirection
        var testDescription: String { "\(style) \(columns) columns \(direction.rawValue)" }
    }

    static let cases: [Case] = [HudPhoneComplicationsStyle.tray, .scattered, .minimal].flatMap { style in
        [30, 40, 48, 64, 80, 120].flatMap { columns in
            HudLayoutDirection.allCases.map { Case(style: style, columns: columns, direction: $0) }
        }
    }

    static func picture(_ c: Case) throws -> [String] {
        let registry = RendererRegistry.withBuiltins()
        let environment = HudEnvironment(device: .iphone16Pro, layoutDirection: c.direction, navigationTitle: "Home")
        let snapshot = try ComplicationsSnapshot(DemoComplications.make(renderers: registry.renderers) { _ in })
        let layout = try registry.layout(style: c.style, snapshot: snapshot, environment: environment,
                                         interaction: HudInteraction(revealedPosition: .center))
        return AsciiPresenter(columns: c.columns).render(layout, environment: environment).split(separator: "\n").map(String.init)
    }

    /// The `[…]` tokens of a line, or nil if brackets do not pair up.
    static func labels(in line: String) -> [String]? {
        var tokens: [String] = []
        var current: String?
        for character in line {
            switch character {
            case "[":
                guard current == nil else { return nil }
                current = "["
            case "]":
                guard let open = current else { return nil }
                tokens.append(open + "]")
                current = nil
            default:
                current?.append(character)
            }
        }
        return current == nil ? tokens : nil
    }

    @Test(arguments: cases)
    func pickerLabelsNeverMergeAndKeepTheCardsBorder(_ c: Case) throws {
        let lines = try Self.picture(c)
        let row = try #require(lines.firstIndex { $0.contains("[") }, "no mode label in:\n\(lines.joined(separator: "\n"))")
        let line = lines[row]
        let tokens = try #require(Self.labels(in: line), "unpaired brackets: \(line)")
        #expect(tokens.count == 3, "\(line)")
        #expect(!line.contains("]["), "two labels touch: \(line)")
        let full = ["[Tray]", "[Scattered]", "[Minimal]"]
        let order = c.direction == .leftToRight ? full : full.reversed()
        for (token, label) in zip(tokens, order) {
            #expect(token == label || (token.hasSuffix("…]") && label.hasPrefix(String(token.dropLast(2)))), "\(token) is not \(label) cut short: \(line)")
        }
        // The card's border on both sides of the labels.
        let first = try #require(line.firstIndex(of: "[")), last = try #require(line.lastIndex(of: "]"))
        #expect(line[..<first].contains("│") && line[line.index(after: last)...].contains("│"), "the labels cover the card's border: \(line)")
        if c.columns >= 80 { #expect(tokens == order, "room for every label, yet cut: \(line)") }
        // Only this row has labels: none spilled into another.
        #expect(lines.enumerated().allSatisfy { $0.offset == row || !$0.element.contains("[") })
    }

    @Test func columnsAreSharedWithShortLabelsServedFirst() {
        #expect(AsciiPresenter.share(100, among: [6, 11, 9]) == [6, 11, 9])
        #expect(AsciiPresenter.share(24, among: [6, 11, 9]) == [6, 9, 9])
        #expect(AsciiPresenter.share(10, among: [6, 11, 9]) == [3, 4, 3])
        #expect(AsciiPresenter.share(0, among: [6, 11]) == [0, 0])
        #expect(AsciiPresenter.share(-3, among: [6]) == [0])
    }

    @Test func aLabelIsCutToItsColumnsWithAnEllipsis() {
        #expect(AsciiPresenter.fit("Scattered", width: 11) == "[Scattered]")
        #expect(AsciiPresenter.fit("Scattered", width: 20) == "[Scattered]")
        #expect(AsciiPresenter.fit("Scattered", width: 9) == "[Scatte…]")
        #expect(AsciiPresenter.fit("Scattered", width: 3) == "[…]")
        #expect(AsciiPresenter.fit("Scattered", width: 2) == "…")
        #expect(AsciiPresenter.fit("Scattered", width: 0) == "")
    }
}
