// SPDX-License-Identifier: MIT
import Foundation
import Testing

/// What a test needs from the machine beyond the build: a tool, root, a
/// kernel feature. Elsewhere a missing one skips the test visibly (Swift
/// Testing reports it skipped, with the reason); in CI (`CI=true`, which
/// `.ci/run` sets) the test runs anyway and fails on the first
/// `Requirement.require`, so nothing passes there by being skipped.
package enum Requirement {
    /// `CI=true` in the environment.
    package static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// True when `tool` is an executable in one of the system's bin directories.
    package static func installed(_ tool: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/local/bin/", "/usr/sbin/", "/sbin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool) }
    }

    /// A trait: the test runs when `met` (or in CI), else is skipped with
    /// `reason` ("needs strace (apt-get install strace)").
    package static func when(_ met: Bool, _ reason: Comment) -> ConditionTrait {
        .enabled(if: met || inCI, reason)
    }

    /// A trait for tools: every one of `tools` installed.
    package static func tools(_ tools: String..., install: String) -> ConditionTrait {
        when(tools.allSatisfy(installed), "needs \(tools.joined(separator: " and ")) (\(install))")
    }

    /// Inside a test: fails it, saying what is missing, unless `met`.
    package static func require(_ met: Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(met, "\(what) is missing here; outside CI the test is skipped", sourceLocation: sourceLocation)
    }
}

/// Deadlines a test provokes on purpose (a plugin that hangs): short, so a
/// hang is proven in a fraction of a second, and set by the test itself.
package enum ProvokedDeadline {
    /// The suite runs under AddressSanitizer or ThreadSanitizer
    /// (Scripts/sanitizer-tests.sh exports their options): children start
    /// and run 5–15× slower there.
    package static let underSanitizer = ["ASAN_OPTIONS", "TSAN_OPTIONS"].contains { ProcessInfo.processInfo.environment[$0] != nil }

    /// Seconds, as a command-line value: 0.5, or 3 under a sanitizer
    /// (where a child's own start-up can take longer than half a second).
    package static let argument = underSanitizer ? "3" : "0.5"
}
