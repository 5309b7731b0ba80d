// SPDX-License-Identifier: MIT
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport
import Foundation
import Testing

/// The SVG's icons: every symbol the project's demo, docs and examples use
/// has a drawing of its own, any other symbol a neutral placeholder (never
/// a "⊘" or a slashed circle, which read as "prohibited"), and the symbol
/// names under the slots only when asked for.
struct SvgGlyphTests {
    static let environment = HudEnvironment(device: .iphone16Pro, navigationTitle: "Home")

    static func layout(_ complications: HudPhoneComplications, style: HudPhoneComplicationsStyle = .tray,
                       reveal: Position? = nil) throws -> HudLayout {
        let registry = RendererRegistry.withBuiltins()
        return try registry.layout(style: style, snapshot: try ComplicationsSnapshot(complications), environment: environment,
                                   interaction: HudInteraction(revealedPosition: reveal))
    }

    static func demo() -> HudPhoneComplications {
        DemoComplications.make(renderers: RendererRegistry.withBuiltins().renderers) { _ in }
    }

    /// Every icon name in a set of complications: slots, chips, modes.
    static func icons(of complications: HudPhoneComplications) -> [String] {
        [complications.topLeft, complications.topRight, complications.bottomLeft, complications.bottomRight, complications.center]
            .compactMap { $0 }
            .flatMap { slot in [slot.icon] + [slot.secondary?.icon].compactMap { $0 } + (slot.longPressModes ?? []).map(\.icon) }
    }

    /// The values of every `"icon": "…"` (JSON) and `icon: "…"` (Swift) in `text`.
    static func quotedIcons(in text: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"(?:"icon"\s*:|\bicon:)\s*"([^"\\]+)""#)
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
    }

    static func files(in directory: String, ending suffix: String) throws -> [String] {
        let path = FixturePlugins.repositoryRoot + "/" + directory
        return try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(suffix) }.sorted().map { path + "/" + $0 }
    }

    static func glyphs(_ svg: String) throws -> [ParsedXML.Element] {
        let document = try #require(ParsedXML.parse(svg), "not well-formed XML")
        return document.elements.filter { $0.name == "g" && $0.attributes["class"] == "icon" }
    }

    // MARK: - Symbol names under the slots

    @Test func symbolNamesAreOffByDefault() throws {
        let svg = SvgPresenter().render(try Self.layout(Self.demo()), environment: Self.environment, device: .iphone16Pro)
        let document = try #require(ParsedXML.parse(svg))
        #expect(!document.elements.contains { $0.attributes["class"] == "symbol-name" })
        // The name is still there for tools: the glyph's title and data-icon.
        #expect(svg.contains("data-icon=\"list.bullet\""))
        #expect(svg.contains("<title>list.bullet</title>"))
    }

    @Test func symbolNamesAreShownUnderEverySlotWithTheOption() throws {
        let layout = try Self.layout(Self.demo())
        let svg = SvgPresenter(showSymbolNames: true).render(layout, environment: Self.environment, device: .iphone16Pro)
        let document = try #require(ParsedXML.parse(svg))
        let names = document.elements.filter { $0.attributes["class"] == "symbol-name" }.map(\.text)
        let slotIcons = layout.nodes.filter { $0.kind == .slot }.compactMap(\.icon)
        #expect(!slotIcons.isEmpty)
        #expect(names.sorted() == slotIcons.sorted())
    }

    // MARK: - Unknown symbols

    @Test(arguments: ["no.such.symbol", "x", "gear&shape", "🙂"])
    func anUnknownSymbolDrawsTheNeutralPlaceholder(_ icon: String) throws {
        let complications = HudPhoneComplications(
            topLeft: .init(icon: icon, label: "Unknown") {},
            bottomRight: .init(icon: icon) {}
        )
        let svg = SvgPresenter(showHitRegions: true).render(try Self.layout(complications), environment: Self.environment,
                                                            device: .iphone16Pro)
        #expect(!svg.contains("⊘"))
        let glyphs = try Self.glyphs(svg)
        #expect(glyphs.count == 2)
        for glyph in glyphs {
            #expect(glyph.attributes["data-glyph"] == "placeholder")
            #expect(glyph.attributes["data-icon"] == SvgPresenter.sanitize(icon))
            // A dashed rounded square and nothing else: no circle, no slash.
            let shapes = glyph.children.filter { $0.name != "title" }
            #expect(shapes.map(\.name) == ["rect"])
            #expect(shapes.first?.attributes["class"] == "placeholder")
            #expect(shapes.first?.attributes["stroke-dasharray"] != nil)
        }
    }

    @Test func aFillVariantDrawsItsSymbolsOutline() {
        #expect(SvgPresenter.Glyph.named("bell.fill") == .bell)
        #expect(SvgPresenter.Glyph.named("gearshape.fill") == .gearshape)
        #expect(SvgPresenter.Glyph.named("circle.fill") == .circleFill)
        #expect(SvgPresenter.Glyph.named("nothing.fill") == nil)
    }

    // MARK: - Every symbol the project uses has a drawing

    @Test func everySymbolTheDemoUsesHasADrawing() throws {
        // The demo's slots, chips and modes, plus the mode icon a plugin style gets.
        let icons = Self.icons(of: Self.demo()) + [DemoComplications.defaultModeIcon]
        #expect(icons.count >= 9)
        for icon in icons {
            #expect(SvgPresenter.Glyph.named(icon) != nil, "the demo uses '\(icon)', which the SVG cannot draw")
        }
        // And the pictures show them: no placeholder in any built-in style, modes revealed.
        for info in RendererRegistry.withBuiltins().renderers {
            let layout = try Self.layout(Self.demo(), style: HudPhoneComplicationsStyle(name: info.id), reveal: .center)
            let glyphs = try Self.glyphs(SvgPresenter().render(layout, environment: Self.environment, device: .iphone16Pro))
            #expect(!glyphs.isEmpty)
            for glyph in glyphs {
                #expect(glyph.attributes["data-glyph"] == glyph.attributes["data-icon"], "\(info.id): \(glyph.attributes)")
            }
        }
    }

    @Test func everySymbolTheDocsAndConformanceInputsUseHasADrawing() throws {
        var sources = try Self.files(in: "Docs/examples", ending: ".json") + Self.files(in: "Docs", ending: ".md")
        sources += [FixturePlugins.repositoryRoot + "/README.md",
                    FixturePlugins.repositoryRoot + "/Sources/HudConformance/ConformanceInputs.swift"]
        var seen: Set<String> = []
        for path in sources {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for icon in try Self.quotedIcons(in: text) {
                seen.insert(icon)
                #expect(SvgPresenter.Glyph.named(icon) != nil, "\(path) uses '\(icon)', which the SVG cannot draw")
            }
        }
        // The scan found the examples' symbols (it is not vacuous).
        #expect(seen.isSuperset(of: ["bell.badge", "exclamationmark.circle", "chevron.backward", "trash", "plus", "star"]), "\(seen)")
    }

    @Test func everyDrawingIsMadeOfShapesInTheIconColor() throws {
        let color = HudColor(hex: 0x12AB34)
        for glyph in SvgPresenter.Glyph.allCases {
            let complications = HudPhoneComplications(center: .init(icon: glyph.rawValue) {})
            var layout = try Self.layout(complications)
            for index in layout.nodes.indices { layout.nodes[index].iconColor = color }
            let svg = SvgPresenter().render(layout, environment: Self.environment, device: .iphone16Pro)
            let drawn = try #require(try Self.glyphs(svg).first, "\(glyph)")
            #expect(drawn.attributes["data-glyph"] == glyph.rawValue)
            #expect(drawn.attributes["stroke"] == "#12AB34")
            let shapes = drawn.children.filter { $0.name != "title" }
            #expect(!shapes.isEmpty, "\(glyph) draws nothing")
            #expect(shapes.allSatisfy { ["circle", "line", "rect", "path"].contains($0.name) })
            #expect(shapes.allSatisfy { $0.attributes["fill"] == nil || $0.attributes["fill"] == "#12AB34" }, "\(glyph)")
            #expect(!shapes.contains { $0.attributes["class"] == "placeholder" })
        }
    }
}
