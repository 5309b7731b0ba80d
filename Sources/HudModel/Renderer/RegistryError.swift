// SPDX-License-Identifier: MIT
/// Everything that can go wrong loading, registering or running a renderer.
/// Each case carries where (path, renderer id) and why; `description` says
/// what to do next. The library never prints and never exits: callers decide.
public enum RegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is not a loadable ELF shared object for this machine, or its
    /// metadata section is malformed (`kind` is the ELF reader's code).
    case invalidELF(path: String, kind: FailureCode, reason: String)
    /// Loading the plugin in a sandboxed child failed (it crashed, hung,
    /// exited, or failed to load); `reasonCode` is the scan's code.
    case sandboxedLoadFailed(path: String, reasonCode: FailureCode, reason: String)
    /// The file or a directory above it is writable by others or owned by
    /// another user (`--allow-insecure-path` overrides, for development).
    case insecurePath(path: String, reason: String)
    /// A descriptor disagrees with the file's metadata section.
    case metadataMismatch(path: String, id: String, field: String, reason: String)
    /// The path does not name a regular file (missing, a directory, ...).
    case notAFile(path: String, reason: String)
    /// `dlopen` refused the file; `dlerror` is the loader's own text.
    case openFailed(path: String, dlerror: String)
    /// The file has no `hud_renderer_get_entry` symbol.
    case missingEntrySymbol(path: String, symbol: String, dlerror: String)
    /// The entry function returned NULL.
    case nullEntry(path: String)
    /// The plugin was built for another major ABI version.
    case incompatibleABI(path: String, pluginVersion: ABIVersion, hostVersion: ABIVersion)
    /// A structure the plugin returned is smaller than ABI 1.0 requires.
    case structTooSmall(path: String, structure: String, size: Int, required: Int)
    /// `init()` returned a failure status.
    case initFailed(path: String, status: Int32)
    /// The plugin reports more renderers than the ABI allows, or none.
    case invalidRendererCount(path: String, count: UInt32)
    /// A descriptor broke a rule of the header (id syntax, UTF-8, length, NULL function...).
    case invalidDescriptor(path: String, index: Int, id: String?, field: String, reason: String)
    /// Two renderers claim the same id; the first one registered is kept.
    case duplicateID(id: String, keptOrigin: String, rejectedOrigin: String)
    /// No registered renderer has this id.
    case unknownRenderer(id: String, known: [String])
    /// The renderer's layout returned a failure status.
    case layoutFailed(id: String, origin: String, status: Int32)
    /// The renderer asked for more nodes than the ABI allows, or kept asking.
    case layoutTooLarge(id: String, origin: String, requested: UInt32)
    /// The renderer returned a layout that breaks the header's rules.
    case invalidLayout(id: String, origin: String, node: Int?, field: String, reason: String)
    /// The renderer called actions from inside layout() (they were not run).
    case actionCalledDuringLayout(id: String, origin: String, count: Int)
    /// The complications cannot be marshaled (a string too long, too many modes, NUL inside a string).
    case invalidComplications(field: String, reason: String)
    /// libffi could not make an action thunk (e.g. W^X policy forbids closures).
    case thunkAllocationFailed(reason: String)
    /// A renderer running in a renderer host (a sandboxed child) crashed,
    /// hung, exited, broke the channel's rules, failed to load there, or is
    /// not restarted yet after such a failure; `code` says which.
    case rendererHostFailed(id: String, path: String, code: FailureCode, reason: String)

    /// The file the error is about, if any.
    public var path: String? {
        switch self {
        case .insecurePath(let path, _), .metadataMismatch(let path, _, _, _), .sandboxedLoadFailed(let path, _, _), .invalidELF(let path, _, _): path
        case .notAFile(let path, _), .openFailed(let path, _), .missingEntrySymbol(let path, _, _), .nullEntry(let path),
             .incompatibleABI(let path, _, _), .structTooSmall(let path, _, _, _), .initFailed(let path, _),
             .invalidRendererCount(let path, _), .invalidDescriptor(let path, _, _, _, _):
            path
        case .duplicateID(_, _, let rejected): rejected
        case .rendererHostFailed(_, let path, _, _): path
        case .layoutFailed(_, let origin, _), .layoutTooLarge(_, let origin, _), .invalidLayout(_, let origin, _, _, _),
             .actionCalledDuringLayout(_, let origin, _):
            origin
        case .unknownRenderer, .invalidComplications, .thunkAllocationFailed: nil
        }
    }

    /// The renderer id the error is about, if known.
    public var rendererID: String? {
        switch self {
        case .invalidDescriptor(_, _, let id, _, _): id
        case .metadataMismatch(_, let id, _, _): id
        case .duplicateID(let id, _, _), .unknownRenderer(let id, _), .layoutFailed(let id, _, _),
             .layoutTooLarge(let id, _, _), .invalidLayout(let id, _, _, _, _), .actionCalledDuringLayout(let id, _, _),
             .rendererHostFailed(let id, _, _, _):
            id
        default: nil
        }
    }

    /// A stable kebab-case code for scripts and JSON output.
    public var code: FailureCode {
        switch self {
        case .sandboxedLoadFailed(_, let reasonCode, _): reasonCode
        case .invalidELF(_, let kind, _): kind
        case .insecurePath: .insecurePath
        case .metadataMismatch: .metadataMismatch
        case .notAFile: .notAFile
        case .openFailed: .openFailed
        case .missingEntrySymbol: .missingEntrySymbol
        case .nullEntry: .nullEntry
        case .incompatibleABI: .incompatibleABI
        case .structTooSmall: .structTooSmall
        case .initFailed: .initFailed
        case .invalidRendererCount: .invalidRendererCount
        case .invalidDescriptor: .invalidDescriptor
        case .duplicateID: .duplicateID
        case .unknownRenderer: .unknownRenderer
        case .layoutFailed: .layoutFailed
        case .layoutTooLarge: .layoutTooLarge
        case .invalidLayout: .invalidLayout
        case .actionCalledDuringLayout: .actionCalledDuringLayout
        case .invalidComplications: .invalidComplications
        case .thunkAllocationFailed: .thunkAllocationFailed
        case .rendererHostFailed(_, _, let code, _): code
        }
    }

    public var description: String {
        switch self {
        case .invalidELF(let path, _, let reason):
            "\(path): \(reason); a renderer plugin is an ELF shared object built for this machine (cc -shared -fPIC)"
        case .sandboxedLoadFailed(let path, let reasonCode, let reason):
            reason.hasPrefix(path) ? "\(reason) [\(reasonCode)]" : "\(path): \(reason) [\(reasonCode)]"
        case .insecurePath(let path, let reason):
            "\(path): refused: \(reason) (for development only: --allow-insecure-path)"
        case .metadataMismatch(let path, let id, _, let reason):
            "\(path): renderer '\(id)': descriptor and \(ABILimits.metadataSectionName) metadata disagree: \(reason); declare the renderer once with HUD_DECLARE_RENDERER (hud_helpers.h), which writes both from the same values, and rebuild"
        case .notAFile(let path, let reason):
            "\(path): not a loadable file (\(reason)); pass the path of a renderer .so file"
        case .openFailed(let path, let dlerror):
            "\(path): dlopen failed: \(dlerror); check that the file is a shared object for this machine and that its dependencies are installed (ldd \(path))"
        case .missingEntrySymbol(let path, let symbol, let dlerror):
            "\(path): no entry symbol '\(symbol)' (\(dlerror)); a renderer plugin must export it (the plugin guide: man 7 hud-plugin-guide)"
        case .nullEntry(let path):
            "\(path): hud_renderer_get_entry() returned NULL; it must return the plugin's static entry structure"
        case .incompatibleABI(let path, let plugin, let host):
            "\(path): built for renderer ABI \(plugin), this host speaks ABI \(host); rebuild the plugin against a hud_renderer.h with the same major version"
        case .structTooSmall(let path, let structure, let size, let required):
            "\(path): \(structure).struct_size is \(size) bytes, ABI 1.0 needs at least \(required); set it to sizeof(\(structure))"
        case .initFailed(let path, let status):
            "\(path): init() failed with status \(status) (\(StatusName.of(status))); the plugin is not used"
        case .invalidRendererCount(let path, let count):
            "\(path): renderer_count() returned \(count); a plugin provides 1 to \(ABILimits.maxRenderers) renderers"
        case .invalidDescriptor(let path, let index, let id, let field, let reason):
            "\(path): renderer #\(index)\(id.map { " '\($0)'" } ?? ""): \(field) \(reason)"
        case .duplicateID(let id, let kept, let rejected):
            "renderer id '\(id)' is provided twice: kept the one from \(kept), ignored the one from \(rejected); remove or rename one of them"
        case .unknownRenderer(let id, let known):
            "no renderer with id '\(id)'; registered: \(known.isEmpty ? "none" : known.joined(separator: ", ")) (see `hudhost list`)"
        case .layoutFailed(let id, let origin, let status):
            "renderer '\(id)' (\(origin)): layout failed with status \(status) (\(StatusName.of(status)))"
        case .layoutTooLarge(let id, let origin, let requested):
            "renderer '\(id)' (\(origin)): layout asked for \(requested) nodes; the ABI allows at most \(ABILimits.maxNodes) and the count must settle after one retry"
        case .invalidLayout(let id, let origin, let node, let field, let reason):
            "renderer '\(id)' (\(origin)): invalid layout: \(node.map { "node \($0): " } ?? "")\(field) \(reason)"
        case .actionCalledDuringLayout(let id, let origin, let count):
            "renderer '\(id)' (\(origin)): layout() called \(count) action\(count == 1 ? "" : "s") (not run); renderers must never call actions during layout — the host runs them on taps"
        case .invalidComplications(let field, let reason):
            "complications: \(field) \(reason)"
        case .thunkAllocationFailed(let reason):
            "cannot create an action thunk with libffi: \(reason); this system may forbid writable+executable memory"
        case .rendererHostFailed(let id, let path, let code, let reason):
            "renderer '\(id)' (\(path)): its renderer host \(reason) [\(code)]"
        }
    }
}

/// Names for ABI status codes, for messages.
package enum StatusName {
    package static func of(_ status: Int32) -> String {
        switch status {
        case 0: "HUD_STATUS_OK"
        case 1: "HUD_STATUS_BUFFER_TOO_SMALL"
        case -1: "HUD_STATUS_INVALID_ARGUMENT"
        case -2: "HUD_STATUS_UNSUPPORTED"
        case -3: "HUD_STATUS_INTERNAL_ERROR"
        case -4: "HUD_STATUS_NOT_INITIALIZED"
        default: "unknown status"
        }
    }
}
