// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Testing
import HudRegistry
import HudTestSupport

/// Input that is checked before any work: numeric ranges, the title's ABI
/// limit, scene files that are not regular files, large scenes parsed in
/// linear time, reveals and points that make no sense for the screen.
struct InputCheckTests {
    @Test(arguments: [
        (["validate", "com.hudson.tray", "--timeout", "1e308"], "--timeout"),
        (["validate", "com.hudson.tray", "--timeout", "0"], "--timeout"),
        (["validate", "com.hudson.tray", "--timeout", "nan"], "--timeout"),
        (["validate", "com.hudson.tray", "--timeout", "0x10"], "--timeout"),
        (["validate", "com.hudson.tray", "--fuzz-iterations", "-1"], "--fuzz-iterations"),
        (["validate", "com.hudson.tray", "--fuzz-iterations", "1000001"], "--fuzz-iterations"),
        (["validate", "com.hudson.tray", "--cpu-seconds", "86401"], "--cpu-seconds"),
        (["validate", "com.hudson.tray", "--memory-mb", "255"], "--memory-mb"),
        (["validate", "com.hudson.tray", "-j", "0"], "-j"),
        (["validate", "com.hudson.tray", "--jobs", "257"], "--jobs"),
        (["render", "--layout-timeout", "inf"], "--layout-timeout"),
        (["render", "--layout-timeout", "-1"], "--layout-timeout"),
        (["render", "--layout-timeout", "3600.5"], "--layout-timeout"),
        (["render", "--long-press", "1e308"], "--long-press"),
        (["render", "--columns", "401"], "--columns"),
        (["render", "--events", "wait 1e308"], "wait takes a number of seconds"),
        (["render", "--events", "tap center @1e307"], "is not a time"),
    ] as [([String], String)])
    func aNumberOutOfRangeIsAUsageErrorNamingTheOption(arguments: [String], option: String) async throws {
        let output = try await HudHost.run(arguments)
        #expect(output.status == 2, "\(output.transcript)")
        #expect(output.stderr.contains(option), "\(output.transcript)")
        #expect(!output.stderr.contains("Fatal error") && !output.stderr.contains("Backtrace"), "\(output.transcript)")
    }

    @Test func numbersAtTheEdgesOfTheirRangesAreAccepted() async throws {
        #expect(try await HudHost.run(["render", "--layout-timeout", "3600", "--long-press", "0.05", "--columns", "400"]).status == 0)
        let validate = try await HudHost.run(["validate", "com.hudson.minimal", "--profile", "basic", "--include", "^abi-", "--timeout", "3600",
                                        "--jobs", "256", "--cpu-seconds", "86400", "--fuzz-iterations", "0"])
        #expect(validate.status == 0, "\(validate.transcript)")
    }

    @Test func aTitleLongerThanTheABIAllowsIsAUsageError() async throws {
        let limit = String(repeating: "é", count: 2048)  // 4096 bytes of UTF-8
        let accepted = try await HudHost.run(["render", "--title", limit, "--json"])
        #expect(accepted.status == 0, "\(accepted.transcript)")
        #expect(try HudHost.json(accepted)["environment"]?["navigationTitle"]?.stringValue == limit)
        for arguments in [["render"], ["demo", "--no-svg"], ["probe", "com.hudson.tray"]] {
            let refused = try await HudHost.run(arguments + ["--title", limit + "x"])
            #expect(refused.status == 2, "\(refused.transcript)")
            #expect(refused.stderr.contains("--title is 4097 bytes of UTF-8; a navigation title is at most 4096 bytes"), "\(refused.transcript)")
        }
    }

    /// A FIFO (or any non-regular file) as a scene is refused at once; it
    /// used to block in open(2) waiting for a writer. `timeout` turns a
    /// regression into a failure instead of a hung suite.
    @Test func aSceneThatIsNotARegularFileIsRefusedWithoutBlocking() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("fifo-scene")
        let fifo = directory + "/scene.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["render", "--scene", fifo], ["render", "--scene", fifo, "--json"], ["render", "--scene", directory]] {
            let output = try await FixturePlugins.run(["env", "HOME=" + FixturePlugins.workDirectory + "/no-home", "HUD_RENDERER_PATH=",
                                                 "timeout", "60", HudHost.path] + arguments)
            #expect(output.status == 3, "\(output.transcript)")
            let kind = arguments[2] == fifo ? "a FIFO (named pipe)" : "a directory"
            #expect(output.stderr.contains("scene \(arguments[2]): cannot read it: it is \(kind), not a regular file"), "\(output.transcript)")
        }
    }

    /// A scene whose top-level object has 40,000 keys: with a repeated key
    /// it is rejected naming the key and where; with distinct keys it
    /// parses and fails on the first unknown key (the scene schema), as a
    /// small one would.
    @Test(arguments: [true, false])
    func aLargeSceneIsParsedAndJudgedCorrectly(repeatsAKey: Bool) async throws {
        let directory = try FixturePlugins.makeScratchDirectory("large-scene")
        var members = ["\"schemaVersion\": 1"] + (0..<40_000).map { "\"k\($0)\": \($0)" }
        if repeatsAKey { members.append("\"k39999\": 0") }
        let text = "{" + members.joined(separator: ", ") + "}"
        try text.write(toFile: directory + "/large.json", atomically: true, encoding: .utf8)
        let output = try await HudHost.run(["render", "--scene", directory + "/large.json"])
        #expect(output.status == 3, "\(output.transcript)")
        let expected = repeatsAKey
            ? "not valid JSON: line 1, column \(text.utf8.count - 3): duplicate key \"k39999\""
            : "k0: is not a known key"
        #expect(output.stderr.contains("scene \(directory)/large.json: \(expected)"), "\(output.transcript)")
    }

    @Test func revealingASlotWithoutModesIsAUsageError() async throws {
        for position in ["topLeft", "topRight", "bottomLeft", "bottomRight"] {
            let output = try await HudHost.run(["render", "--reveal", position, "--json"])
            #expect(output.status == 2, "\(output.transcript)")
            #expect(try HudHost.json(output)["error"]?["code"]?.stringValue == "usage")
            #expect(output.stderr.contains("--reveal \(position): the \(position) slot has no long-press modes"), "\(output.transcript)")
            #expect(output.stderr.contains("slots with modes: center"), "\(output.transcript)")
        }
        #expect(try await HudHost.run(["render", "--reveal", "center"]).status == 0)
    }

    /// Points are judged against the chosen device and orientation.
    @Test(arguments: [
        (["--events", "tap 401,873"], 0, ""),
        (["--events", "tap 403,10"], 2, "the point (403, 10) is off the screen; iphone-16-pro in portrait is 402×874 pt (x 0…402, y 0…874)"),
        (["--events", "longpress 10,-0.5"], 2, "the point (10, -0.5) is off the screen"),
        (["--events", "tap center; press 800,100; release"], 2, "event 2 'press 800,100'"),
        (["--events", "tap 800,100", "--landscape"], 0, ""),
        (["--events", "tap 800,100", "--device", "iphone-se", "--landscape"], 2, "iphone-se in landscape is 667×375 pt"),
        (["--events", "move 1,1000"], 2, "the point (1, 1000) is off the screen"),
    ] as [([String], Int32, String)])
    func pointsOffTheScreenAreUsageErrors(arguments: [String], status: Int32, message: String) async throws {
        let output = try await HudHost.run(["render"] + arguments)
        #expect(output.status == status, "\(output.transcript)")
        if !message.isEmpty { #expect(output.stderr.contains(message), "\(output.transcript)") }
    }
}
