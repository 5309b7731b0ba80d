// SPDX-License-Identifier: MIT
import Testing
@testable import HudModel

/// The vocabulary every target speaks: ABI versions, failure codes, renderer
/// ids, plugin text checks and the one hit-testing rule.
struct VocabularyTests {
    @Test func abiVersionsParsePrintCompareAndPack() {
        let v = ABIVersion(major: 1, minor: 2)
        #expect(v.description == "1.2" && ABIVersion("1.2") == v)
        #expect(ABIVersion(packed: 0x0001_0002) == v && v.packed == 0x0001_0002)
        #expect(ABIVersion(major: 1, minor: 0) < v && v < ABIVersion(major: 2, minor: 0))
        for bad in ["", "1", "1.", ".1", "1.2.3", "a.b", "-1.0", "65536.0"] { #expect(ABIVersion(bad) == nil, "\(bad)") }
        #expect(ABIVersion.host.description == "1.2")
        // Majors must match; any minor of the host's major loads.
        #expect(ABIVersion(major: 1, minor: 9).isLoadable() && !ABIVersion(major: 2, minor: 0).isLoadable() && !ABIVersion(major: 0, minor: 1).isLoadable())
    }

    @Test func failureCodesAreUniqueKebabCaseStrings() {
        let raw = FailureCode.allCases.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        for code in raw { #expect(code.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } && !code.hasPrefix("-"), "\(code)") }
        // The strings scripts and the cache already depend on.
        #expect(FailureCode.actionCalledDuringLayout.rawValue == "action-during-layout")
        #expect(FailureCode.wrongClass.rawValue == "not-elf64" && FailureCode.timedOut.rawValue == "timed-out")
        #expect(RegistryError.initFailed(path: "/p", status: -3).code == .initFailed)
    }

    /// A renderer id is reverse-DNS in lowercase; what is wrong with one is
    /// said in one order: a character outside [a-z0-9.-] (named whole,
    /// wherever it is), then a missing '.', an empty label, a '-' at a
    /// label's edge.
    @Test func anIDsProblemIsNamedInOneOrder() {
        let bad = "ids are reverse-DNS in lowercase [a-z0-9.-], e.g. com.example.ring"
        let cases: [(String, String?)] = [
            ("com.example.ring", nil), ("a.b", nil), ("org.hudbench.generated-00042", nil), ("a-b.c-d", nil), ("x0.9y", nil),
            ("", "'' has no '.'; ids are reverse-DNS, e.g. com.example.ring"),
            ("nodot", "'nodot' has no '.'; ids are reverse-DNS, e.g. com.example.ring"),
            (".a", "'.a' has an empty label (a leading, trailing or doubled '.')"),
            ("a.", "'a.' has an empty label (a leading, trailing or doubled '.')"),
            ("a..b-", "'a..b-' has an empty label (a leading, trailing or doubled '.')"),
            ("-a.b", "'-a.b' has a label that starts or ends with '-'"),
            ("a-.b", "'a-.b' has a label that starts or ends with '-'"),
            ("a.b-", "'a.b-' has a label that starts or ends with '-'"),
            ("a.-.b", "'a.-.b' has a label that starts or ends with '-'"),
            ("Com.example", "'Com.example' contains 'C'; \(bad)"),
            ("-a..b c", "'-a..b c' contains ' '; \(bad)"),
            ("a.b_c", "'a.b_c' contains '_'; \(bad)"),
            ("ä.b", "'ä.b' contains 'ä'; \(bad)"),
            ("e\u{301}.b", "'e\u{301}.b' contains 'e\u{301}'; \(bad)"),
            ("a.b\n", "'a.b\n' contains '\n'; \(bad)"),
        ]
        for (id, problem) in cases { #expect(RendererInfo.idProblem(id) == problem, "\(id.debugDescription)") }
    }

    @Test func controlCharactersAreEscapedInTerminalText() {
        #expect(TextChecks.escapingControls("a\nb\u{1b}[2Kc\u{9b}") == "a\\u{a}b\\u{1b}[2Kc\\u{9b}")
        #expect(TextChecks.escapingControls("plain ✓ text") == "plain ✓ text")
        #expect(TextChecks.firstControlCharacter(in: "✓\t") == 3)
    }

    static func node(z: Int, x: Double, interactive: Bool = true, position: Position = .center) -> HudNode {
        HudNode(kind: .slot, position: position, part: .slot, modeIndex: nil, frame: HudRect(x: x, y: 0, width: 44, height: 44),
                hit: interactive ? HudRect(x: x, y: 0, width: 44, height: 44) : .zero, shape: .circle, material: .solid,
                cornerRadius: 22, strokeWidth: 1, fontSize: 0, fill: HudPalette.surface, stroke: HudPalette.ink,
                iconColor: HudPalette.ink, textColor: HudPalette.ink, placement: .overlay, z: z, isPressed: false,
                isInteractive: interactive, icon: "circle", label: nil, accessibilityLabel: "Circle")
    }

    @Test func hitTestingPicksTheTopmostInteractiveNodeAndTheLastOfEqualZ() {
        let back = Self.node(z: 1, x: 0, position: .bottomLeft), front = Self.node(z: 2, x: 10, position: .center)
        let later = Self.node(z: 2, x: 20, position: .bottomRight), inert = Self.node(z: 9, x: 0, interactive: false, position: .topLeft)
        let layout = HudLayout(nodes: [back, front, later, inert], contentInsets: HudInsets(top: 0, left: 0, bottom: 0, right: 0), hiddenPositions: [])
        #expect(layout.hitTest(x: 5, y: 5)?.position == .bottomLeft)     // only `back` (and the inert one) cover x 5
        #expect(layout.hitTest(x: 15, y: 5)?.position == .center)        // z 2 beats z 1
        #expect(layout.hitTest(x: 25, y: 5)?.position == .bottomRight)   // equal z: the one emitted last
        #expect(layout.hitTest(x: 100, y: 5) == nil)
    }
}
