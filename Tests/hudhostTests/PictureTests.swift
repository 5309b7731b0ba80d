// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudRegistry
import HudTestSupport

/// What the pictures tell a reader: the ASCII glyph key in `render --help`
/// and README, the light scheme's status bar, and a demo that reads as
/// numbered steps.
struct PictureTests {
    /// Every glyph the terminal picture draws, as its key lists it.
    static let glyphs = ["+---+ |", "·······", "(TL) (TR) (BL) (BR) (C)", "(*C*)", "(?)", "S  s", "╭──╮ │ ╰──╯", "[✓Tray] [Scat…]"]

    @Test func renderHelpAndTheREADMEExplainEveryGlyphOfThePicture() throws {
        let help = try HudHost.run(["render", "--help"])
        #expect(help.status == 0)
        let readme = try String(contentsOfFile: FixturePlugins.repositoryRoot + "/README.md", encoding: .utf8)
        for glyph in Self.glyphs {
            #expect(help.stdout.contains(glyph), "render --help does not explain \(glyph)")
            #expect(readme.contains(glyph), "README does not explain \(glyph)")
        }
        // And the picture draws them: the glyphs of a revealed tray.
        let picture = try HudHost.run(["render", "--reveal", "center", "--events", "press center"]).stdout
        for glyph in ["+", "|", "·", "(TL)", "(*C*)", "╭", "│", "╯", "[✓Tr"] { #expect(picture.contains(glyph), "\(glyph) in\n\(picture)") }
    }

    @Test func theLightSchemesStatusBarReadsOnALightBackground() throws {
        let output = try HudHost.run(["render", "--scheme", "light", "--appearance", "system", "--format", "svg"])
        #expect(output.status == 0, "\(output.transcript)")
        let lines = output.stdout.split(separator: "\n")
        let background = try #require(lines.first { $0.contains("id=\"background\"") })
        #expect(background.contains("fill=\"#FAFAFA\""), "\(background)")
        let time = try #require(lines.first { $0.contains(">9:41<") })
        #expect(time.contains("fill=\"#171717\""), "\(time)")
        #expect(output.stdout.contains("data-scheme=\"light\""))
    }

    @Test func symbolNamesAreInTheSVGOnlyWithTheFlag() throws {
        let plain = try HudHost.run(["render", "--format", "svg"])
        #expect(plain.status == 0, "\(plain.transcript)")
        #expect(!plain.stdout.contains("class=\"symbol-name\""))
        let named = try HudHost.run(["render", "--format", "svg", "--symbol-names"])
        #expect(named.status == 0, "\(named.transcript)")
        #expect(named.stdout.contains("class=\"symbol-name\""))
        #expect(named.stdout.contains(">list.bullet</text>"))

        let directory = try FixturePlugins.makeScratchDirectory("demo-symbol-names")
        let demo = try HudHost.run(["demo", "--quiet", "--symbol-names", "--out", directory])
        #expect(demo.status == 0, "\(demo.transcript)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(!files.isEmpty)
        for file in files {
            let svg = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            #expect(svg.contains("class=\"symbol-name\""), "\(file)")
        }
    }

    @Test func theDemoReadsAsNumberedStepsWithTheirFiles() throws {
        let directory = try FixturePlugins.makeScratchDirectory("demo-steps")
        let output = try HudHost.run(["demo", "--out", directory])
        #expect(output.status == 0, "\(output.transcript)")
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Hudson HUD demo · iphone-16-pro portrait, ltr, hudson appearance")
        #expect(lines.dropFirst().first == "3 styles, one long-press mode each: tray (Tray), scattered (Scattered), minimal (Minimal)")
        let headings = lines.filter { $0.hasPrefix("── ") }
        #expect(headings.count == 9)  // 7 style steps, then the control deck resting and expanded
        #expect(headings.suffix(2).map { $0.contains("control deck") } == [true, true])
        for (index, heading) in headings.enumerated() {
            #expect(heading.hasPrefix("── \(index + 1)/9  "), "\(heading)")
            // A rule as wide as the 40-column pictures; a longer caption gets a short one.
            #expect(heading.hasSuffix("───"), "\(heading)")
            #expect(heading.count == 40 || (heading.count > 40 && heading.hasSuffix(" ───")), "\(heading)")
        }
        let written = lines.filter { $0.hasPrefix("  → ") }.map { String($0.dropFirst(4)) }
        #expect(written == (try FileManager.default.contentsOfDirectory(atPath: directory).sorted()))
        #expect(output.stdout.hasSuffix("Shown 3 of 3 styles.\nWrote 9 SVG files to \(directory)\n"), "\(output.stdout.suffix(200))")
    }

    @Test func aStyleTheDemoCannotShowIsNamedWithWhyAndStylesFilteredOutAreNoted() throws {
        let plugin = try FixturePlugins.path(of: .layoutFails)
        let output = try HudHost.run(["demo", "--no-svg", "--quiet", "--plugin", plugin], environment: ["HUD_RENDERERS_DISABLE": "*scattered"])
        #expect(output.status == 1, "\(output.transcript)")
        #expect(output.stderr.contains("hudhost demo: note: style 'com.hudson.scattered' is not shown: disabled by HUD_RENDERERS_DISABLE pattern '*scattered'"),
                "\(output.transcript)")
        #expect(output.stderr.contains("hudhost demo: style 'org.fixture.layout-fails' cannot be shown: renderer 'org.fixture.layout-fails'"), "\(output.transcript)")
        #expect(output.stdout.contains("Shown 2 of 3 styles; failed: org.fixture.layout-fails."), "\(output.stdout)")
    }
}
