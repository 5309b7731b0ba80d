// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudRegistry

/// ExampleRing's two builds: SwiftPM's `libExampleRing.so`, and the
/// standalone one made with the plugin guide's command, once per test
/// process, in a directory holding nothing but a copy of ring.c.
package enum ExampleRingBuild {
    package enum Kind: Sendable, CustomTestStringConvertible {
        case standalone
        case swiftPM
        /// ring.c rebuilt against a later minor's header (`laterHeader()`).
        case laterHeader

        package var testDescription: String {
            switch self {
            case .standalone: "standalone cc"
            case .swiftPM: "SwiftPM"
            case .laterHeader: "rebuilt against a later minor's header"
            }
        }

        package func path() throws -> String {
            switch self {
            case .standalone: try ExampleRingBuild.standalone()
            case .swiftPM: FixturePlugins.binDirectory + "/libExampleRing.so"
            case .laterHeader: try ExampleRingBuild.laterHeader()
            }
        }
    }

    /// Docs/PLUGIN_GUIDE.md's build line, verbatim.
    package static let documentedCommand = "cc -std=c11 -O2 -shared -fPIC $(hudhost sdk --cflags) ring.c -o libring.so"

    package static var source: String { FixturePlugins.repositoryRoot + "/Plugins/ExampleRing/ring.c" }

    private static let built = Result { () throws(FixtureBuildError) -> String in
        let directory = try scratchCopy("ring-standalone")
        let output: ProcessOutput
        do {
            output = try shell(documentedCommand, in: directory)
        } catch {
            throw FixtureBuildError(command: [documentedCommand], output: ProcessOutput(status: -1, stdout: "", stderr: "\(error)"))
        }
        guard output.status == 0 else { throw FixtureBuildError(command: [documentedCommand], output: output) }
        return directory + "/libring.so"
    }

    /// The standalone build's path (built on first use).
    package static func standalone() throws -> String { try built.get() }

    /// The structures a later minor may grow: every size-prefixed input
    /// and the node.
    package static let growingStructures = ["hud_mode_t", "hud_secondary_t", "hud_slot_t", "hud_complications_t", "hud_palette_t",
                                    "hud_environment_t", "hud_interaction_t", "hud_node_t", "hud_layout_t"]

    /// The minor after the host's, which the simulated header claims.
    package static let laterMinor = ABIVersion(major: ABIVersion.host.major, minor: ABIVersion.host.minor + 1)

    private static let builtAgainstLaterHeader = Result { () throws(FixtureBuildError) -> String in
        let directory = try scratchCopy("ring-\(laterMinor)")
        let command = ["cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-I", directory + "/include",
                       "-o", directory + "/libring-later.so", directory + "/ring.c"]
        do {
            // A simulated SDK of the next minor: this SDK's headers with a
            // field appended to each growing structure and the minor bumped.
            // Its sizes are no longer the frozen ones, so their assertions
            // go (a real header would assert its own HUD_*_SIZE_1_N).
            try FileManager.default.copyItem(atPath: FixturePlugins.headerDirectory, toPath: directory + "/include")
            let abi = directory + "/include/hud_abi.h"
            var text = try String(contentsOfFile: abi, encoding: .utf8)
            for name in growingStructures {
                text = text.replacingOccurrences(of: "} \(name);", with: "    uint64_t appended_later; /* a later minor's field */\n} \(name);")
            }
            text = text.replacingOccurrences(of: "#define HUD_ABI_VERSION_MINOR \(ABIVersion.host.minor)",
                                             with: "#define HUD_ABI_VERSION_MINOR \(laterMinor.minor)")
            text = text.replacingOccurrences(of: "#if UINTPTR_MAX == UINT64_MAX", with: "#if 0")
            try text.write(toFile: abi, atomically: true, encoding: .utf8)
        } catch {
            throw FixtureBuildError(command: ["patch", directory + "/include/hud_abi.h"], output: ProcessOutput(status: -1, stdout: "", stderr: "\(error)"))
        }
        try FixturePlugins.compileCommand(command)
        return directory + "/libring-later.so"
    }

    /// ring.c built against a simulated header of the next minor (built on first use).
    package static func laterHeader() throws -> String { try builtAgainstLaterHeader.get() }

    /// A fresh directory holding only a copy of ring.c.
    package static func scratchCopy(_ label: String) throws(FixtureBuildError) -> String {
        do {
            let directory = try FixturePlugins.makeScratchDirectory(label)
            try FileManager.default.copyItem(atPath: source, toPath: directory + "/ring.c")
            return directory
        } catch {
            throw FixtureBuildError(command: ["cp", source], output: ProcessOutput(status: -1, stdout: "", stderr: "\(error)"))
        }
    }

    /// Runs `command` with sh in `directory`, with the built hudhost first
    /// on PATH (as if installed).
    package static func shell(_ command: String, in directory: String) throws -> ProcessOutput {
        let path = FixturePlugins.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try FixturePlugins.run(["env", "PATH=" + path, "sh", "-c", "cd \"$0\" && " + command, directory])
    }
}

/// The Rust compiler, if this machine has one: `rustc` on PATH, else
/// `~/.cargo/bin/rustc` (where rustup installs it).
package enum RustToolchain {
    package static let rustc: String? = {
        let environment = ProcessInfo.processInfo.environment
        var candidates = (environment["PATH"] ?? "").split(separator: ":").map { String($0) + "/rustc" }
        if let home = environment["HOME"] { candidates.append(home + "/.cargo/bin/rustc") }
        candidates.append(NSHomeDirectory() + "/.cargo/bin/rustc")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}
