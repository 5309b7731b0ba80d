// SPDX-License-Identifier: MIT
import Foundation
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import Testing

/// The tray is a capsule: both presenters draw it with
/// fully rounded ends, from the node's shape, on every preset.
struct CapsuleTests {
    static func trayLayout(_ device: DevicePreset, _ orientation: DevicePreset.Orientation) throws -> (HudLayout, HudEnvironment) {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(DemoComplications.make(renderers: registry.renderers) { _ in })
        let environment = HudEnvironment(device: device, orientation: orientation, navigationTitle: "Home")
        return (try registry.layout(style: .tray, snapshot: snapshot, environment: environment), environment)
    }

    @Test(arguments: DevicePreset.all, [DevicePreset.Orientation.portrait, .landscape])
    func svgDrawsTheTrayAsARectWithHalfItsHeightAsRadius(device: DevicePreset, orientation: DevicePreset.Orientation) throws {
        let (layout, environment) = try Self.trayLayout(device, orientation)
        let tray = try #require(layout.nodes.first { $0.kind == .container && $0.position == nil })
        #expect(tray.shape == .capsule)
        let svg = SvgPresenter().render(layout, environment: environment, device: device)
        let group = try #require(svg.range(of: "data-shape=\"capsule\""))
        let body = try #require(svg.range(of: "class=\"body\"", range: group.upperBound..<svg.endIndex))
        let element = String(svg[group.upperBound..<body.upperBound])
        let r = AsciiPresenter.number(tray.frame.height / 2)
        #expect(element.contains("width=\"\(AsciiPresenter.number(tray.frame.width))\""), "\(element)")
        #expect(element.contains("rx=\"\(r)\" ry=\"\(r)\""), "the capsule's ends are not fully round: \(element)")
    }

    @Test(arguments: [30, 48, 80])
    func asciiDrawsRoundEndsForTheCapsule(columns: Int) throws {
        let (layout, environment) = try Self.trayLayout(.iphone16Pro, .portrait)
        let lines = AsciiPresenter(columns: columns).render(layout, environment: environment).split(separator: "\n").map(String.init)
        let slots = try #require(lines.firstIndex { $0.contains("(BL)") }, "\(lines.joined(separator: "\n"))")
        let row = lines[slots]
        // The side of the capsule is "(" / ")" just inside the screen's border, not "│".
        let inner = row.dropFirst().dropLast()
        #expect(inner.trimmingPrefix(while: { $0 == " " }).first == "(" && !row.contains("│"), "\(row)")
        #expect(String(inner.reversed()).trimmingPrefix(while: { $0 == " " }).first == ")", "\(row)")
        // Its top edge starts a column in from its side, with a rounded corner.
        let top = try #require(lines[..<slots].lastIndex { $0.contains("╭") })
        let corner = try #require(lines[top].firstIndex(of: "╭"))
        let side = try #require(row.dropFirst().firstIndex(of: "("))
        #expect(lines[top].distance(from: lines[top].startIndex, to: corner) == row.distance(from: row.startIndex, to: side) + 1)
    }
}
