// SPDX-License-Identifier: MIT
import HudSystem

/// Where the sandbox helper (`hudsandbox`) is.
public enum SandboxHelper {
    public static let executableName = "hudsandbox"

    public struct NotFound: Error, Sendable, CustomStringConvertible {
        public var searched: [String]
        /// Why a helper that exists was not used: its path failed the
        /// checks every plugin path must pass.
        public var refusal: String?
        public var description: String {
            if let refusal {
                return "the sandbox helper \(refusal); it is not run. Fix the path's owner or modes, or point HUD_SANDBOX_HELPER at a helper only you or root can change"
            }
            return "the sandbox helper \(SandboxHelper.executableName) was not found (looked in \(searched.joined(separator: ", "))); "
                + "build it (swift build) or install it (make install), or set HUD_SANDBOX_HELPER to its path"
        }
    }

    /// `HUD_SANDBOX_HELPER` when set (an absolute path, used alone: a wrong
    /// override is an error, not a silent fallback; ignored when elevated),
    /// else `hudsandbox` beside this executable (a build directory), then
    /// `../libexec/hud/hudsandbox` relative to it (an install). The one
    /// found must pass `PathSecurity` like a plugin file (`NotFound.refusal`).
    public static func locate() -> Result<String, NotFound> {
        var candidates: [String] = []
        if let override = SearchPaths.secureEnvironment("HUD_SANDBOX_HELPER"), !override.isEmpty {
            candidates.append(override)
        } else if let own = SystemCalls.ownExecutable() {
            let directory = PathSecurity.parent(of: own)
            candidates += [directory + "/" + executableName, PathSecurity.parent(of: directory) + "/libexec/hud/" + executableName]
        }
        guard let found = candidates.first(where: { $0.hasPrefix("/") && SystemCalls.isAccessible($0, executable: true) }) else {
            return .failure(NotFound(searched: candidates))
        }
        // The helper runs before any layer is in force and applies them
        // itself: whoever could replace it would run as this user, so its
        // path passes the same checks as a plugin's.
        if case .success(let canonical) = SystemCalls.realPath(found), let problem = PathSecurity().problem(canonicalPath: canonical) {
            return .failure(NotFound(searched: candidates, refusal: "\(found) (\(canonical)) is refused: \(problem)"))
        }
        return .success(found)
    }
}
