// SPDX-License-Identifier: MIT
package import HudModel
package import HudRendererAPI
import BuiltinRenderers
import Glibc
package import HudSystem

// Every `dlopen`, `dlsym` and `dlerror` of the host, and every call the host
// makes into plugin code (the entry function, init/deinit, the descriptor
// accessors, layout and the extension lookup), lives in this file; together
// with the reading of the structures a plugin hands back (bounded C
// strings, size handshakes). Each function says what it trusts. The only
// other calls into plugin code are the validator's and the benchmark's
// deliberate raw ones (odd extension ids, direct layout calls), in
// RawPluginHarness.swift.
//
// Ownership: an entry and its descriptors are plugin-owned static data,
// valid for the life of the process (libraries are never closed); nothing
// here frees them. Thread: loading is [main-thread] (the registry's).

/// A shared object opened with `dlopen`. Every `dlopen`, `dlsym` and
/// `dlerror` of the package lives in this file.
///
/// Libraries are opened `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE` and never
/// closed: unloading a Swift image crashes the host at its next conformance
/// lookup, and a renderer's descriptors must stay valid for the life of the
/// registry anyway. The handle is kept only to look up the entry symbol.
@safe package struct DynamicLibrary {
    package let path: String
    /// The name the loader was given (`path`, or a `/proc/self/fd` name),
    /// which its messages carry.
    private let loadedName: String
    private let handle: UnsafeMutableRawPointer

    /// Opens the file at `path` (which must contain a `/`, so the loader never
    /// searches its own paths or the working directory for it).
    /// `file`: the file `path` names, already open: the loader is given
    /// its descriptor's `/proc/self/fd` name and so maps that very inode,
    /// whatever `path` names by then; messages still name `path`.
    package static func open(path: String, through file: ReadOnlyFile? = nil) throws(RegistryError) -> DynamicLibrary {
        let name = file?.descriptorPath ?? path
        precondition(name.contains("/"), "DynamicLibrary.open needs a path, not a bare name")
        _ = unsafe dlerror()  // clear any stale error
        guard let handle = unsafe dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let reason = lastError() ?? "unknown dlopen failure"
            throw .openFailed(path: path, dlerror: file == nil ? reason : reason.replacingEvery(name, with: path))
        }
        // The loader remembers a library by the name it was given and
        // answers a later dlopen of the same name with it: a descriptor
        // closed and its number reused would make /proc/self/fd/N another
        // file that gets the old library. Libraries are never closed, and
        // neither is the descriptor one was loaded through.
        if let file { heldFiles.withLock { $0.append(file) } }
        return unsafe DynamicLibrary(path: path, loadedName: name, handle: handle)
    }

    /// The descriptors libraries were loaded through, open for the life of
    /// the process (`open(path:through:)`).
    private static let heldFiles = ThreadLock<[ReadOnlyFile]>([])

    /// The address of `symbol` in this library (or its dependencies).
    package func address(of symbol: String) throws(RegistryError) -> UnsafeMutableRawPointer {
        _ = unsafe dlerror()
        guard let address = unsafe dlsym(handle, symbol) else {
            // The loader says "NAME: undefined symbol: …"; the message names
            // the path once, in front.
            var reason = Self.lastError() ?? "symbol resolves to NULL"
            if reason.hasPrefix(loadedName + ": ") { reason.removeFirst(loadedName.count + 2) }
            throw .missingEntrySymbol(path: path, symbol: symbol, dlerror: reason)
        }
        return unsafe address
    }

    /// True when `symbol` is defined anywhere in this process (the
    /// executable or a library already loaded); e.g. `__asan_init` tells
    /// that the process runs under AddressSanitizer.
    package static func processDefines(_ symbol: String) -> Bool { unsafe processSymbol(symbol) != nil }

    /// `dlsym(RTLD_DEFAULT, symbol)`: the symbol's address in this process.
    package static func processSymbol(_ symbol: String) -> UnsafeMutableRawPointer? {
        unsafe dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol)
    }

    private static func lastError() -> String? {
        guard let message = unsafe dlerror() else { return nil }
        return unsafe String(cString: message)
    }
}

/// Every call from the host into plugin code goes through this file: the
/// entry function, init/deinit, the descriptor accessors, layout and the
/// extension lookup. Each function documents what it trusts.
package enum PluginCalls {
    /// Calls a `hud_get_entry_fn` found by `dlsym` (or linked in).
    package static func entry(at address: UnsafeMutableRawPointer) -> UnsafePointer<hud_entry_t>? {
        let function = unsafe unsafeBitCast(address, to: hud_get_entry_fn.self)
        return unsafe function()
    }

    package static func initialize(_ entry: UnsafePointer<hud_entry_t>) -> Int32? {
        guard let initialize = unsafe entry.pointee.`init` else { return nil }
        return initialize()
    }

    package static func deinitialize(_ entry: UnsafePointer<hud_entry_t>) {
        unsafe entry.pointee.deinit?()
    }

    package static func rendererCount(_ entry: UnsafePointer<hud_entry_t>) -> UInt32? {
        guard let count = unsafe entry.pointee.renderer_count else { return nil }
        return count()
    }

    package static func renderer(_ entry: UnsafePointer<hud_entry_t>, at index: UInt32) -> UnsafePointer<hud_renderer_descriptor_t>? {
        guard let at = unsafe entry.pointee.renderer_at else { return nil }
        return unsafe at(index)
    }

    /// Runs the renderer's layout with the action-during-layout guard armed;
    /// `violations` counts actions the renderer tried to call (not run).
    package static func layout(
        _ descriptor: UnsafePointer<hud_renderer_descriptor_t>,
        _ complications: UnsafePointer<hud_complications_t>,
        _ environment: UnsafePointer<hud_environment_t>,
        _ interaction: UnsafePointer<hud_interaction_t>,
        _ output: UnsafeMutablePointer<hud_layout_t>
    ) -> (status: Int32, violations: Int) {
        guard let layout = unsafe descriptor.pointee.layout else { return (Int32(HUD_STATUS_INVALID_ARGUMENT), 0) }
        let (status, violations) = ActionThunk.duringLayout {
            unsafe layout(descriptor, complications, environment, interaction, output)
        }
        return (status, violations)
    }

    /// The extension with `id`, or nil. The result is only compared with nil.
    package static func hasExtension(_ descriptor: UnsafePointer<hud_renderer_descriptor_t>, id: String) -> Bool {
        guard let lookup = unsafe descriptor.pointee.get_extension else { return false }
        return unsafe id.withCString { unsafe lookup(descriptor, $0) } != nil
    }
}

/// Turns an entry structure (from a linked symbol or from `dlsym`) into
/// validated renderers: version and size handshake, `init`, then every
/// descriptor checked against the header's rules before anything is used.
@safe package struct EntryLoader {
    package let entry: UnsafePointer<hud_entry_t>
    package let origin: RendererInfo.Origin

    /// The size of each ABI 1.0 structure: the least a plugin may report.
    /// The frozen HUD_*_SIZE_1_0, whatever minor this host's header is, so a
    /// 1.0 plugin stays loadable by a host built against a later header.
    package static let entrySize = Int(HUD_ENTRY_SIZE_1_0)
    package static let descriptorSize = Int(HUD_RENDERER_DESCRIPTOR_SIZE_1_0)
    /// sizeof(hud_entry_t) in the header this host was built with (what a
    /// plugin built with the same header reports; unchanged since 1.0).
    package static let headerEntrySize = MemoryLayout<hud_entry_t>.size

    @safe package struct Result {
        package var entry: UnsafePointer<hud_entry_t>
        package var renderers: [PluginRenderer]
        package var failures: [RegistryError]
    }

    package init(entry: UnsafePointer<hud_entry_t>, origin: RendererInfo.Origin) {
        unsafe self.entry = unsafe entry
        self.origin = origin
    }

    /// The handshake and init. On success the plugin is initialized once;
    /// renderers that fail validation are reported, the rest returned.
    package func load() throws(RegistryError) -> Result {
        let path = origin.description
        let version = unsafe ABIVersion(packed: entry.pointee.abi_version)
        if let refusal = unsafe Self.handshakeRefusal(version, size: Int(entry.pointee.struct_size), path: path) { throw refusal }
        guard let status = unsafe PluginCalls.initialize(entry) else {
            throw .invalidDescriptor(path: path, index: -1, id: nil, field: "hud_entry_t.init", reason: "is NULL")
        }
        guard status == Int32(HUD_STATUS_OK) else { throw .initFailed(path: path, status: status) }

        // Asked once: the count judged is the count reported.
        let reported = unsafe PluginCalls.rendererCount(entry)
        guard let count = reported, Self.isValidRendererCount(count) else {
            unsafe PluginCalls.deinitialize(entry)
            throw .invalidRendererCount(path: path, count: reported ?? 0)
        }
        var result = unsafe Result(entry: entry, renderers: [], failures: [])
        for index in 0..<count {
            do {
                result.renderers.append(try descriptor(at: index, path: path, abiVersion: version))
            } catch {
                result.failures.append(error)
            }
        }
        if result.renderers.isEmpty { unsafe PluginCalls.deinitialize(entry) }
        return result
    }

    /// The handshake: why a host refuses an entry claiming `version` with
    /// `struct_size` `size` before calling anything in it (nil: it does not).
    package static func handshakeRefusal(_ version: ABIVersion, size: Int, path: String) -> RegistryError? {
        guard version.isLoadable() else { return .incompatibleABI(path: path, pluginVersion: version, hostVersion: .host) }
        guard size >= entrySize else { return .structTooSmall(path: path, structure: "hud_entry_t", size: size, required: entrySize) }
        return nil
    }

    /// `renderer_count()` after `init()`: a plugin provides 1 to `HUD_MAX_RENDERERS` renderers.
    package static func isValidRendererCount(_ count: UInt32) -> Bool { count >= 1 && count <= UInt32(HUD_MAX_RENDERERS) }

    private func descriptor(at index: UInt32, path: String, abiVersion: ABIVersion) throws(RegistryError) -> PluginRenderer {
        let slot = Int(index)
        guard let descriptor = unsafe PluginCalls.renderer(entry, at: index) else {
            throw .invalidDescriptor(path: path, index: slot, id: nil, field: "renderer_at(\(index))", reason: "returned NULL although renderer_count() is larger")
        }
        let size = unsafe Int(descriptor.pointee.struct_size)
        guard size >= Self.descriptorSize else {
            throw .structTooSmall(path: path, structure: "hud_renderer_descriptor_t", size: size, required: Self.descriptorSize)
        }
        // Field by field through the pointer, never a copy of the whole
        // structure: a descriptor built against an older SDK is only as
        // long as its struct_size (72 bytes for 1.0 and 1.1), shorter than
        // this header's.
        let d = unsafe descriptor
        func text(_ pointer: UnsafePointer<CChar>?, _ field: String, _ limit: Int32, id: String?) throws(RegistryError) -> String {
            do {
                return unsafe try CStringReader.read(pointer, limit: Int(limit), allowEmpty: false, allowControls: false)
            } catch {
                throw .invalidDescriptor(path: path, index: slot, id: id, field: field, reason: CStringReader.explain(error))
            }
        }
        let id = unsafe try text(d.pointee.id, "id", HUD_MAX_ID_BYTES, id: nil)
        if let problem = RendererInfo.idProblem(id) {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "id", reason: problem)
        }
        let name = unsafe try text(d.pointee.name, "name", HUD_MAX_NAME_BYTES, id: id)
        let version = unsafe try text(d.pointee.version, "version", HUD_MAX_VERSION_BYTES, id: id)
        let vendor = unsafe try text(d.pointee.vendor, "vendor", HUD_MAX_NAME_BYTES, id: id)
        let summary = unsafe try text(d.pointee.description, "description", HUD_MAX_DESCRIPTION_BYTES, id: id)
        guard unsafe d.pointee.layout != nil else {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "layout", reason: "is NULL; every renderer needs a layout function")
        }
        guard unsafe d.pointee.get_extension != nil else {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "get_extension", reason: "is NULL; return NULL from it for unknown ids instead")
        }
        let positions = unsafe d.pointee.supported_positions
        guard positions & ~UInt32(HUD_POSITION_ALL_BITS) == 0 else {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "supported_positions", reason: "has unknown bits 0x\(String(positions & ~UInt32(HUD_POSITION_ALL_BITS), radix: 16)); only the five position bits (0x1f) exist")
        }
        guard positions != 0 else {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "supported_positions", reason: "is empty; a renderer must show at least one position")
        }
        // ABI 1.2: read only when the descriptor's size covers it.
        var pickerIcon: String?
        if size >= Int(HUD_RENDERER_DESCRIPTOR_SIZE_1_2), let pointer = unsafe d.pointee.picker_icon {
            let icon = unsafe try text(pointer, "picker_icon", HUD_MAX_ICON_BYTES, id: id)
            pickerIcon = icon
        }
        let info = unsafe RendererInfo(
            id: id, name: name, version: version, vendor: vendor, summary: summary,
            supportedPositions: Set(Position.positions(in: positions)),
            capabilities: RendererInfo.Capabilities(rawValue: d.pointee.capabilities),
            abiVersion: abiVersion,
            origin: origin,
            pickerIcon: pickerIcon
        )
        return unsafe PluginRenderer(info: info, descriptor: descriptor)
    }

}

/// Reads strings a plugin handed to the host: bounded (never past
/// `limit + 1` bytes), checked for UTF-8, copied into Swift.
package enum CStringReader {
    package enum Failure: Error, Equatable {
        case null
        case tooLong(limit: Int)
        case invalidUTF8
        case empty
        /// A C0 or C1 control character or DEL (U+0000–U+001F, U+007F–U+009F):
        /// it could draw fake rows or colours in a terminal listing.
        case controlCharacter(offset: Int)
    }

    package static func read(_ pointer: UnsafePointer<CChar>?, limit: Int, allowEmpty: Bool = true, allowControls: Bool = true) throws(Failure) -> String {
        guard let pointer = unsafe pointer else { throw .null }
        let length = unsafe strnlen(pointer, limit + 1)
        guard length <= limit else { throw .tooLong(limit: limit) }
        guard allowEmpty || length > 0 else { throw .empty }
        let bytes = unsafe UnsafeRawBufferPointer(start: pointer, count: length)
        guard let string = unsafe String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        if !allowControls, let offset = TextChecks.firstControlCharacter(in: string) { throw .controlCharacter(offset: offset) }
        return string
    }

    /// The failure as the tail of a sentence ("is NULL", ...).
    package static func explain(_ failure: Failure) -> String {
        switch failure {
        case .null: "is NULL"
        case .tooLong(let limit): "is longer than \(limit) bytes (or not NUL-terminated)"
        case .invalidUTF8: "is not valid UTF-8"
        case .empty: "is empty"
        case .controlCharacter(let offset): "contains a control character at byte \(offset); descriptor text must be printable"
        }
    }
}

extension EntryLoader {
    /// The built-ins linked into this host: the same entry structure a
    /// plugin exports, reached through a linked symbol instead of `dlsym`.
    package static func builtin() -> EntryLoader {
        unsafe EntryLoader(entry: hudRendererGetEntry(), origin: .builtin)
    }

    /// Opens the plugin file at `path` (`RTLD_NOW | RTLD_LOCAL |
    /// RTLD_NODELETE`), runs `verify` (the caller's check that the mapped
    /// file is the checked one) before any of its functions is called, then
    /// resolves and calls the entry symbol. Library constructors run inside
    /// `dlopen`, which is why callers only get here after the sandbox.
    /// `file`: load through this open file (see `DynamicLibrary.open`);
    /// the renderers' origin is `path`.
    package static func open(path: String, through file: ReadOnlyFile? = nil, verify: () throws(RegistryError) -> Void) throws(RegistryError) -> EntryLoader {
        let library = try DynamicLibrary.open(path: path, through: file)
        try verify()
        let address = unsafe try library.address(of: HUD_ENTRY_SYMBOL_NAME)
        guard let entry = unsafe PluginCalls.entry(at: address) else { throw .nullEntry(path: path) }
        return unsafe EntryLoader(entry: entry, origin: .file(path))
    }
}

extension EntryLoader.Result {
    /// Balances the plugin's `init()` when none of its renderers is kept.
    package func deinitialize() { unsafe PluginCalls.deinitialize(entry) }
}
