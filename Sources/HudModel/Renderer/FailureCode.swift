// SPDX-License-Identifier: MIT
/// Why a plugin file or a renderer failed, as a stable code: the one list
/// every report uses (`RegistryError.code`, the registry cache, `hudhost
/// list`/`why`/`probe` text and JSON). The raw values are the kebab-case
/// strings of the JSON schemas; they never change meaning.
public enum FailureCode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    // The ELF file, read without running it.
    case io = "io-error"
    case notELF = "not-elf"
    case truncated = "truncated-elf"
    case wrongClass = "not-elf64"
    case wrongMachine = "wrong-architecture"
    case notSharedObject = "not-shared-object"
    /// A position-independent executable: ET_DYN like a library, but a program.
    case executable = "executable-not-library"
    case corrupt = "corrupt-elf"
    case badMetadata = "bad-metadata"
    // Path checks and loading.
    case insecurePath = "insecure-path"
    case metadataMismatch = "metadata-mismatch"
    case notAFile = "not-a-file"
    case openFailed = "open-failed"
    case missingEntrySymbol = "missing-entry-symbol"
    case nullEntry = "null-entry"
    case incompatibleABI = "incompatible-abi"
    case structTooSmall = "struct-too-small"
    case initFailed = "init-failed"
    case invalidRendererCount = "invalid-renderer-count"
    case invalidDescriptor = "invalid-descriptor"
    case duplicateID = "duplicate-id"
    /// The same file (device and inode) reached twice on the search path.
    case duplicateFile = "duplicate-file"
    case unknownRenderer = "unknown-renderer"
    // Layout.
    case layoutFailed = "layout-failed"
    case layoutTooLarge = "layout-too-large"
    case invalidLayout = "invalid-layout"
    case actionCalledDuringLayout = "action-during-layout"
    case invalidComplications = "invalid-complications"
    case thunkAllocationFailed = "thunk-allocation-failed"
    // A sandboxed child (scan, probe, renderer host) that did not report.
    case crashed
    case timedOut = "timed-out"
    case exited
    case scanFailed = "scan-failed"
    /// A sandboxed child broke the result channel's rules (oversized or too many lines).
    case protocolError = "protocol-error"
    case noRenderers = "no-renderers"
    /// `HUD_REQUIRE_SANDBOX=1` and a sandbox layer is not available here.
    case sandboxIncomplete = "sandbox-incomplete"
    /// A file without a metadata section that nothing scanned (no scanner given).
    case notScanned = "not-scanned"
    // An out-of-process renderer not restarted yet after a failure, or
    // skipped until its file changes after repeated failures.
    case rendererUnavailable = "renderer-unavailable"
    /// A failure recorded without a more specific code.
    case failed

    public var description: String { rawValue }

    /// True for failures this machine or setting caused, not the plugin: no
    /// sandbox helper or child could be started (`scan-failed`), or a layer
    /// `HUD_REQUIRE_SANDBOX=1` asks for is missing (`sandbox-incomplete`).
    /// They are never recorded in the cache as the file's verdict, so
    /// fixing the environment is enough.
    package var blamesTheEnvironment: Bool { self == .scanFailed || self == .sandboxIncomplete }
}

/// Where a plugin file's renderer descriptions came from.
public enum MetadataSource: String, Sendable, Hashable, CustomStringConvertible {
    /// Linked into the host.
    case builtin = "built-in"
    /// The file's `.hud_renderers` ELF section, read without running it.
    case elfSection = "elf-section"
    /// Loaded once in a sandboxed child (the file has no metadata section).
    case sandboxScan = "sandbox-scan"

    public var description: String { rawValue }
}
