// SPDX-License-Identifier: MIT
@testable import HudRegistry
@testable import HudPresentation
import HudTestSupport
import Testing

/// ABI 1.1's node fields end to end: the built-ins state the original
/// renderers' glyph sizes and offer every mode as a named accessibility
/// action; the SVG draws glyphs at the stated size (45 % of the node only
/// when none is stated); JSON carries both fields; the accessibility model
/// names each action by its mode's label.
struct GlyphAndActionTests {
    static func complications() -> HudPhoneComplications {
        func modes(_ labels: [String]) -> [HudPhoneComplications.Mode] {
            labels.enumerated().map { index, label in .init(id: "m\(index)", icon: "\(index).circle", label: label) {} }
        }
        return HudPhoneComplications(
            topLeft: .init(icon: "bell", label: "Alerts", secondary: .init(icon: "1.circle"), longPressModes: modes(["Mute", "Snooze"])) {},
            topRight: .init(icon: "person", secondary: .init(icon: "plus", label: "Add") {}) {},
            bottomLeft: .init(icon: "trash", role: .destructive, secondary: .init(icon: "minus") {}, longPressModes: modes(["Empty"])) {},
            bottomRight: .init(icon: "tray") {},
            center: .init(icon: "circle.grid.2x2", role: .accent, label: "Center", longPressModes: modes(["Photo", "Video", "Scan"])) {})
    }

    static func layout(_ style: HudPhoneComplicationsStyle, reveal: Position? = nil,
                       environment: HudEnvironment = HudEnvironment(device: .iphone16Pro)) throws -> HudLayout {
        let registry = RendererRegistry.withBuiltins()
        return try registry.layout(style: style, snapshot: ComplicationsSnapshot(complications()), environment: environment,
                                   interaction: HudInteraction(revealedPosition: reveal))
    }

    /// The original renderers' icon sizes (hudson-tokens.md).
    static func expectedGlyph(_ node: HudNode, style: HudPhoneComplicationsStyle) -> Double {
        switch node.kind {
        case .container: return 0
        case .secondary: return 11
        case .modeItem: return 14
        case .slot:
            if node.position == .center { return 22 }
            switch style {
            case .tray: return node.placement == .navigationBar ? 16 : 18  // toolbar 16, tray bottom corners 18
            default: return 16  // scattered corners
            }
        }
    }

    @Test(arguments: [HudPhoneComplicationsStyle.tray, .scattered, .minimal],
          [DevicePreset.Orientation.portrait, .landscape])
    func builtinsStateTheOriginalGlyphSizes(style: HudPhoneComplicationsStyle, orientation: DevicePreset.Orientation) throws {
        let environment = HudEnvironment(device: .iphone16ProMax, orientation: orientation, layoutDirection: .rightToLeft)
        for reveal in [nil, Position.center, .topLeft] {
            let layout = try Self.layout(style, reveal: reveal, environment: environment)
            #expect(!layout.nodes.isEmpty)
            for node in layout.nodes {
                #expect(node.glyphSize == Self.expectedGlyph(node, style: style),
                        "\(style) \(node.kind) at \(node.position?.description ?? "-") placed \(node.placement)")
            }
        }
        // The tray distinguishes its bottom corners from its toolbar slots.
        if style == .tray {
            let layout = try Self.layout(style, environment: environment)
            #expect(layout.slot(at: .bottomLeft)?.glyphSize == 18 && layout.slot(at: .topLeft)?.glyphSize == 16)
        }
    }

    @Test(arguments: [HudPhoneComplicationsStyle.tray, .scattered, .minimal])
    func builtinSlotsOfferEveryModeAsANamedAction(style: HudPhoneComplicationsStyle) throws {
        let complications = Self.complications()
        let layout = try Self.layout(style)
        for node in layout.nodes {
            if node.kind == .slot, let position = node.position {
                #expect(node.accessibilityActions == Array(0..<(complications[position]?.longPressModes?.count ?? 0)), "\(position)")
            } else {
                #expect(node.accessibilityActions.isEmpty)
            }
        }
    }

    @Test func theSvgDrawsTheStatedGlyphSize() throws {
        let layout = try Self.layout(.tray, reveal: .center)
        let environment = HudEnvironment(device: .iphone16Pro)
        let svg = SvgPresenter().render(layout, environment: environment, device: .iphone16Pro)
        let document = try #require(ParsedXML.parse(svg))
        let icons = document.elements.filter { $0.name == "g" && $0.attributes["class"] == "icon" }
        let sizes = Set(icons.compactMap { $0.attributes["data-size"] })
        #expect(sizes.isSuperset(of: ["22", "18", "16", "11", "14"]), "\(sizes)")

        // A 1.0 renderer's nodes state none: 45 % of the node's smaller side.
        var unstated = layout
        for index in unstated.nodes.indices { unstated.nodes[index].glyphSize = 0 }
        let old = SvgPresenter().render(unstated, environment: environment, device: .iphone16Pro)
        let oldIcons = try #require(ParsedXML.parse(old)).elements.filter { $0.name == "g" && $0.attributes["class"] == "icon" }
        let center = try #require(unstated.slot(at: .center))
        #expect(oldIcons.contains { $0.attributes["data-size"] == AsciiPresenter.number(min(center.frame.width, center.frame.height) * 0.45) })
        #expect(!oldIcons.contains { $0.attributes["data-size"] == "22" })
    }

    @Test func jsonNodesCarryGlyphSizeAndAccessibilityActions() throws {
        let layout = try Self.layout(.scattered)
        let json = LayoutJSON.layout(layout)
        let nodes = try #require(json["nodes"]?.arrayValue)
        let center = try #require(nodes.first { $0["kind"]?.stringValue == "slot" && $0["position"]?.stringValue == "center" })
        #expect(center["glyphSize"]?.numberValue == 22)
        #expect(center["accessibilityActions"]?.arrayValue?.compactMap(\.numberValue) == [0, 1, 2])
        let chip = try #require(nodes.first { $0["kind"]?.stringValue == "secondary" })
        #expect(chip["glyphSize"]?.numberValue == 11 && chip["accessibilityActions"]?.arrayValue?.isEmpty == true)
    }

    @Test func theAccessibilityModelNamesEachActionByItsModeLabel() throws {
        let layout = try Self.layout(.tray)
        let model = AccessibilityModel(layout: layout, complications: Self.complications())
        let center = try #require(model.elements.first { $0.target == "slot:center" })
        #expect(center.label == "Center")
        #expect(center.actions.map(\.label) == ["Photo", "Video", "Scan"])
        #expect(center.actions.map(\.modeID) == ["m0", "m1", "m2"])
        #expect(model.elements.first { $0.target == "slot:topLeft" }?.actions.map(\.label) == ["Mute", "Snooze"])
        #expect(model.elements.first { $0.target == "slot:bottomRight" }?.actions.isEmpty == true)
        #expect(model.elements.first { $0.target == "secondary:topRight" }?.actions.isEmpty == true)
        // A slot's stated subset is honoured, in index order.
        var subset = layout
        let index = try #require(subset.nodes.firstIndex { $0.kind == .slot && $0.position == .center })
        subset.nodes[index].accessibilityActions = [2]
        let named = AccessibilityModel(layout: subset, complications: Self.complications())
        #expect(named.elements.first { $0.target == "slot:center" }?.actions.map(\.label) == ["Scan"])
        let json = named.json
        #expect(json.arrayValue?.first { $0["target"]?.stringValue == "slot:center" }?["actions"]?.arrayValue?.first?["label"]?.stringValue == "Scan")
    }
}
