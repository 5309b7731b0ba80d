// SPDX-License-Identifier: MIT
import CHudSystem
import HudSystem

/// Where the registry looks for renderer plugins, in order:
/// `HUD_RENDERER_PATH` (colon-separated, absolute entries only), then
/// `~/.local/lib/hud/renderers`, the install's own `<prefix>/lib/hud/renderers`
/// (when this program runs from `<prefix>/bin` of a `make install`, see
/// `installDirectory`), `/usr/local/lib/hud/renderers`,
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
        if let installed = installDirectory, !systemDirectories.contains(installed) {
            paths.directories.append(installed)
        }
        paths.directories += systemDirectories
        return paths
    }

    /// `<prefix>/lib/hud/renderers` when this program is `<prefix>/bin/X` of
    /// an install (`<prefix>/libexec/hud/hudsandbox` exists beside it), so an
    /// install under any `PREFIX` finds the renderers installed with it.
    /// Worked out once: the executable does not move while it runs.
    public static let installDirectory: String? = {
        guard let own = SystemCalls.ownExecutable() else { return nil }
        let bin = PathSecurity.parent(of: own)
        guard bin.hasSuffix("/bin") else { return nil }
        let prefix = PathSecurity.parent(of: bin)
        let root = prefix == "/" ? "" : prefix
        guard SystemCalls.isAccessible(root + "/libexec/hud/" + SandboxHelper.executableName, executable: true) else { return nil }
        return root + "/lib/hud/renderers"
    }()

    /// True when the process runs with elevated privileges (setuid, setgid
    /// or file capabilities): environment-provided paths are then ignored.
    public static var isElevated: Bool { SystemCalls.isElevated }

    /// `secure_getenv`: nil in setuid/setgid (AT_SECURE) processes.
    public static func secureEnvironment(_ name: String) -> String? { SystemCalls.secureEnvironment(name) }
}
