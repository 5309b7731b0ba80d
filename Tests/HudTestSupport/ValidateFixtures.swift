// SPDX-License-Identifier: MIT
import HudSystem

/// The validate fixtures in `Tests/Fixtures/validate` (each breaks exactly
/// one conformance rule), compiled once per test process.
package enum ValidateFixture {
    /// One compile per fixture, shared by every test that asks. A
    /// `ThreadLock` (a pthread mutex ThreadSanitizer sees), not a `Mutex`.
    private static let built = ThreadLock<[String: Task<String, any Error>]>([:])

    package static var sourceDirectory: String { FixturePlugins.repositoryRoot + "/Tests/Fixtures/validate" }

    /// Fixtures linked against a library of their own (built from the
    /// named source beside them, found by an `$ORIGIN` run path).
    static let dependencies = ["forges_entry_elsewhere": "entry_elsewhere_dep"]

    /// The fixture's shared object, compiled by the first test that asks
    /// (the others wait for that compile).
    package static func path(_ name: String) async throws -> String {
        let compile = built.withLock { cache in
            if let compile = cache[name] { return compile }
            let compile = Task { () async throws -> String in
                let output = FixturePlugins.workDirectory + "/validate-" + name + ".so"
                let flags = ["cc"] + FixturePlugins.pluginFlags + ["-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory]
                var link: [String] = []
                if let dependency = dependencies[name] {
                    try await FixturePlugins.compileCommand(flags + ["-o", FixturePlugins.workDirectory + "/lib\(dependency).so", sourceDirectory + "/\(dependency).c"])
                    link = ["-L", FixturePlugins.workDirectory, "-Wl,--no-as-needed", "-l\(dependency)", "-Wl,-rpath,$ORIGIN"]
                }
                try await FixturePlugins.compileCommand(flags + ["-o", output, sourceDirectory + "/" + name + ".c"] + link)
                return output
            }
            cache[name] = compile
            return compile
        }
        return try await compile.value
    }
}
