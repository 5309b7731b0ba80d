// SPDX-License-Identifier: MIT

/// The `validate` checks whose warnings measure time: the performance
/// checks and `abi-load-time` (the sandboxed start, 250 ms budget). On a
/// loaded machine, or under a sanitizer, they can warn for any plugin, so a
/// test that expects one check's finding ignores their warnings unless the
/// check under test is one of them (timings are reported, never asserted:
/// BENCHMARKS.md).
package enum TimingWarnings {
    package static func isTimed(_ check: String) -> Bool {
        check.hasPrefix("perf-") || check == "abi-load-time"
    }

    /// Whether a result with `status` for `check` is a timing warning the
    /// machine's load, not the plugin, may have caused.
    package static func mayComeFromLoad(check: String, status: String, except expected: String? = nil) -> Bool {
        status == "warning" && isTimed(check) && check != expected
    }

    /// A result that passed, or a timing warning the load may have caused.
    package static func passedOrFromLoad(check: String, status: String?) -> Bool {
        status == "passed" || mayComeFromLoad(check: check, status: status ?? "")
    }

    /// `validate --exclude` of every timed check, for a run that asserts
    /// "0 warnings".
    package static let excludePattern = "^(perf-|abi-load-time$)"
}
