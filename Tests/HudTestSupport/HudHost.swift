// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Synchronization
import HudRegistry

/// The built hudhost, run as a user runs it: a real subprocess with an
/// isolated HOME and no HUD_RENDERER_PATH.
package enum HudHost {
    package static var path: String { FixturePlugins.binDirectory + "/hudhost" }

    /// Runs hudhost with a clean plugin environment.
    /// With `deadline`, the test's own: a run still going after that many
    /// seconds is killed (coreutils `timeout`) and ends with status 124.
    package static func run(_ arguments: [String], environment: [String: String] = [:], deadline: Int? = nil) throws -> ProcessOutput {
        try FixturePlugins.run(command(arguments, environment: environment, deadline: deadline))
    }

    /// `run`, waited for off Swift's cooperative pool (`FixturePlugins.run(_:) async`).
    package static func run(_ arguments: [String], environment: [String: String] = [:], deadline: Int? = nil) async throws -> ProcessOutput {
        try await FixturePlugins.run(command(arguments, environment: environment, deadline: deadline))
    }

    private static func command(_ arguments: [String], environment: [String: String], deadline: Int?) -> [String] {
        var env = ["HOME": FixturePlugins.workDirectory + "/no-home", "HUD_RENDERER_PATH": "", "NO_COLOR": "1"]
        env.merge(environment) { $1 }
        let limit = deadline.map { ["timeout", "--kill-after=5", String($0)] } ?? []
        return limit + ["env"] + env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [path] + arguments
    }

    /// The status coreutils `timeout` gives a run it killed.
    package static let deadlineStatus: Int32 = 124

    package static func json(_ output: ProcessOutput) throws -> JSONValue {
        try JSONParser.parse(output.stdout)
    }
}

/// Builds Tests/Fixtures/discovery/<name>.c once per process.
package enum DiscoveryFixtures {
    private static let built = Mutex<[String: String]>([:])

    package static func path(_ name: String) throws -> String {
        try built.withLock { cache throws -> String in
            if let path = cache[name] { return path }
            let source = FixturePlugins.repositoryRoot + "/Tests/Fixtures/discovery/" + name + ".c"
            let output = FixturePlugins.workDirectory + "/discovery-" + name + ".so"
            var command = ["cc"] + FixturePlugins.pluginFlags + ["-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory]
            if name == "needs_missing_lib" {
                // Link against a library, then delete it: dlopen must fail.
                let dependencyDirectory = try FixturePlugins.makeScratchDirectory("missing-dep")
                let dependency = dependencyDirectory + "/libhudmissingdep.so"
                try FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + ["-o", dependency, FixturePlugins.repositoryRoot + "/Tests/Fixtures/discovery/missing_dep.c"])
                command += ["-o", output, source, "-L", dependencyDirectory, "-lhudmissingdep"]
                try FixturePlugins.compileCommand(command)
                try FileManager.default.removeItem(atPath: dependency)
            } else {
                command += ["-o", output, source]
                try FixturePlugins.compileCommand(command)
            }
            cache[name] = output
            return output
        }
    }

    /// A private directory holding copies of the named fixtures (and of
    /// `plugins` fixtures), mode 0755, for one test.
    package static func directory(_ label: String, discovery: [String] = [], plugins: [Fixture] = []) throws -> String {
        let directory = try FixturePlugins.makeScratchDirectory(label)
        chmod(directory, 0o755)
        for name in discovery { try FileManager.default.copyItem(atPath: DiscoveryFixtures.path(name), toPath: directory + "/\(name).so") }
        for fixture in plugins { try FileManager.default.copyItem(atPath: FixturePlugins.path(of: fixture), toPath: directory + "/" + fixture.fileName) }
        return directory
    }

    /// hudhost with a private HOME and cache and the given search path.
    package static func hudhost(_ arguments: [String], path: String, cache: String, extra: [String: String] = [:]) throws -> ProcessOutput {
        try HudHost.run(arguments, environment: environment(path: path, cache: cache, extra: extra))
    }

    /// `hudhost`, waited for off Swift's cooperative pool (`FixturePlugins.run(_:) async`).
    package static func hudhost(_ arguments: [String], path: String, cache: String, extra: [String: String] = [:]) async throws -> ProcessOutput {
        try await HudHost.run(arguments, environment: environment(path: path, cache: cache, extra: extra))
    }

    private static func environment(path: String, cache: String, extra: [String: String]) -> [String: String] {
        ["HUD_RENDERER_PATH": path, "XDG_CACHE_HOME": cache, "HUD_SCAN_TIMEOUT": "2"].merging(extra) { $1 }
    }
}
