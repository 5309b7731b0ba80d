// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudRegistry
import HudTestSupport

/// Writing fails — a full device, a closed stdout — and hudhost says so on
/// stderr and exits non-zero, never a silent 0 with the output lost.
struct OutputErrorTests {
    /// hudhost with stdout redirected by the shell (`> /dev/full`, `>&-`).
    static func run(_ arguments: [String], stdout redirection: String, environment: [String: String] = [:]) throws -> ProcessOutput {
        var env = ["HOME": FixturePlugins.workDirectory + "/no-home", "HUD_RENDERER_PATH": "", "NO_COLOR": "1"]
        env.merge(environment) { $1 }
        return try FixturePlugins.run(["env"] + env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + ["sh", "-c", "exec \"$0\" \"$@\" \(redirection)", HudHost.path] + arguments)
    }

    static let commands: [[String]] = [
        ["list"], ["list", "--json"], ["render"], ["render", "--json"], ["render", "--format", "svg"],
        ["probe", "com.hudson.minimal"], ["demo", "--no-svg"], ["why", "com.hudson.tray"], ["cache", "--path"],
        ["doctor"], ["sdk", "--abi-version"], ["validate", "--list-checks"], ["--help"], ["render", "--help"],
    ]

    @Test(arguments: commands)
    func aFullDeviceIsAnErrorNotASilentSuccess(arguments: [String]) throws {
        let output = try Self.run(arguments, stdout: "> /dev/full")
        #expect(output.status == 1, "\(output.transcript)")
        #expect(output.stderr.hasSuffix("hudhost: error: could not write to standard output: No space left on device\n"), "\(output.transcript)")
    }

    @Test(arguments: commands)
    func aClosedStdoutIsAnErrorNotASilentSuccess(arguments: [String]) throws {
        let output = try Self.run(arguments, stdout: ">&-")
        #expect(output.status == 1, "\(output.transcript)")
        #expect(output.stderr.hasSuffix("hudhost: error: could not write to standard output: Bad file descriptor\n"), "\(output.transcript)")
    }

    /// A command that had already failed keeps its own code (and still
    /// says the write failed); one that writes nothing to stdout succeeds.
    @Test func anEarlierFailureKeepsItsCodeAndNoWriteIsNoError() throws {
        let unknown = try Self.run(["render", "--style", "nope", "--json"], stdout: "> /dev/full")
        #expect(unknown.status == 3, "\(unknown.transcript)")
        #expect(unknown.stderr.contains("no renderer with id 'nope'") && unknown.stderr.contains("could not write to standard output"))
        let usage = try Self.run(["render", "--device", "nope", "--json"], stdout: ">&-")
        #expect(usage.status == 2, "\(usage.transcript)")
        let directory = try FixturePlugins.makeScratchDirectory("closed-stdout")
        let quiet = try Self.run(["render", "--format", "svg", "--out", directory + "/tray.svg"], stdout: ">&-")
        #expect(quiet.status == 0, "\(quiet.transcript)")
        #expect(try String(contentsOfFile: directory + "/tray.svg", encoding: .utf8).hasPrefix("<?xml"))
    }

    /// With stdout closed, the next file hudhost opens would get descriptor
    /// 1; its output must not land in that file (here: the registry cache).
    @Test func aClosedStdoutNeverRedirectsOutputIntoAFile() throws {
        let cache = try FixturePlugins.makeScratchDirectory("closed-stdout-cache")
        let output = try Self.run(["list", "--json"], stdout: ">&-", environment: ["XDG_CACHE_HOME": cache])
        #expect(output.status == 1, "\(output.transcript)")
        let files = (try? FileManager.default.subpathsOfDirectory(atPath: cache)) ?? []
        for file in files where !file.hasSuffix("/") {
            let text = (try? String(contentsOfFile: cache + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains("\"refusedPaths\""), "\(file) holds list's output: \(text.prefix(200))")
        }
    }
}
