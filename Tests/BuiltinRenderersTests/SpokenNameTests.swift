// SPDX-License-Identifier: MIT
import Testing
@testable import BuiltinRenderers
@testable import HudRegistry
import HudTestSupport

/// An unlabeled slot, chip or mode is announced by its icon's spoken name
/// ("List" for `list.bullet`), never by the raw symbol name.
struct SpokenNameTests {
    @Test(arguments: [
        ("list.bullet", "List"), ("trash", "Delete"), ("trash.fill", "Delete"), ("bell", "Notifications"),
        ("bell.badge.fill", "Notifications"), ("info.circle", "Info"), ("paintbrush", "Paint brush"),
        ("gear", "Settings"), ("gearshape", "Settings"), ("gearshape.fill", "Settings"), ("magnifyingglass", "Search"),
        ("plus.circle", "Add"), ("plus.circle.fill", "Add"), ("square.and.arrow.up", "Share"), ("house", "Home"),
        ("house.fill", "Home"), ("person.crop.circle", "Profile"), ("star", "Favorite"), ("heart.fill", "Like"),
        ("ellipsis.circle", "More"), ("xmark", "Close"),
    ])
    func commonSymbolsHaveTheirSpokenName(symbol: String, spoken: String) {
        #expect(SpokenSymbolName.words(for: symbol) == spoken)
    }

    @Test(arguments: [
        ("square.grid.2x2", "Square grid 2×2"), ("square.grid.2x2.fill", "Square grid 2×2"),
        ("circle.grid.2x2", "Circle grid 2×2"), ("rectangle.3.group", "Rectangle 3 group"),
        ("circle.fill", "Circle"), ("bolt", "Bolt"), ("arrow.up.right", "Arrow up right"), ("box", "Box"),
    ])
    func otherSymbolsBecomeWords(symbol: String, spoken: String) {
        #expect(SpokenSymbolName.words(for: symbol) == spoken)
    }

    @Test func nothingToSayIsNil() {
        #expect(SpokenSymbolName.words(for: "") == nil)
        #expect(SpokenSymbolName.words(for: "..") == nil)
    }

    @Test func theBuiltinsAnnounceUnlabeledSlotsChipsAndModesBySpokenNames() throws {
        let registry = RendererRegistry.withBuiltins()
        let complications = HudPhoneComplications(
            topLeft: .init(icon: "list.bullet", secondary: .init(icon: "bell.badge") {}) {},
            topRight: .init(icon: "gearshape", label: "Preferences") {},
            bottomLeft: .init(icon: "square.grid.2x2") {},
            center: .init(icon: "circle.grid.2x2", role: .accent,
                          longPressModes: [.init(id: "tray", icon: "rectangle.bottomthird.inset.filled", label: "") {}]) {})
        let snapshot = try ComplicationsSnapshot(complications)
        for style in [HudPhoneComplicationsStyle.tray, .scattered] {
            let layout = try registry.layout(style: style, snapshot: snapshot, environment: HudEnvironment(device: .iphone16Pro),
                                             interaction: HudInteraction(revealedPosition: .center))
            #expect(layout.slot(at: .topLeft)?.accessibilityLabel == "List")
            #expect(layout.slot(at: .topRight)?.accessibilityLabel == "Preferences")
            #expect(layout.slot(at: .bottomLeft)?.accessibilityLabel == "Square grid 2×2")
            #expect(layout.slot(at: .center)?.accessibilityLabel == "Circle grid 2×2")
            if style == .scattered {
                #expect(layout.nodes.first { $0.kind == .secondary }?.accessibilityLabel == "Notifications")
            }
            #expect(layout.nodes.first { $0.kind == .modeItem }?.accessibilityLabel == "Rectangle bottomthird inset")
            for node in layout.nodes where node.isInteractive {
                let label = try #require(node.accessibilityLabel)
                #expect(!(label.contains(".") && !label.contains(" ")), "\(node.kind) is announced as '\(label)'")
            }
        }
    }
}
