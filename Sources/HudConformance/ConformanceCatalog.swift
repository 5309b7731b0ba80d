// SPDX-License-Identifier: MIT
package import HudRegistry
import HudPresentation
/// The conformance checks `hudhost validate` runs, as data: a stable
/// kebab-case id, a one-line description, a severity, the profile that
/// introduced it, what it needs to have passed first, and whether it runs
/// once per plugin or once per renderer. `Docs/CONFORMANCE.md` has one
/// section per id (the rule and how to fix a failure).
///
/// Ids are never renamed or reused, and a check never changes its meaning:
/// a changed rule gets a new id (`ConformanceCatalog.retired` keeps the
/// old ones). Profiles are versioned by ABI minor (`strict@1.0`): a check
/// joins a profile at a version (`since`), a new or tightened one as a
/// warning until `errorFrom`, so a plugin held to the version it was built
/// for keeps its verdict (Docs/COMPATIBILITY.md).
package struct ConformanceCheck: Sendable, Hashable {
    package let id: String
    package let summary: String
    package let severity: Severity
    package let category: Category
    package let scope: Scope
    /// Checks that must have passed (or been skipped as not applicable) for
    /// this one to run; otherwise it is `skipped` with the reason. A
    /// prerequisite that was not selected does not block.
    package let requires: [String]
    /// The profile version in which the check joined its profiles.
    package let since: ABIVersion
    /// For an error-severity check that entered as a warning: the first
    /// profile version in which a problem is an error.
    package let errorFrom: ABIVersion?

    /// The units this check's run for `renderer` stands on: each requirement,
    /// for that renderer when it is a renderer check, else for the plugin.
    func requirementUnits(renderer: String?) -> [ConformanceUnit] {
        requires.map { id in ConformanceUnit(checkID: id, renderer: ConformanceCatalog.check(id)?.scope == .renderer ? renderer : nil) }
    }

    /// The severity of a problem in profile version `version`.
    package func severity(at version: ABIVersion) -> Severity {
        if let errorFrom, version < errorFrom { return .warning }
        return severity
    }

    package enum Severity: String, Sendable, Hashable {
        /// A problem is `failed`.
        case error
        /// A problem is `warning` (a failure only with `--werror`).
        case warning
    }

    package enum Category: String, Sendable, Hashable, CaseIterable {
        case loading = "loading-and-abi"
        case robustness
        case output = "output-contract"
        case geometry
        case accessibility
        case determinism = "determinism-and-concurrency"
        case performance
        case fuzz
        case houseStyle = "house-style"
    }

    package enum Scope: String, Sendable, Hashable {
        /// Once per plugin file (or the linked built-ins).
        case plugin
        /// Once per renderer the plugin provides.
        case renderer
    }

    /// The profiles that contain this check (in their newest version).
    package var profiles: [ConformanceProfile] { ConformanceProfile.allCases.filter { $0.checkIDs.contains(id) } }

    /// The smallest profile that contains it.
    package var profile: ConformanceProfile { profiles.first ?? .strict }
}

/// A set of checks, versioned. basic ⊂ standard ⊂ strict hold the ABI
/// contract and the usability rules every style must meet; hudson (opt-in)
/// is strict plus the house rules of Hudson's own styles.
package enum ConformanceProfile: String, Sendable, Hashable, CaseIterable {
    case basic
    case standard
    case strict
    case hudson

    /// The profile versions there are, oldest first: one per ABI minor.
    package static let versions: [ABIVersion] = (0...ABIVersion.host.minor).map { ABIVersion(major: ABIVersion.host.major, minor: $0) }

    /// The profile's check ids in its newest version.
    package var checkIDs: [String] {
        switch self {
        case .basic: Self.basicIDs
        case .standard: Self.basicIDs + Self.standardIDs
        case .strict: Self.basicIDs + Self.standardIDs + Self.strictIDs
        case .hudson: Self.basicIDs + Self.standardIDs + Self.strictIDs + Self.hudsonIDs
        }
    }

    /// The profile's check ids in `version` (the checks that had joined by then).
    package func checkIDs(at version: ABIVersion) -> [String] {
        checkIDs.filter { (ConformanceCatalog.check($0)?.since ?? version) <= version }
    }

    private static let basicIDs = [
        "abi-load", "abi-entry-symbol", "abi-version", "abi-init", "abi-descriptors",
        "layout-basic", "geometry-finite", "output-valid",
        "output-guard-bytes", "output-needed-count", "output-inputs-unchanged", "output-no-action-calls",
        "geometry-hit-size",
    ]
    private static let standardIDs = [
        "abi-struct-sizes", "abi-init-refcount", "abi-descriptors-stable", "abi-extension-unknown",
        "abi-extension-exact", "abi-load-time", "abi-quiet-stdout",
        "determinism-repeat", "output-every-field",
        "robust-complications", "robust-strings", "robust-modes", "robust-viewports", "robust-text-sizes",
        "geometry-hit-overlap", "geometry-safe-bands", "geometry-positions-once",
        "geometry-mode-picker", "geometry-content-insets", "geometry-nav-bar", "geometry-rtl-mirror",
        "geometry-supported-positions", "output-current-mode",
        "a11y-labels", "a11y-contrast",
        "thread-safety",
        "abi-older-host-sizes",
    ]
    private static let strictIDs = [
        "determinism-processes", "perf-layout-time", "perf-allocations", "fuzz",
        // Added to strict only (Docs/CONFORMANCE.md, C5): a plugin whose
        // records disagree with its descriptors is refused by every host.
        "abi-metadata",
        // A warning in strict@1.1, an error from strict@1.2.
        "abi-needed-libraries",
    ]
    /// How Hudson's own styles look (the original renderers' geometry):
    /// not a contract, a designer's check that a style "looks like Hudson".
    private static let hudsonIDs = [
        "hudson-chip-inner-side",
    ]
}

/// `--profile P` or `--profile P@1.N`: a profile, and the version asked
/// for (nil: each plugin is held to the version of the ABI minor it was
/// built against, at most the newest).
package struct ConformanceProfileSelection: Sendable, Hashable, CustomStringConvertible {
    package var profile: ConformanceProfile
    package var version: ABIVersion?

    package init(profile: ConformanceProfile, version: ABIVersion? = nil) {
        self.profile = profile
        self.version = version
    }

    /// Parses `strict` or `strict@1.0`; the error says what is accepted.
    package static func parse(_ text: String) -> Result<Self, ProfileError> {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let profile = ConformanceProfile(rawValue: parts[0]) else {
            return .failure(ProfileError("unknown profile '\(parts[0])'; profiles: \(ConformanceProfile.allCases.map(\.rawValue).joined(separator: ", ")) (optionally @VERSION, e.g. strict@1.0)"))
        }
        guard parts.count == 2 else { return .success(Self(profile: profile)) }
        let known = ConformanceProfile.versions.map(\.description).joined(separator: ", ")
        guard let version = ABIVersion(parts[1]), ConformanceProfile.versions.contains(version) else {
            return .failure(ProfileError("profile version '\(parts[1])' does not exist; versions: \(known) (one per ABI minor; \(profile.rawValue) alone means the version of the plugin's ABI minor)"))
        }
        return .success(Self(profile: profile, version: version))
    }

    /// The version a plugin declaring ABI `declared` is held to: the one
    /// asked for, else its own minor's (at most the newest).
    package func version(forPluginABI declared: ABIVersion?) -> ABIVersion {
        if let version { return version }
        guard let declared, declared.major == ABIVersion.host.major else { return ConformanceProfile.versions.last! }
        return min(declared, ConformanceProfile.versions.last!)
    }

    package var description: String { profile.rawValue + (version.map { "@\($0)" } ?? "") }

    package struct ProfileError: Error, Sendable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A check id that no longer runs, kept so it is never reused.
package struct RetiredCheck: Sendable, Hashable {
    package let id: String
    /// What it meant, version by version, and why it went.
    package let history: String
    /// The profile version from which no profile holds it.
    package let withdrawnIn: ABIVersion
    /// The check that carries a rule it held, if any.
    package let replacement: String?
}

/// Every check, in the order they run (prerequisites first).
package enum ConformanceCatalog {
    package static let checks: [ConformanceCheck] = [
        // Loading and ABI (per plugin).
        plugin("abi-load", .loading, "Loads with dlopen(RTLD_NOW | RTLD_LOCAL): every symbol and dependency resolves"),
        plugin("abi-entry-symbol", .loading, "Exports exactly one hud_renderer_get_entry, defined in the file itself, returning the same non-NULL entry every call", requires: ["abi-load"]),
        plugin("abi-version", .loading, "Version handshake: the entry's ABI major matches the host's and struct_size covers ABI 1.0", requires: ["abi-entry-symbol"]),
        plugin("abi-init", .loading, "init() returns HUD_STATUS_OK; renderer_count() is 0 before it and 1…256 after", requires: ["abi-version"]),
        plugin("abi-descriptors", .loading, "Every descriptor passes the host's validation (id syntax, strings, limits, functions, positions)", requires: ["abi-init"]),
        plugin("abi-metadata", .loading, "The .hud_renderers metadata records, if any, match the descriptors field for field (hosts refuse a renderer whose record differs)", requires: ["abi-descriptors"]),
        plugin("abi-struct-sizes", .loading, "Every descriptor's struct_size covers ABI 1.0 and matches the size its ABI minor implies", requires: ["abi-init"]),
        plugin("abi-older-host-sizes", .loading, "Layouts at a 1.0 host's node stride and environment size succeed and stay in their buffers (step by node_stride, never sizeof)",
               since: v1_1, errorFrom: v1_2, requires: ["abi-init"]),
        plugin("abi-init-refcount", .loading, "init()/deinit() are reference counted: init twice, deinit twice, an extra deinit is a no-op", requires: ["abi-descriptors"]),
        plugin("abi-descriptors-stable", .loading, "renderer_at() returns the same descriptors with the same contents on every call and NULL past the end", requires: ["abi-descriptors"]),
        plugin("abi-load-time", .loading, "Loading and init() finish within the load-time budget", severity: .warning, requires: ["abi-init"]),
        plugin("abi-needed-libraries", .loading, "Every undefined symbol is defined by the plugin's own DT_NEEDED libraries (as -Wl,--no-undefined checks), not by whatever the host has loaded",
               since: v1_1, errorFrom: v1_2, requires: ["abi-load"]),
        plugin("abi-quiet-stdout", .loading, "Plugin code writes nothing to stdout (stdout belongs to the host)"),
        renderer("abi-extension-unknown", .loading, "get_extension() returns NULL for unknown extension ids", requires: ["abi-descriptors"]),
        renderer("abi-extension-exact", .loading, "get_extension() matches ids exactly: an id with trailing garbage or a prefix is not accepted", requires: ["abi-descriptors"]),

        // The first layout, then the host's own validation of what comes back.
        renderer("layout-basic", .output, "A layout of the reference complications returns HUD_STATUS_OK (no crash, no hang)", requires: ["abi-descriptors"]),
        renderer("geometry-finite", .geometry, "Every number is finite, lengths are non-negative, every frame and hit region is on screen", requires: ["layout-basic"]),
        renderer("output-valid", .output, "Every node passes the host's validation (enums, UTF-8, string limits) on every device", requires: ["geometry-finite"]),
        renderer("determinism-repeat", .determinism, "Repeated calls with the same inputs give byte-identical output", requires: ["output-valid"]),

        // Output contract.
        renderer("output-guard-bytes", .output, "Never writes outside the node buffer (guard bytes before and after it stay intact)", requires: ["layout-basic"]),
        renderer("output-needed-count", .output, "With a short buffer returns HUD_STATUS_BUFFER_TOO_SMALL and the exact count it needs", requires: ["layout-basic"]),
        renderer("output-every-field", .output, "Writes every byte of every node it counts (no field left to the host's zeroing)", requires: ["output-valid", "determinism-repeat"]),
        renderer("output-inputs-unchanged", .output, "Never changes its inputs (checksum of complications, environment, interaction before and after)", requires: ["layout-basic"]),
        renderer("output-no-action-calls", .output, "Never calls an action from inside layout()", requires: ["layout-basic"]),

        // Robustness.
        renderer("robust-complications", .robustness, "Empty complications, each position alone, all five, missing optional fields: HUD_STATUS_OK and valid output", requires: ["output-valid"]),
        renderer("robust-strings", .robustness, "Maximum-length and odd strings (emoji, RTL, combining marks, invisible characters): valid output", requires: ["output-valid"]),
        renderer("robust-modes", .robustness, "One to HUD_MAX_MODES long-press modes, revealed and pressed: valid output", requires: ["output-valid", "output-needed-count"]),
        renderer("robust-viewports", .robustness, "Tiny, huge, zero-safe-area, over-inset and fractional-scale screens: a valid status and finite output", requires: ["output-valid"]),
        renderer("robust-text-sizes", .robustness, "Every Dynamic Type category on every device: HUD_STATUS_OK and valid output", requires: ["output-valid"]),

        // Geometry, read from the decoded HudLayout the presenters draw.
        renderer("geometry-hit-size", .geometry, "Every interactive node's hit region is at least 44×44 pt and contains its visual", requires: ["output-valid"]),
        renderer("geometry-hit-overlap", .geometry, "No two hit regions of different controls overlap", requires: ["output-valid"]),
        renderer("geometry-safe-bands", .geometry, "Nothing interactive inside the top or bottom safe-area band", requires: ["output-valid"]),
        renderer("geometry-positions-once", .geometry, "Each published position is shown exactly once or reported hidden; nothing drawn for empty positions", requires: ["output-valid"]),
        renderer("geometry-mode-picker", .geometry, "A mode picker appears exactly when a slot's modes are revealed, with one item per mode", requires: ["output-valid"]),
        renderer("geometry-content-insets", .geometry, "Content insets are finite, measured as the header says (top from the navigation bar), fit the content area and cover the chrome they claim", requires: ["output-valid"]),
        renderer("output-current-mode", .output, "In a revealed picker, the item of the mode the host flags current (HUD_MODE_FLAG_CURRENT) is marked HUD_NODE_FLAG_SELECTED, and no other item is",
                 severity: .warning, since: v1_2, errorFrom: v1_3, requires: ["geometry-mode-picker"]),
        renderer("geometry-nav-bar", .geometry, "Nodes placed in the navigation bar lie inside it", requires: ["output-valid"]),
        renderer("geometry-rtl-mirror", .geometry, "The RTL layout is the mirror image of the LTR layout (unless HUD_CAPABILITY_RTL_NOT_MIRRORED)", requires: ["output-valid", "determinism-repeat"]),
        renderer("geometry-supported-positions", .geometry, "The declared supported positions are exactly the ones drawn", requires: ["output-valid"]),

        // Accessibility.
        renderer("a11y-labels", .accessibility, "Every interactive node has a non-empty accessibility label: the label when given, never a raw symbol name", requires: ["output-valid"]),
        renderer("a11y-contrast", .accessibility, "Icons ≥ 3:1 and text ≥ 4.5:1 (3:1 large) against their fill, every role, both schemes and appearances", requires: ["output-valid"]),

        // Determinism and concurrency.
        renderer("thread-safety", .determinism, "A renderer declaring HUD_CAPABILITY_THREAD_SAFE gives the serial results from 8 threads at once", requires: ["determinism-repeat"]),
        renderer("determinism-processes", .determinism, "Two fresh processes produce byte-identical layouts", requires: ["determinism-repeat"]),

        // Performance (warnings).
        renderer("perf-layout-time", .performance, "Median and p99 time per layout within budget", severity: .warning, requires: ["output-valid"]),
        renderer("perf-allocations", .performance, "No heap growth per layout call once warm (no leaks)", severity: .warning, requires: ["output-valid"]),

        // House style (profile hudson only).
        renderer("hudson-chip-inner-side", .houseStyle, "Corner chips sit on the inner side of their slot (a leading slot's trailing side, a trailing slot's leading side), as in Hudson's own styles",
                 since: v1_1, requires: ["output-valid"]),

        // Fuzz.
        renderer("fuzz", .fuzz, "Seeded random complications × environments keep every per-layout rule; failures print the seed and a minimal input",
                 requires: ["output-valid", "output-no-action-calls", "output-inputs-unchanged", "geometry-hit-size", "geometry-positions-once",
                            "geometry-mode-picker", "a11y-labels"]),
    ]

    /// Ids that no longer run; never reused.
    package static let retired: [RetiredCheck] = [
        RetiredCheck(id: "geometry-chip-side",
                     history: "first: corner chips on the slot's outer side (as the seed's table says); then, under the same id (a change of meaning that should have been a new id): on the inner side. A house style of Hudson's own renderers, never a rule every style must meet: withdrawn from every version of basic, standard and strict",
                     withdrawnIn: v1_0, replacement: "hudson-chip-inner-side"),
    ]

    /// The retired check with `id`.
    package static func retiredCheck(_ id: String) -> RetiredCheck? { retired.first { $0.id == id } }

    private static let v1_0 = ABIVersion(major: 1, minor: 0)
    private static let v1_1 = ABIVersion(major: 1, minor: 1)
    private static let v1_2 = ABIVersion(major: 1, minor: 2)
    private static let v1_3 = ABIVersion(major: 1, minor: 3)

    /// The check with `id`.
    package static func check(_ id: String) -> ConformanceCheck? { byID[id] }

    private static let byID: [String: ConformanceCheck] = Dictionary(uniqueKeysWithValues: checks.map { ($0.id, $0) })

    /// The checks of `profile`, in run order.
    package static func checks(in profile: ConformanceProfile) -> [ConformanceCheck] {
        let ids = Set(profile.checkIDs)
        return checks.filter { ids.contains($0.id) }
    }

    private static func plugin(_ id: String, _ category: ConformanceCheck.Category, _ summary: String, severity: ConformanceCheck.Severity = .error,
                               since: ABIVersion = v1_0, errorFrom: ABIVersion? = nil, requires: [String] = []) -> ConformanceCheck {
        ConformanceCheck(id: id, summary: summary, severity: severity, category: category, scope: .plugin, requires: requires, since: since, errorFrom: errorFrom)
    }

    private static func renderer(_ id: String, _ category: ConformanceCheck.Category, _ summary: String, severity: ConformanceCheck.Severity = .error,
                                 since: ABIVersion = v1_0, errorFrom: ABIVersion? = nil, requires: [String] = []) -> ConformanceCheck {
        ConformanceCheck(id: id, summary: summary, severity: severity, category: category, scope: .renderer, requires: requires, since: since, errorFrom: errorFrom)
    }
}
