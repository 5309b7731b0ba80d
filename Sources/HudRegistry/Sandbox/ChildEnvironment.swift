// SPDX-License-Identifier: MIT
import HudSystem

/// The environment a sandboxed child (and the plugin code in it) starts
/// with: an explicit pass-through list, never the caller's whole
/// environment — tokens, credentials and paths of the person running
/// hudhost are not plugin code's to read (Docs/ISOLATION.md "Environment").
package enum ChildEnvironment {
    /// Variables passed through by exact name: the locale and time zone
    /// (text and dates as the user expects), the loader's library path
    /// (checked like a plugin's own libraries, `PathSecurity`), and the
    /// sanitizer and profiling runtimes' options (their reports must reach
    /// the same place as the host's).
    package static let passedNames: Set<String> = [
        "LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH",
        "ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "MSAN_OPTIONS", "LLVM_PROFILE_FILE",
    ]
    /// Variables passed through by prefix: the locale categories, and
    /// `HUD_`, the host's own namespace (the sandbox's settings, and where a
    /// plugin's configuration belongs).
    package static let passedPrefixes = ["LC_", "HUD_"]

    /// The child's environment, made from `environment` (this process's,
    /// unless given): the variables passed through, `SWIFT_BACKTRACE` off
    /// (the backtracer would hold a crashed child's pipes open),
    /// `HUD_SANDBOX_PARENT` (this process's pid), then `extra`.
    package static func make(from environment: [String: String] = SystemCalls.environment(),
                             extra: [String: String] = [:]) -> [String: String] {
        var child = environment.filter { name, _ in passedNames.contains(name) || passedPrefixes.contains { name.hasPrefix($0) } }
        child["SWIFT_BACKTRACE"] = "enable=no"
        // The child asks for SIGKILL when this process goes (`hudsandbox`).
        child["HUD_SANDBOX_PARENT"] = String(SystemCalls.processID)
        child.merge(extra) { $1 }
        return child
    }
}
