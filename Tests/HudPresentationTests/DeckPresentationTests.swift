// SPDX-License-Identifier: MIT
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport
import Testing

/// The control deck in every presenter: ASCII (pivot, close, lanes, the
/// deck's state and accessibility in the legend), SVG (the deck group, the
/// lanes, the shell's nodes, hidden content) and JSON (layout.deck, the
/// host-drawn nodes), for every built-in style, resting and expanded.
struct DeckPresentationTests {
    static let styles: [HudPhoneComplicationsStyle] = [.tray, .scattered, .minimal]

    static func shell(_ style: HudPhoneComplicationsStyle, expanded: Bool, direction: HudLayoutDirection = .leftToRight) -> HudPhoneAppShell {
        let environment = HudEnvironment(device: .iphone16Pro, layoutDirection: direction, navigationTitle: "Home")
        let shell = DemoComplications.makeShell(style: style, presentation: .summonOnDemand(), registry: .withBuiltins(), environment: environment)
        if expanded { shell.expandDeck(at: 0) }
        return shell
    }

    @Test(arguments: styles)
    func asciiShowsThePivotWhileRestingAndTheLaneAndCloseWhileExpanded(style: HudPhoneComplicationsStyle) throws {
        let presenter = AsciiPresenter(columns: 48)
        let resting = Self.shell(style, expanded: false)
        let restingLayout = try resting.layout()
        let restingPicture = presenter.render(restingLayout, environment: resting.environment)
        #expect(restingPicture.contains("(P)"))
        #expect(!restingPicture.contains("(C)"))
        #expect(restingPicture.contains("┄"))
        let restingLegend = presenter.legend(restingLayout)
        #expect(restingLegend.contains("deck:pivot  \"Show controls\""))
        #expect(restingLegend.contains("deck: resting, lanes top 0, bottom 64"))

        let expanded = Self.shell(style, expanded: true)
        let layout = try expanded.layout()
        let picture = presenter.render(layout, environment: expanded.environment)
        #expect(picture.contains("(TL)") && picture.contains("(X)") && picture.contains("(TR)"))
        #expect(picture.contains("(C)"))
        #expect(!picture.contains("(P)"))
        // The lane's row: TL · X · TR, in that order, on one line.
        let laneRow = try #require(picture.split(separator: "\n").first { $0.contains("(X)") })
        #expect(laneRow.contains("(TL)") && laneRow.contains("(TR)"))
        let legend = presenter.legend(layout)
        #expect(legend.contains("deck:backdrop  \"Dismiss controls\""))
        #expect(legend.contains("deck:close  \"Hide controls\""))
        #expect(legend.contains("deck: expanded, lanes top 60, bottom 0; collapses at 6 s (timeout 6 s)"))
        #expect(legend.contains("accessibility: focus on close \"Hide controls\"; the content behind the backdrop is hidden from accessibility"))
    }

    @Test(arguments: styles, [HudLayoutDirection.leftToRight, .rightToLeft])
    func svgCarriesTheDeckItsLanesAndTheShellsNodes(style: HudPhoneComplicationsStyle, direction: HudLayoutDirection) throws {
        for expanded in [false, true] {
            let shell = Self.shell(style, expanded: expanded, direction: direction)
            let layout = try shell.layout()
            let svg = SvgPresenter().render(layout, environment: shell.environment, device: .iphone16Pro, background: shell.background, caption: nil)
            let document = try #require(ParsedXML.parse(svg), "not well-formed XML")
            let deck = try #require(document.element(id: "deck"))
            #expect(deck.attributes["data-presentation"] == (expanded ? "deckExpanded" : "deckResting"))
            #expect(deck.attributes["data-content-hidden"] == (expanded ? "true" : "false"))
            #expect(deck.attributes["data-accessibility-focus"] == (expanded ? "close" : "none"))
            let lanes = deck.children.filter { $0.attributes["class"] == "lane" }.compactMap { $0.attributes["data-lane"] }
            #expect(lanes == [expanded ? "top" : "bottom"])
            let controls = document.elements.compactMap { $0.attributes["data-deck-control"] }
            #expect(Set(controls) == (expanded ? ["backdrop", "close"] : ["pivot"]))
            #expect((document.element(id: "content")?.attributes["aria-hidden"] == "true") == expanded)
            let hostDrawn = document.elements.filter { $0.attributes["data-host-drawn"] == "true" }.count
            #expect(hostDrawn == layout.nodes.filter(\.isHostDrawn).count)
            // One element per node still, the shell's included.
            #expect(document.elements.filter { $0.attributes["class"] == "node" }.count == layout.nodes.count)
        }
    }

    @Test(arguments: styles)
    func jsonCarriesTheDeckStateAndMarksTheShellsNodes(style: HudPhoneComplicationsStyle) throws {
        let shell = Self.shell(style, expanded: true)
        let json = LayoutJSON.layout(try shell.layout())
        let deck = try #require(json["deck"])
        #expect(deck["presentation"]?.stringValue == "deckExpanded")
        #expect(deck["accessibilityFocus"]?.stringValue == "close")
        #expect(deck["contentHiddenFromAccessibility"] == .bool(true))
        #expect(deck["collapseDeadline"]?.numberValue == 6)
        #expect(deck["reservedLanes"]?["top"]?.numberValue == 60)
        let nodes = try #require(json["nodes"]?.arrayValue)
        let marked = nodes.filter { $0["hostDrawn"] == .bool(true) }
        #expect(marked.compactMap { $0["deckControl"]?.stringValue }.sorted() == ["backdrop", "close"])
        // The top lane's slots are the shell's, with their positions; the renderer's nodes carry neither key.
        #expect(marked.filter { $0["kind"]?.stringValue == "slot" }.compactMap { $0["position"]?.stringValue }.sorted() == ["topLeft", "topRight"])
        #expect(nodes.filter { $0["hostDrawn"] == nil }.allSatisfy { $0["deckControl"] == nil })

        let always = DemoComplications.makeShell(style: style, registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
        let plain = LayoutJSON.layout(try always.layout())
        #expect(plain["deck"] == nil)
        #expect(plain["nodes"]?.arrayValue?.allSatisfy { $0["hostDrawn"] == nil } == true)
    }
}
