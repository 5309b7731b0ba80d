// SPDX-License-Identifier: MIT
import Foundation
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport
import Testing

/// The SVG's own chrome text — the status bar's time, the navigation title
/// — reads on what is actually behind it (WCAG 1.4.3, 4.5:1: neither is
/// large text), for every scheme and appearance, on the background the
/// chrome's palette implies and on the opposite one.
struct ChromeContrastTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var device: DevicePreset
        var scheme: HudColorScheme
        var appearance: HudPhoneAppShellAppearance
        var matchingBackground: Bool
        var testDescription: String { "\(device.id) \(scheme.rawValue) \(appearance.rawValue) \(matchingBackground ? "own" : "opposite") background" }

        var environment: HudEnvironment {
            HudEnvironment(device: device, colorScheme: scheme, appearance: appearance, navigationTitle: "Home")
        }
        var background: HudColor {
            let own = environment.chromePalette
            return matchingBackground ? own.bg : (own == HudPalette.light ? HudPalette.stable.bg : HudPalette.light.bg)
        }
    }

    static let cases: [Case] = DevicePreset.all.flatMap { device in
        [HudColorScheme.dark, .light].flatMap { scheme in
            [HudPhoneAppShellAppearance.hudson, .system].flatMap { appearance in
                [true, false].map { Case(device: device, scheme: scheme, appearance: appearance, matchingBackground: $0) }
            }
        }
    }

    /// The value of `name="…"` in `element`.
    static func attribute(_ name: String, in element: Substring) -> String? {
        guard let start = element.range(of: " \(name)=\"") else { return nil }
        let rest = element[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The element (one line of the SVG) holding `marker`.
    static func element(containing marker: String, in svg: String) -> Substring? {
        svg.split(separator: "\n").first { $0.contains(marker) }
    }

    /// An element's fill with its fill-opacity as alpha.
    static func fill(_ element: Substring) throws -> HudColor {
        let color = try #require(attribute("fill", in: element).flatMap(HudColor.init(string:)))
        let opacity = attribute("fill-opacity", in: element).flatMap(Double.init) ?? 1
        return color.opacity(opacity)
    }

    @Test(arguments: cases)
    func theStatusBarAndTitleReadOnTheirBackground(_ c: Case) throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(DemoComplications.make(renderers: registry.renderers) { _ in })
        let layout = try registry.layout(style: .tray, snapshot: snapshot, environment: c.environment)
        let svg = SvgPresenter().render(layout, environment: c.environment, device: c.device, background: c.background)
        let background = try Self.fill(try #require(Self.element(containing: "id=\"background\"", in: svg)))
        #expect(background == c.background)
        let palette = c.environment.chromePalette

        // The time over the status-bar band over the background.
        let lines = svg.split(separator: "\n")
        let group = try #require(lines.firstIndex { $0.contains("id=\"status-bar\"") })
        let band = try Self.fill(lines[group + 1])
        let behindTime = band.composited(over: background)
        let time = try Self.fill(try #require(Self.element(containing: ">9:41<", in: svg)))
        let timeContrast = HudColor.contrast(time.composited(over: behindTime), behindTime)
        #expect(timeContrast >= 4.5, "the status bar's time is \(time) on \(behindTime): \(timeContrast):1")

        // The title over the navigation bar over the background.
        let bar = try #require(lines.firstIndex { $0.contains("id=\"navigation-bar\"") })
        let behindTitle = try Self.fill(lines[bar + 1]).composited(over: background)
        let title = try Self.fill(try #require(Self.element(containing: "id=\"navigation-title\"", in: svg)))
        let titleContrast = HudColor.contrast(title.composited(over: behindTitle), behindTitle)
        #expect(titleContrast >= 4.5, "the title is \(title) on \(behindTitle): \(titleContrast):1")

        // On its own background the chrome keeps its palette's ink.
        if c.matchingBackground {
            #expect(time == palette.ink.opacity(0.7) && title == palette.ink)
        }
    }

    /// `.system` frees only the system chrome: in a light scheme the bars
    /// are light while every complication keeps the stable dark tokens.
    @Test func systemAppearanceInALightSchemeLightensTheBarsNotTheComplications() throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(DemoComplications.make(renderers: registry.renderers) { _ in })
        let environment = HudEnvironment(device: .iphone16Pro, colorScheme: .light, appearance: .system, navigationTitle: "Home")
        #expect(environment.complicationPalette == HudPalette.stable)
        for style in [HudPhoneComplicationsStyle.tray, .scattered, .minimal] {
            let layout = try registry.layout(style: style, snapshot: snapshot, environment: environment)
            let dark = HudPalette.stable
            for node in layout.nodes where node.kind == .slot {
                #expect([dark.surface, dark.accent, dark.statusError].contains(node.fill), "\(style) \(node.position.map { "\($0)" } ?? "")")
                #expect([dark.ink, dark.bg].contains(node.iconColor))
            }
            let svg = SvgPresenter().render(layout, environment: environment, device: .iphone16Pro, background: HudPalette.light.bg)
            #expect(svg.contains("data-scheme=\"light\""))
            let lines = svg.split(separator: "\n")
            let bar = try #require(lines.firstIndex { $0.contains("id=\"navigation-bar\"") })
            #expect(try Self.fill(lines[bar + 1]) == HudPalette.light.chrome.opacity(0.55))
            let title = try Self.fill(try #require(Self.element(containing: "id=\"navigation-title\"", in: svg)))
            #expect(title == HudPalette.light.ink)
        }
    }

    @Test func readableKeepsAColorThatReadsAndReplacesOneThatDoesNot() {
        let dark = HudPalette.stable.bg, light = HudPalette.light.bg
        #expect(HudPalette.stable.ink.readable(on: dark) == HudPalette.stable.ink)
        #expect(HudPalette.light.ink.opacity(0.7).readable(on: light) == HudPalette.light.ink.opacity(0.7))
        // The light scheme's ink on the dark background: 1.1:1, replaced by white.
        #expect(HudColor.contrast(HudPalette.light.ink, dark) < 1.5)
        #expect(HudPalette.light.ink.opacity(0.7).readable(on: dark) == HudColor(hex: 0xFFFFFF))
        #expect(HudPalette.stable.ink.opacity(0.7).readable(on: light) == HudColor(hex: 0x000000))
        #expect(abs(HudColor.contrast(HudColor(hex: 0x000000), HudColor(hex: 0xFFFFFF)) - 21) < 1e-9)
    }
}
