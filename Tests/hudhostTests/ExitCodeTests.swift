// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudRegistry
import HudTestSupport

/// One exit-code table for every command (0 ok, 1 failure, 2 usage, 3 a
/// target named on the command line cannot be used), checked command by
/// command against the real binary, with the message that says why.
struct ExitCodeTests {
    /// One command line and what it must exit with. `{layout-fails}` in an
    /// argument is replaced by the path of the fixture plugin whose
    /// `layout()` always fails (it loads fine: its failures are 1, not 3).
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var status: Int32
        /// A piece of stderr that must appear (empty: not checked).
        var message: String
        var environment: [String: String] = [:]

        var command: String { arguments.first ?? "" }
        var testDescription: String { "\(arguments.joined(separator: " ")) → \(status)" }
    }

    static let layoutFailsID = "org.fixture.layout-fails"

    static let cases: [Case] = [
        // list
        Case(arguments: ["list"], status: 0, message: ""),
        Case(arguments: ["list", "--jsn"], status: 2, message: "unknown option '--jsn' (did you mean --json?)"),
        Case(arguments: ["list", "--plugin", "/nonexistent/x.so"], status: 3, message: "--plugin /nonexistent/x.so: no such file"),
        // probe
        Case(arguments: ["probe", "com.hudson.tray", "--no-sample"], status: 0, message: ""),
        Case(arguments: ["probe"], status: 2, message: "probe needs a plugin path or a renderer id"),
        Case(arguments: ["probe", "/nonexistent/x.so"], status: 3, message: "/nonexistent/x.so: not a loadable file"),
        Case(arguments: ["probe", "com.hudson.tary"], status: 3, message: "no renderer with id 'com.hudson.tary' (did you mean 'com.hudson.tray'?)"),
        Case(arguments: ["probe", "com.hudson.tray", "--plugin", "/nonexistent/x.so"], status: 3, message: "/nonexistent/x.so: not a loadable file"),
        Case(arguments: ["probe", "{layout-fails}"], status: 1, message: ""),
        // render
        Case(arguments: ["render"], status: 0, message: ""),
        Case(arguments: ["render", "--device", "nope"], status: 2, message: "invalid value 'nope' for --device"),
        Case(arguments: ["render", "--format", "svg", "--json"], status: 2, message: "--json and --format svg ask for two formats"),
        Case(arguments: ["render", "--format", "json", "--json"], status: 0, message: ""),
        Case(arguments: ["render", "--layout-timeout", "1e308"], status: 2, message: "invalid value '1e308' for --layout-timeout; expected seconds greater than 0 and at most 3600"),
        Case(arguments: ["render", "--reveal", "topLeft"], status: 2, message: "--reveal topLeft: the topLeft slot has no long-press modes"),
        Case(arguments: ["render", "--events", "tap 999,10"], status: 2, message: "the point (999, 10) is off the screen; iphone-16-pro in portrait is 402×874 pt"),
        Case(arguments: ["render", "--style", "nope"], status: 3, message: "no renderer with id 'nope'"),
        Case(arguments: ["render", "--style", "scatered"], status: 3, message: "(did you mean 'scattered'?)"),
        Case(arguments: ["render", "--out", "/nonexistent/directory/x.txt"], status: 3, message: "cannot write /nonexistent/directory/x.txt: /nonexistent/directory: No such file or directory"),
        Case(arguments: ["render", "--scene", "/nonexistent/scene.json"], status: 3, message: "scene /nonexistent/scene.json: cannot read it"),
        Case(arguments: ["render", "--plugin", "/nonexistent/x.so"], status: 3, message: "not a loadable file"),
        Case(arguments: ["render", "--plugin", "{layout-fails}", "--style", layoutFailsID], status: 1, message: "layout failed"),
        Case(arguments: ["render", "--events", "tap mode:tray"], status: 1, message: "no modes are revealed"),
        // demo
        Case(arguments: ["demo", "--no-svg", "--quiet"], status: 0, message: ""),
        Case(arguments: ["demo", "--columns", "5"], status: 2, message: "invalid value '5' for --columns"),
        Case(arguments: ["demo", "--out", "/proc/self/hud-demo"], status: 3, message: "cannot write /proc/self/hud-demo"),
        Case(arguments: ["demo", "--plugin", "/nonexistent/x.so", "--no-svg"], status: 3, message: "not a loadable file"),
        Case(arguments: ["demo", "--plugin", "{layout-fails}", "--no-svg", "--quiet"], status: 1,
             message: "style '\(layoutFailsID)' cannot be shown: renderer '\(layoutFailsID)'"),
        // why
        Case(arguments: ["why", "com.hudson.tray"], status: 0, message: ""),
        Case(arguments: ["why"], status: 2, message: "why takes one renderer id or plugin path"),
        Case(arguments: ["why", "org.nowhere.x"], status: 3, message: ""),
        Case(arguments: ["why", "/nonexistent/x.so"], status: 3, message: ""),
        Case(arguments: ["why", "com.hudson.tray"], status: 3, message: "", environment: ["HUD_RENDERERS_DISABLE": "*tray"]),
        // cache
        Case(arguments: ["cache", "--path"], status: 0, message: ""),
        Case(arguments: ["cache", "--clear", "--json"], status: 2, message: "give at most one of --clear, --path, --json"),
        Case(arguments: ["cache"], status: 1, message: "no cache directory", environment: ["HOME": "", "XDG_CACHE_HOME": ""]),
        // doctor
        Case(arguments: ["doctor", "--json"], status: 0, message: ""),
        Case(arguments: ["doctor", "now"], status: 2, message: "doctor takes no arguments"),
        Case(arguments: ["doctor", "--color", "sometimes"], status: 2, message: "invalid value 'sometimes' for --color; expected auto, always or never"),
        // sdk
        Case(arguments: ["sdk", "--abi-version"], status: 0, message: ""),
        Case(arguments: ["sdk", "--json", "--cflags"], status: 2, message: "--json prints everything"),
        // new
        Case(arguments: ["new", "--lang", "c", "{scratch}/fresh"], status: 0, message: ""),
        Case(arguments: ["new", "--lang", "cobol", "{scratch}/other"], status: 2, message: "invalid value 'cobol' for --lang"),
        Case(arguments: ["new", "--id", "Bad", "{scratch}/other"], status: 2, message: "invalid --id"),
        Case(arguments: ["new", "/proc"], status: 3, message: "cannot create the project in /proc"),
        // completions
        Case(arguments: ["completions", "bash"], status: 0, message: ""),
        Case(arguments: ["completions", "tcsh"], status: 2, message: "unknown shell 'tcsh'"),
        // validate
        Case(arguments: ["validate", "--list-checks"], status: 0, message: ""),
        Case(arguments: ["validate"], status: 2, message: "validate needs at least one plugin path or renderer id"),
        Case(arguments: ["validate", "com.hudson.tray", "--timeout", "1e308"], status: 2, message: "invalid value '1e308' for --timeout"),
        Case(arguments: ["validate", "com.hudson.tray", "--memory-mb", "99999999999999999999"], status: 2, message: "for --memory-mb; expected megabytes: a whole number from 256 to 1048576"),
        Case(arguments: ["validate", "/nonexistent/x.so"], status: 3, message: "/nonexistent/x.so: No such file or directory"),
        Case(arguments: ["validate", "/proc"], status: 3, message: "/proc: it is a directory"),
        Case(arguments: ["validate", "com.hudson.tary"], status: 3, message: "no renderer with id 'com.hudson.tary' (did you mean 'com.hudson.tray'?)"),
        Case(arguments: ["validate", "com.hudson.tray", "--output", "/nonexistent/directory/r.txt"], status: 3, message: "cannot write /nonexistent/directory/r.txt"),
        Case(arguments: ["validate", "{layout-fails}", "--profile", "basic", "--seed", "1", "--timeout", "60"], status: 1, message: ""),
        // snapshot
        Case(arguments: ["snapshot", "record", "com.hudson.minimal", "--dir", "{scratch}", "--filter", "iphone-se_portrait_ltr_S_dark_resting"], status: 0, message: ""),
        Case(arguments: ["snapshot", "verify", "com.hudson.minimal"], status: 2, message: "snapshot verify needs --dir DIR"),
        Case(arguments: ["snapshot", "verify", "com.hudson.minimal", "--dir", "{scratch}", "--filter", "iphone-se_portrait_ltr_S_dark_resting"], status: 1, message: ""),
        Case(arguments: ["snapshot", "verify", "/nonexistent/x.so", "--dir", "{scratch}"], status: 3, message: "/nonexistent/x.so"),
        Case(arguments: ["snapshot", "record", "com.hudson.minimal", "--dir", "/proc/hud-snapshots"], status: 3, message: "cannot write /proc/hud-snapshots"),
        // gallery
        Case(arguments: ["gallery", "com.hudson.minimal", "--out", "{scratch}", "--filter", "iphone-se_portrait_ltr_S_dark_resting"], status: 0, message: ""),
        Case(arguments: ["gallery", "com.hudson.minimal"], status: 2, message: "gallery needs --out DIR"),
        Case(arguments: ["gallery", "com.hudson.tary", "--out", "{scratch}"], status: 3, message: "no renderer with id 'com.hudson.tary'"),
    ]

    static func resolve(_ arguments: [String]) throws -> [String] {
        let plugin = try FixturePlugins.path(of: .layoutFails)
        let scratch = arguments.contains { $0.hasPrefix("{scratch}") } ? try FixturePlugins.makeScratchDirectory("exit-codes") : ""
        return arguments.map { $0 == "{layout-fails}" ? plugin : $0.replacingOccurrences(of: "{scratch}", with: scratch) }
    }

    @Test(arguments: cases)
    func everyCommandExitsWithTheCodeFromTheOneTable(_ c: Case) throws {
        let output = try HudHost.run(try Self.resolve(c.arguments), environment: c.environment)
        #expect(output.status == c.status, "\(output.transcript)")
        if !c.message.isEmpty {
            #expect(output.stderr.contains(c.message), "\(output.transcript)")
        }
        if c.status == 2 {
            #expect(output.stderr.contains("Run `hudhost \(c.command) --help` for usage."), "\(output.transcript)")
        }
    }

    /// The table covers every command listed in `hudhost --help`, each with
    /// a success and a usage error, and a code 3 wherever the command takes
    /// a target (all but cache, doctor, sdk and completions, which name none).
    @Test func theTableCoversEveryCommand() throws {
        let usage = try HudHost.run(["--help"]).stdout
        let commands = usage.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first, !word.hasPrefix("-") else { return nil }
            return String(word)
        }.filter { ["list", "probe", "render", "demo", "why", "cache", "doctor", "sdk", "validate", "snapshot", "gallery", "new", "completions"].contains($0) }
        #expect(commands.count == 13, "\(usage)")
        for command in commands {
            let statuses = Set(Self.cases.filter { $0.command == command }.map(\.status))
            #expect(statuses.isSuperset(of: [0, 2]), "\(command): \(statuses)")
            if !["cache", "doctor", "sdk", "completions"].contains(command) {
                #expect(statuses.contains(3), "\(command) has no exit-3 case")
            }
        }
    }

    /// Every command's --help prints the one table, word for word.
    @Test(arguments: ["list", "probe", "render", "demo", "why", "cache", "doctor", "sdk", "validate", "new", "completions"])
    func everyHelpPrintsTheSameExitCodeTable(command: String) throws {
        let help = try HudHost.run([command, "--help"])
        #expect(help.status == 0)
        let general = try HudHost.run(["--help"]).stdout
        let table = try #require(general.range(of: "EXIT CODES").map { String(general[$0.lowerBound...]) })
        #expect(help.stdout.contains(table.trimmingCharacters(in: .newlines)), "\(command) --help lacks the exit-code table")
        #expect(help.stdout.contains("3  a target named on the command line cannot be used"))
    }

    /// `cache --clear` that cannot remove a cache file says which and
    /// exits 1 (the record would keep a failed plugin skipped).
    @Test func aCacheFileThatCannotBeRemovedIsAFailure() throws {
        let cache = try FixturePlugins.makeScratchDirectory("cache-clear")
        try FileManager.default.createDirectory(atPath: cache + "/hud/registry-stuck", withIntermediateDirectories: true)
        try "x".write(toFile: cache + "/hud/registry-stuck/inside", atomically: true, encoding: .utf8)
        try "{}".write(toFile: cache + "/hud/registry-0123.json", atomically: true, encoding: .utf8)
        let output = try HudHost.run(["cache", "--clear"], environment: ["XDG_CACHE_HOME": cache])
        #expect(output.status == 1, "\(output.transcript)")
        #expect(output.stdout.contains("removed 1 cache file from \(cache)/hud"), "\(output.transcript)")
        #expect(output.stderr.contains("hudhost cache: error: cannot remove \(cache)/hud/registry-stuck: Is a directory"), "\(output.transcript)")
        let empty = try HudHost.run(["cache", "--clear"], environment: ["XDG_CACHE_HOME": cache + "/nothing-here"])
        #expect(empty.status == 0 && empty.stdout.contains("removed 0 cache files"), "\(empty.transcript)")
    }

    /// With --json a target that cannot be used still leaves one JSON
    /// document on stdout, with the error's code, and the same exit code.
    @Test(arguments: [
        (["render", "--style", "nope", "--json"], "unknown-renderer"),
        (["render", "--scene", "/nonexistent/scene.json", "--json"], "unusable-scene"),
        (["render", "--out", "/nonexistent/directory/x.json", "--json"], "unwritable-output"),
        (["probe", "nope", "--json"], "unknown-renderer"),
        (["validate", "/nonexistent/x.so", "--format", "json"], "not-a-file"),
        (["validate", "nope", "--format", "json"], "unknown-renderer"),
        (["validate", "com.hudson.tray", "--format", "json", "--output", "/nonexistent/directory/r.json"], "unwritable-output"),
    ] as [([String], String)])
    func unusableTargetsInJSONModeStillPrintOneErrorDocument(arguments: [String], code: String) throws {
        let output = try HudHost.run(arguments)
        #expect(output.status == 3, "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(json["schemaVersion"] == 1)
        #expect(json["error"]?["code"]?.stringValue == code, "\(output.stdout)")
        #expect(json["error"]?["message"]?.stringValue?.isEmpty == false)
        if arguments[0] != "render" { #expect(json["target"] != nil, "\(output.stdout)") }
    }
}
