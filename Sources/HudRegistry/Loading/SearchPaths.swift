// SPDX-License-Identifier: MIT
import HudUnsafe
import CHudSystem

/// Where the registry looks for renderer plugins, in order:
/// `HUD_RENDERER_PATH` (colon-separated, absolute entries only), then
/// `~/.local/lib/hud/renderers`, `/usr/local/lib/hud/renderers`,
/// `/usr/lib/hud/renderers`. The working directory is never searched.
/// In a setuid/setgid process the environment is ignored (`secure_getenv`).
public struct SearchPaths: Sendable, Hashable {
    public var directories: [String]
    /// Entries that were refused, with the reason (e.g. relative paths).
    public var refused: [(entry: String, reason: String)] {
        get { refusedEntries.map { ($0.entry, $0.reason) } }
    }
    private var refusedEntries: [Refused]

    private struct Refused: Sendable, Hashable {
        var entry: String
        var reason: String
    }

    public init(directories: [String]) {
        self.directories = directories
        self.refusedEntries = []
    }

    public static let systemDirectories = ["/usr/local/lib/hud/renderers", "/usr/lib/hud/renderers"]

    /// The standard search path for this process.
    public static func standard() -> SearchPaths {
        var paths = SearchPaths(directories: [])
        if let value = secureEnvironment("HUD_RENDERER_PATH") {
            for entry in value.split(separator: ":", omittingEmptySubsequences: true).map(String.init) {
                if entry.hasPrefix("/") {
                    paths.directories.append(entry)
                } else {
                    paths.refusedEntries.append(Refused(entry: entry, reason: "HUD_RENDERER_PATH entries must be absolute paths; relative ones would depend on the working directory"))
                }
            }
        }
        // secureEnvironment is nil when elevated, so an elevated process uses
        // only the system directories.
        if let home = secureEnvironment("HOME"), home.hasPrefix("/") {
            paths.directories.append(home + "/.local/lib/hud/renderers")
        }
        paths.directories += systemDirectories
        return paths
    }

    /// True when the process runs with elevated privileges (setuid, setgid
    /// or file capabilities): environment-provided paths are then ignored.
    public static var isElevated: Bool { SystemCalls.isElevated }

    /// `secure_getenv`: nil in setuid/setgid (AT_SECURE) processes.
    public static func secureEnvironment(_ name: String) -> String? { SystemCalls.secureEnvironment(name) }
}
