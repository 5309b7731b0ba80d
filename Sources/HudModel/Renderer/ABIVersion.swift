// SPDX-License-Identifier: MIT
import HudRendererAPI

/// An ABI version, `major.minor`. Majors must match between a plugin and
/// the host; minors only ever append fields, so any minor of the host's
/// major loads (readers use what each `struct_size` covers).
public struct ABIVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: UInt16
    public var minor: UInt16

    public init(major: UInt16, minor: UInt16) {
        self.major = major
        self.minor = minor
    }

    /// The header's packed form, `major << 16 | minor` (`hud_entry_t.abi_version`).
    public init(packed: UInt32) {
        self.init(major: UInt16(truncatingIfNeeded: packed >> 16), minor: UInt16(truncatingIfNeeded: packed))
    }

    /// Parses `major.minor`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = UInt16(parts[0]), let minor = UInt16(parts[1]) else { return nil }
        self.init(major: major, minor: minor)
    }

    public var packed: UInt32 { UInt32(major) << 16 | UInt32(minor) }

    /// The version this host implements (`HUD_ABI_VERSION_MAJOR.MINOR`).
    public static let host = ABIVersion(major: UInt16(HUD_ABI_VERSION_MAJOR), minor: UInt16(HUD_ABI_VERSION_MINOR))

    /// True when a plugin built for this version can be loaded by `host`.
    public func isLoadable(by host: ABIVersion = .host) -> Bool { major == host.major }

    public var description: String { "\(major).\(minor)" }

    public static func < (a: ABIVersion, b: ABIVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
}

/// ABI limits as Swift integers (for messages and validation).
package enum ABILimits {
    package static let maxNodes = Int(HUD_MAX_NODES)
    package static let maxRenderers = Int(HUD_MAX_RENDERERS)
    package static let maxModes = Int(HUD_MAX_MODES)
    package static let maxDescriptionBytes = Int(HUD_MAX_DESCRIPTION_BYTES)
    package static let maxIconBytes = Int(HUD_MAX_ICON_BYTES)
    /// The ELF section plugins declare their renderers in.
    package static let metadataSectionName = ".hud_renderers"
}
