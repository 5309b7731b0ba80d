// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudRegistry
import HudTestSupport

/// ABI 1.2's style picker (Docs/ABI.md "Changes from 1.1 to 1.2"): each
/// style's mode shows the renderer's own `picker_icon` (a 1.0 or 1.1
/// renderer keeps the default), the host flags the style in use
/// `HUD_MODE_FLAG_CURRENT`, and a 1.2 renderer marks that item
/// `HUD_NODE_FLAG_SELECTED`, in and out of process. Driven through the CLI
/// with the built-ins, ExampleRing (1.2) and the frozen 1.0 ring.
struct StylePickerTests {
    static let ringID = "org.hudson.example.ring"

    /// The center's mode items of `render --reveal center --json`, as
    /// (label, icon, selected).
    static func centerModes(_ arguments: [String]) throws -> [(label: String, icon: String, selected: Bool)] {
        let output = try HudHost.run(["render", "--reveal", "center", "--json"] + arguments)
        #expect(output.status == 0, "\(output.transcript)")
        let nodes = try HudHost.json(output)["layout"]?["nodes"]?.arrayValue ?? []
        return nodes.filter { $0["kind"]?.stringValue == "modeItem" && $0["position"]?.stringValue == "center" }.map {
            ($0["label"]?.stringValue ?? $0["accessibilityLabel"]?.stringValue ?? "", $0["icon"]?.stringValue ?? "", $0["selected"] == .bool(true))
        }
    }

    @Test(arguments: ["process", "in-process"])
    func eachStyleShowsItsOwnIconAndTheCurrentOneIsMarked(_ isolation: String) throws {
        let ring = FixturePlugins.binDirectory + "/libExampleRing.so"
        // The tray draws the picker: its own item is the marked one; the
        // ring's item shows the ring's picker_icon.
        let tray = try Self.centerModes(["--plugin", ring, "--isolation", isolation])
        let byLabel = Dictionary(tray.map { ($0.label, $0) }) { first, _ in first }
        #expect(byLabel["Tray"]?.icon == "rectangle.bottomthird.inset.filled" && byLabel["Tray"]?.selected == true, "\(tray)")
        #expect(byLabel["Scattered"]?.icon == "circle.grid.cross.fill" && byLabel["Minimal"]?.icon == "circle.fill", "\(tray)")
        #expect(byLabel["Ring"]?.icon == "circle.circle", "\(tray)")
        #expect(tray.filter(\.selected).count == 1, "\(tray)")
        // The ring draws it (mode items carry no label there: matched by
        // icon): the ring's item is marked, no other.
        let ringModes = try Self.centerModes(["--plugin", ring, "--isolation", isolation, "--style", Self.ringID])
        #expect(ringModes.filter(\.selected).map(\.icon) == ["circle.circle"], "\(ringModes)")
    }

    /// A renderer built for ABI 1.0 never sees the flag and names no
    /// picker icon: its mode keeps the default icon, and its own picker
    /// marks nothing (and is still valid).
    @Test func aRendererBuiltForAnOlderMinorKeepsTheDefaultIconAndMarksNothing() throws {
        let ring10 = try ABICompatibilityTests.ring10.get()
        let tray = try Self.centerModes(["--plugin", ring10])
        #expect(tray.first { $0.label == "Ring" }?.icon == "paintbrush", "\(tray)")
        #expect(tray.filter(\.selected).map(\.label) == ["Tray"], "\(tray)")
        let own = try Self.centerModes(["--plugin", ring10, "--style", Self.ringID])
        #expect(own.count == 4 && own.allSatisfy { !$0.selected }, "\(own)")
    }

    /// The mark follows the style: after picking Minimal in the picker,
    /// the picker shows Minimal as current.
    @Test func theMarkFollowsAStyleChange() throws {
        let output = try HudHost.run(["render", "--events", "longpress center; tap mode:scattered; longpress center", "--json"])
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(json["renderer"]?["id"]?.stringValue == "com.hudson.scattered")
        let items = (json["layout"]?["nodes"]?.arrayValue ?? []).filter { $0["kind"]?.stringValue == "modeItem" }
        #expect(items.filter { $0["selected"] == .bool(true) }.compactMap { $0["label"]?.stringValue } == ["Scattered"], "\(items)")
    }
}
