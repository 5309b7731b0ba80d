// SPDX-License-Identifier: MIT
import Testing
@testable import HudConformance
import HudRegistry

/// The per-layout rules as pure functions of a decoded layout, on layouts
/// built node by node: each rule finds exactly the node that breaks it, and
/// says which and by how much; the exceptions the rules document (a picker
/// painted above the controls it covers) hold.
struct GeometryRuleTests {
    static func node(_ kind: HudNode.Kind = .slot, _ position: Position? = .center, part: HudNode.Part? = .slot, mode: Int? = nil,
                     frame: HudRect, hit: HudRect? = nil, interactive: Bool = true, z: Int = 0, label: String? = nil,
                     icon: String? = nil) -> HudNode {
        HudNode(kind: kind, position: position, part: part, modeIndex: mode, frame: frame, hit: hit ?? (interactive ? frame : .zero),
                shape: .roundedRectangle, material: .solid, cornerRadius: 8, strokeWidth: 0, fontSize: 0, fill: HudColor(hex: 0x222222),
                stroke: HudColor(hex: 0), iconColor: HudColor(hex: 0xFFFFFF), textColor: HudColor(hex: 0xFFFFFF), placement: .overlay,
                z: z, isPressed: false, isInteractive: interactive, icon: icon, label: label, accessibilityLabel: label)
    }

    static func layout(_ nodes: [HudNode]) -> HudLayout { HudLayout(nodes: nodes, contentInsets: .zero, hiddenPositions: []) }

    @Test func hitRegionsAreAtLeast44PointsAndHoldTheirFrame() {
        let good = Self.node(frame: HudRect(x: 10, y: 100, width: 44, height: 44))
        let small = Self.node(.slot, .topLeft, frame: HudRect(x: 10, y: 200, width: 40, height: 40))
        let offset = Self.node(.slot, .topRight, frame: HudRect(x: 100, y: 200, width: 44, height: 44),
                               hit: HudRect(x: 110, y: 200, width: 44, height: 44))
        let decoration = Self.node(.container, nil, part: .container, frame: HudRect(x: 0, y: 0, width: 300, height: 80), interactive: false)
        var leaky = decoration
        leaky.hit = HudRect(x: 0, y: 0, width: 1, height: 1)
        #expect(GeometryRules.hitSize(Self.layout([good, decoration])).isEmpty)
        #expect(GeometryRules.hitSize(Self.layout([good, small, offset, leaky])) == [
            "node 1 (slot topLeft) hit region is 40×40 pt; interactive nodes need at least 44×44",
            "node 2 (slot topRight) hit region (110, 200, 44×44) does not contain its frame (100, 200, 44×44)",
            "node 3 (container) is not interactive but has hit region (0, 0, 1×1); it must be all zero",
        ])
    }

    /// Two controls may not share a point; a revealed mode picker drawn
    /// above a slot may cover it (the topmost is hit first), one drawn
    /// below may not; a control's own slot and hit regions never conflict.
    @Test func controlsDoNotOverlapUnlessAPickerIsDrawnAboveThem() {
        let left = Self.node(.slot, .topLeft, frame: HudRect(x: 0, y: 100, width: 60, height: 60))
        let right = Self.node(.slot, .topRight, frame: HudRect(x: 50, y: 100, width: 60, height: 60))
        let apart = Self.node(.slot, .topRight, frame: HudRect(x: 61, y: 100, width: 60, height: 60))
        #expect(GeometryRules.overlap(Self.layout([left, apart])).isEmpty)
        #expect(GeometryRules.overlap(Self.layout([left, right])) == [
            "hit regions of node 0 (slot topLeft) (0, 100, 60×60) and node 1 (slot topRight) (50, 100, 60×60) overlap",
        ])
        let above = Self.node(.modeItem, .topLeft, part: .mode, mode: 0, frame: HudRect(x: 40, y: 120, width: 60, height: 44), z: 10)
        var below = above
        below.z = -1
        #expect(GeometryRules.overlap(Self.layout([right, above])).isEmpty)
        #expect(GeometryRules.overlap(Self.layout([right, below])).count == 1)
        let sameControl = Self.node(.slot, .topLeft, frame: HudRect(x: 0, y: 100, width: 60, height: 60))
        #expect(GeometryRules.overlap(Self.layout([left, sameControl])).isEmpty)
    }

    @Test func nothingInteractiveReachesIntoTheSafeAreaBands() {
        let environment = HudEnvironment(screenSize: HudSize(width: 400, height: 800), safeArea: HudInsets(top: 50, left: 0, bottom: 30, right: 0))
        let inside = Self.node(frame: HudRect(x: 10, y: 50, width: 44, height: 44))
        let top = Self.node(.slot, .topLeft, frame: HudRect(x: 10, y: 49, width: 44, height: 44))
        let bottomHit = Self.node(.slot, .bottomLeft, frame: HudRect(x: 10, y: 700, width: 44, height: 44),
                                  hit: HudRect(x: 10, y: 700, width: 44, height: 80))
        let decoration = Self.node(.container, nil, part: .container, frame: HudRect(x: 0, y: 0, width: 400, height: 800), interactive: false)
        #expect(GeometryRules.safeBands(Self.layout([inside, decoration]), environment).isEmpty)
        #expect(GeometryRules.safeBands(Self.layout([inside, top, bottomHit]), environment) == [
            "node 1 (slot topLeft) frame (10, 49, 44×44) reaches into the top safe-area band (y < 50)",
            "node 2 (slot bottomLeft) hit region (10, 700, 44×80) reaches into the bottom safe-area band (y > 770)",
        ])
    }

    /// An unlabeled control is announced by a spoken name, never by its raw
    /// symbol name.
    @Test func aRawSymbolNameIsNeverWhatIsSpoken() {
        #expect(GeometryRules.isRawSymbolName("list.bullet") && GeometryRules.isRawSymbolName("square.grid.2x2.fill"))
        #expect(!GeometryRules.isRawSymbolName("List") && !GeometryRules.isRawSymbolName("Dr. Who"))
        let raw = Self.node(frame: HudRect(x: 0, y: 100, width: 44, height: 44), label: "list.bullet", icon: "list.bullet")
        let spoken = Self.node(.slot, .topLeft, frame: HudRect(x: 60, y: 100, width: 44, height: 44), label: "List", icon: "list.bullet")
        let problems = GeometryRules.rawSymbolLabels(Self.layout([raw, spoken]))
        #expect(problems.count == 1 && problems[0].hasPrefix("node 0 (slot center)"), "\(problems)")
    }
}
