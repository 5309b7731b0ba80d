// SPDX-License-Identifier: MIT
import HudRegistry
import HudUnsafe
import HudPresentation
/// The conformance checks `hudhost validate` runs, as data: a stable
/// kebab-case id, a one-line description, a severity, the profile that
/// introduced it, what it needs to have passed first, and whether it runs
/// once per plugin or once per renderer. `Docs/CONFORMANCE.md` has one
/// section per id (the rule and how to fix a failure).
///
/// Ids are never renamed or reused. Profiles pin their lists
/// (`ConformanceProfile.checkIDs`), so a check added later never joins an
/// existing profile silently and plugin authors' CI keeps its meaning.
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
    }

    package enum Scope: String, Sendable, Hashable {
        /// Once per plugin file (or the linked built-ins).
        case plugin
        /// Once per renderer the plugin provides.
        case renderer
    }

    /// The profiles that contain this check.
    package var profiles: [ConformanceProfile] { ConformanceProfile.allCases.filter { $0.checkIDs.contains(id) } }

    /// The smallest profile that contains it.
    package var profile: ConformanceProfile { profiles.first ?? .strict }
}

/// A pinned set of checks. basic ⊂ standard ⊂ strict.
package enum ConformanceProfile: String, Sendable, Hashable, CaseIterable {
    case basic
    case standard
    case strict

    /// The profile's check ids, pinned (version 1 of each list).
    package var checkIDs: [String] {
        switch self {
        case .basic: Self.basicIDs
        case .standard: Self.basicIDs + Self.standardIDs
        case .strict: Self.basicIDs + Self.standardIDs + Self.strictIDs
        }
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
        "geometry-hit-overlap", "geometry-safe-bands", "geometry-positions-once", "geometry-chip-side",
        "geometry-mode-picker", "geometry-content-insets", "geometry-nav-bar", "geometry-rtl-mirror",
        "geometry-supported-positions",
        "a11y-labels", "a11y-contrast",
        "thread-safety",
    ]
    private static let strictIDs = [
        "determinism-processes", "perf-layout-time", "perf-allocations", "fuzz",
        // Added to strict only (Docs/CONFORMANCE.md, C5): a plugin whose
        // records disagree with its descriptors is refused by every host.
        "abi-metadata",
    ]
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
        plugin("abi-init-refcount", .loading, "init()/deinit() are reference counted: init twice, deinit twice, an extra deinit is a no-op", requires: ["abi-descriptors"]),
        plugin("abi-descriptors-stable", .loading, "renderer_at() returns the same descriptors with the same contents on every call and NULL past the end", requires: ["abi-descriptors"]),
        plugin("abi-load-time", .loading, "Loading and init() finish within the load-time budget", severity: .warning, requires: ["abi-init"]),
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
        renderer("geometry-chip-side", .geometry, "Corner chips sit on the inner side of their slot, toward the screen's centre (mirrored in RTL)", requires: ["output-valid"]),
        renderer("geometry-mode-picker", .geometry, "A mode picker appears exactly when a slot's modes are revealed, with one item per mode", requires: ["output-valid"]),
        renderer("geometry-content-insets", .geometry, "Content insets are finite, measured as the header says (top from the navigation bar), fit the content area and cover the chrome they claim", requires: ["output-valid"]),
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

        // Fuzz.
        renderer("fuzz", .fuzz, "Seeded random complications × environments keep every per-layout rule; failures print the seed and a minimal input",
                 requires: ["output-valid", "output-no-action-calls", "output-inputs-unchanged", "geometry-hit-size", "geometry-positions-once",
                            "geometry-mode-picker", "a11y-labels"]),
    ]

    /// The check with `id`.
    package static func check(_ id: String) -> ConformanceCheck? { byID[id] }

    private static let byID: [String: ConformanceCheck] = Dictionary(uniqueKeysWithValues: checks.map { ($0.id, $0) })

    /// The checks of `profile`, in run order.
    package static func checks(in profile: ConformanceProfile) -> [ConformanceCheck] {
        let ids = Set(profile.checkIDs)
        return checks.filter { ids.contains($0.id) }
    }

    private static func plugin(_ id: String, _ category: ConformanceCheck.Category, _ summary: String,
                               severity: ConformanceCheck.Severity = .error, requires: [String] = []) -> ConformanceCheck {
        ConformanceCheck(id: id, summary: summary, severity: severity, category: category, scope: .plugin, requires: requires)
    }

    private static func renderer(_ id: String, _ category: ConformanceCheck.Category, _ summary: String,
                                 severity: ConformanceCheck.Severity = .error, requires: [String] = []) -> ConformanceCheck {
        ConformanceCheck(id: id, summary: summary, severity: severity, category: category, scope: .renderer, requires: requires)
    }
}
