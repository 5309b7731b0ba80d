// SPDX-License-Identifier: MIT
import HudSystem

/// The validate fixtures in `Tests/Fixtures/validate` (each breaks exactly
/// one conformance rule), compiled once per test process.
package enum ValidateFixture {
    /// One compile per fixture, shared by every test that asks. A
    /// `ThreadLock` (a pthread mutex ThreadSanitizer sees), not a `Mutex`.
    private static let built = ThreadLock<[String: Task<String, any Error>]>([:])

    package static var sourceDirectory: String { FixturePlugins.repositoryRoot + "/Tests/Fixtures/validate" }

    /// The fixture's shared object, compiled by the first test that asks
    /// (the others wait for that compile).
    package static func path(_ name: String) async throws -> String {
        let compile = built.withLock { cache in
            if let compile = cache[name] { return compile }
            let compile = Task { () async throws -> String in
                let output = FixturePlugins.workDirectory + "/validate-" + name + ".so"
                try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + [
                    "-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory,
                    "-o", output, sourceDirectory + "/" + name + ".c",
                ])
                return output
            }
            cache[name] = compile
            return compile
        }
        return try await compile.value
    }
}
