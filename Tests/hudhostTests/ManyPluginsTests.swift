// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudTestSupport
import HudRegistry
import HudScenes

/// More renderers on the search path than a slot may have long-press
/// modes (`HUD_MAX_MODES`, 64): the demo's style picker shows the first 64
/// and keeps the chosen style among them, so `render` and `demo` still work.
struct ManyPluginsTests {
    /// `count` distinct plugins (ids `org.hudbench.generated-0000` …) in a
    /// fresh directory: one compiled template with its id and name digits
    /// rewritten per copy (same length, so the ELF layout is unchanged), as
    /// `Scripts/bench-peers.sh` makes them.
    static func generatedPlugins(_ count: Int) throws -> String {
        let directory = try FixturePlugins.makeScratchDirectory("many-plugins")
        chmod(directory, 0o755)
        let template = directory + "/template.so.in"
        try FixturePlugins.compileCommand(["cc", "-std=c11", "-O1", "-shared", "-fPIC", "-I", FixturePlugins.headerDirectory,
                                           "-DHUDGEN_INDEX=0000", FixturePlugins.repositoryRoot + "/Benchmarks/generated-plugin/generated_plugin.c",
                                           "-o", template])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: template))
        try FileManager.default.removeItem(atPath: template)
        let markers = ["generated-0000", "Generated 0000"].map { Data($0.utf8) }
        for index in 0..<count {
            var copy = bytes
            let digits = String(format: "%04d", index)
            for marker in markers {
                let replacement = Data((String(decoding: marker.dropLast(4), as: UTF8.self) + digits).utf8)
                var from = copy.startIndex
                while let range = copy.range(of: marker, in: from..<copy.endIndex) {
                    copy.replaceSubrange(range, with: replacement)
                    from = range.upperBound
                }
            }
            try copy.write(to: URL(fileURLWithPath: directory + "/gen-\(digits).so"))
        }
        return directory
    }

    @Test func renderWorksWithMoreRenderersThanAPickerHolds() throws {
        let directory = try Self.generatedPlugins(70)
        let cache = try FixturePlugins.makeScratchDirectory("many-plugins-cache")
        let chosen = "org.hudbench.generated-0069"
        let plugin = try DiscoveryFixtures.hudhost(["render", "--style", chosen, "--format", "json"], path: directory, cache: cache)
        #expect(plugin.status == 0, "\(plugin.transcript)")
        #expect(try HudHost.json(plugin)["renderer"]?["id"]?.stringValue == chosen)

        let tray = try DiscoveryFixtures.hudhost(["render", "--style", "tray", "--format", "json", "--events", "longpress center"],
                                                 path: directory, cache: cache)
        #expect(tray.status == 0, "\(tray.transcript)")
        let items = (try HudHost.json(tray)["layout"]?["nodes"]?.arrayValue ?? []).filter { $0["kind"]?.stringValue == "modeItem" }
        // The three built-ins, then the plugins in order, 64 in all.
        #expect(items.count == 64, "\(items.count) mode items")
        #expect(items.prefix(4).compactMap { $0["label"]?.stringValue } == ["Tray", "Scattered", "Minimal", "Generated 0000"])
        #expect(items.last?["label"]?.stringValue == "Generated 0060")

        // demo picks the first 64 from the picker and switches to the rest
        // through the shell.
        let out = try FixturePlugins.makeScratchDirectory("many-plugins-demo")
        let demo = try DiscoveryFixtures.hudhost(["demo", "--quiet", "--out", out], path: directory, cache: cache)
        #expect(demo.status == 0, "\(demo.transcript)")
        #expect(demo.stdout.contains("Shown 73 of 73 styles."), "\(demo.stdout.suffix(400))")
    }

    /// The chosen style, when it is not among the first 64, takes the last place.
    @Test func theChosenStyleStaysInAFullPicker() {
        let infos = (0..<70).map { index in
            RendererInfo(id: "org.example.style-\(index)", name: "Style \(index)", version: "1", vendor: "Example", summary: "",
                         supportedPositions: [.center], capabilities: [], abiVersion: ABIVersion(major: 1, minor: 1), origin: .builtin)
        }
        let modes = { (style: HudPhoneComplicationsStyle?) in
            DemoComplications.make(renderers: infos, keeping: style) { _ in }.center?.longPressModes?.map(\.label) ?? []
        }
        #expect(modes(nil) == (0..<64).map { "Style \($0)" })
        #expect(modes(.renderer("org.example.style-69")) == (0..<63).map { "Style \($0)" } + ["Style 69"])
        #expect(modes(.renderer("org.example.style-5")) == (0..<64).map { "Style \($0)" })
    }
}
