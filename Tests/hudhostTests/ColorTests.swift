// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudRegistry
import HudTestSupport

/// `--color auto|always|never` and NO_COLOR, decided for the descriptor the
/// text actually goes to; progress only on a terminal's stderr.
struct ColorTests {
    static let escape = "\u{1B}["
    /// A short validation whose text report is coloured.
    static let validation = ["validate", "com.hudson.minimal", "--profile", "basic", "--include", "^geometry-hit-size$", "--seed", "1"]

    /// hudhost with NO_COLOR as given (HudHost.run sets it to 1 by default).
    static func run(_ arguments: [String], noColor: String = "") throws -> ProcessOutput {
        try HudHost.run(arguments, environment: ["NO_COLOR": noColor])
    }

    @Test func alwaysColoursEvenIntoAFileAndOverNOCOLORNeverDoesNot() throws {
        let always = try Self.run(Self.validation + ["--color", "always"], noColor: "1")
        #expect(always.status == 0 && always.stdout.contains(Self.escape + "32mPASS"), "\(always.transcript)")
        let never = try Self.run(Self.validation + ["--color", "never"])
        #expect(never.status == 0 && !never.stdout.contains(Self.escape), "\(never.transcript)")
        let directory = try FixturePlugins.makeScratchDirectory("color-file")
        _ = try Self.run(Self.validation + ["--color", "always", "--output", directory + "/always.txt"])
        #expect(try String(contentsOfFile: directory + "/always.txt", encoding: .utf8).contains(Self.escape))
        _ = try Self.run(Self.validation + ["--output", directory + "/auto.txt"])
        #expect(try !String(contentsOfFile: directory + "/auto.txt", encoding: .utf8).contains(Self.escape))
    }

    /// stdout is a file here: auto never colours it, whatever NO_COLOR says.
    @Test(arguments: [["validate"], ["why", "com.hudson.tray"], ["doctor"]])
    func autoLeavesTextThatIsNotForATerminalPlain(command: [String]) throws {
        let arguments = command == ["validate"] ? Self.validation : command
        let auto = try Self.run(arguments)
        #expect(!auto.stdout.contains(Self.escape), "\(auto.transcript)")
        #expect(!auto.stderr.contains("validating"), "progress on a stderr that is not a terminal: \(auto.stderr)")
        let always = try Self.run(arguments + ["--color", "always"])
        #expect(always.stdout.contains(Self.escape), "\(always.transcript)")
    }

    static var hasScript: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    /// `script` gives hudhost a terminal for stdout and stderr.
    static func onTerminal(_ shellCommand: String, noColor: String) throws -> ProcessOutput {
        try FixturePlugins.run(["env", "HOME=" + FixturePlugins.workDirectory + "/no-home", "HUD_RENDERER_PATH=", "NO_COLOR=" + noColor,
                                "TERM=xterm", "script", "-qec", shellCommand, "/dev/null"])
    }

    static var command: String { ([HudHost.path] + validation).map { "'\($0)'" }.joined(separator: " ") }

    @Test(Requirement.when(hasScript, "needs script(1) (apt-get install bsdutils) for a terminal")) func onATerminalAutoColoursAndShowsProgressUnlessNOCOLOR() throws {
        let colored = try Self.onTerminal(Self.command, noColor: "")
        #expect(colored.status == 0, "\(colored.transcript)")
        #expect(colored.stdout.contains(Self.escape + "32mPASS"), "\(colored.stdout)")
        #expect(colored.stdout.contains("validating com.hudson.minimal (1 of 1)…"), "\(colored.stdout)")
        let plain = try Self.onTerminal(Self.command, noColor: "1")
        #expect(plain.status == 0 && plain.stdout.contains("PASS") && !plain.stdout.contains(Self.escape), "\(plain.stdout)")
    }

    /// `validate > file` on a terminal: the file gets no escape codes (the
    /// decision is made on hudhost's stdout, not on descriptor 1's neighbour).
    @Test(Requirement.when(hasScript, "needs script(1) (apt-get install bsdutils) for a terminal")) func aRedirectedStdoutIsPlainEvenOnATerminal() throws {
        let directory = try FixturePlugins.makeScratchDirectory("color-redirect")
        let report = directory + "/report.txt", errors = directory + "/errors.txt"
        let output = try Self.onTerminal(Self.command + " > '\(report)'", noColor: "")
        #expect(output.status == 0, "\(output.transcript)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        #expect(text.contains("PASS") && !text.contains(Self.escape), "\(text)")
        #expect(output.stdout.contains("validating"), "progress still on the terminal's stderr: \(output.stdout)")
        _ = try Self.onTerminal(Self.command + " 2> '\(errors)'", noColor: "")
        #expect(try !String(contentsOfFile: errors, encoding: .utf8).contains("validating"))
    }
}
