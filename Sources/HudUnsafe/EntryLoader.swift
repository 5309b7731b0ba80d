package import HudModel
package import HudRendererAPI

/// Turns an entry structure (from a linked symbol or from `dlsym`) into
/// validated renderers: version and size handshake, `init`, then every
/// descriptor checked against the header's rules before anything is used.
package struct EntryLoader {
    package let entry: UnsafePointer<hud_entry_t>
    package let origin: RendererInfo.Origin

    /// The size of each ABI 1.0 structure: the least a plugin may report.
    package static let entrySize = MemoryLayout<hud_entry_t>.size
    package static let descriptorSize = MemoryLayout<hud_renderer_descriptor_t>.size

    package struct Result {
        package var entry: UnsafePointer<hud_entry_t>
        package var renderers: [PluginRenderer]
        package var failures: [RegistryError]
    }

    package init(entry: UnsafePointer<hud_entry_t>, origin: RendererInfo.Origin) {
        self.entry = entry
        self.origin = origin
    }

    /// The handshake and init. On success the plugin is initialized once;
    /// renderers that fail validation are reported, the rest returned.
    package func load() throws(RegistryError) -> Result {
        let path = origin.description
        let version = entry.pointee.abi_version
        guard version >> 16 == UInt32(HUD_ABI_VERSION_MAJOR) else {
            throw .incompatibleABI(path: path, pluginVersion: Self.versionString(version), hostVersion: Self.versionString(Self.hostVersion))
        }
        let size = Int(entry.pointee.struct_size)
        guard size >= Self.entrySize else {
            throw .structTooSmall(path: path, structure: "hud_entry_t", size: size, required: Self.entrySize)
        }
        guard let status = PluginCalls.initialize(entry) else {
            throw .invalidDescriptor(path: path, index: -1, id: nil, field: "hud_entry_t.init", reason: "is NULL")
        }
        guard status == Int32(HUD_STATUS_OK) else { throw .initFailed(path: path, status: status) }

        guard let count = PluginCalls.rendererCount(entry), count >= 1, count <= UInt32(HUD_MAX_RENDERERS) else {
            let count = PluginCalls.rendererCount(entry) ?? 0
            PluginCalls.deinitialize(entry)
            throw .invalidRendererCount(path: path, count: count)
        }
        var result = Result(entry: entry, renderers: [], failures: [])
        for index in 0..<count {
            do {
                result.renderers.append(try descriptor(at: index, path: path, abiVersion: version))
            } catch {
                result.failures.append(error)
            }
        }
        if result.renderers.isEmpty { PluginCalls.deinitialize(entry) }
        return result
    }

    private func descriptor(at index: UInt32, path: String, abiVersion: UInt32) throws(RegistryError) -> PluginRenderer {
        let slot = Int(index)
        guard let descriptor = PluginCalls.renderer(entry, at: index) else {
            throw .invalidDescriptor(path: path, index: slot, id: nil, field: "renderer_at(\(index))", reason: "returned NULL although renderer_count() is larger")
        }
        let size = Int(descriptor.pointee.struct_size)
        guard size >= Self.descriptorSize else {
            throw .structTooSmall(path: path, structure: "hud_renderer_descriptor_t", size: size, required: Self.descriptorSize)
        }
        let d = descriptor.pointee
        func text(_ pointer: UnsafePointer<CChar>?, _ field: String, _ limit: Int32, id: String?) throws(RegistryError) -> String {
            do {
                return try CStringReader.read(pointer, limit: Int(limit), allowEmpty: false)
            } catch {
                throw .invalidDescriptor(path: path, index: slot, id: id, field: field, reason: CStringReader.explain(error))
            }
        }
        let id = try text(d.id, "id", HUD_MAX_ID_BYTES, id: nil)
        if let problem = Self.idProblem(id) {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "id", reason: problem)
        }
        let name = try text(d.name, "name", HUD_MAX_NAME_BYTES, id: id)
        let version = try text(d.version, "version", HUD_MAX_VERSION_BYTES, id: id)
        let vendor = try text(d.vendor, "vendor", HUD_MAX_NAME_BYTES, id: id)
        let summary = try text(d.description, "description", HUD_MAX_DESCRIPTION_BYTES, id: id)
        guard d.layout != nil else {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "layout", reason: "is NULL; every renderer needs a layout function")
        }
        guard d.get_extension != nil else {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "get_extension", reason: "is NULL; return NULL from it for unknown ids instead")
        }
        let positions = d.supported_positions
        guard positions & ~UInt32(HUD_POSITION_ALL_BITS) == 0 else {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "supported_positions", reason: "has unknown bits 0x\(String(positions & ~UInt32(HUD_POSITION_ALL_BITS), radix: 16)); only the five position bits (0x1f) exist")
        }
        guard positions != 0 else {
            throw .invalidDescriptor(path: path, index: slot, id: id, field: "supported_positions", reason: "is empty; a renderer must show at least one position")
        }
        let info = RendererInfo(
            id: id, name: name, version: version, vendor: vendor, summary: summary,
            supportedPositions: Set(Position.positions(in: positions)),
            capabilities: RendererInfo.Capabilities(rawValue: d.capabilities),
            abiVersion: Self.versionString(abiVersion),
            origin: origin
        )
        return PluginRenderer(info: info, descriptor: descriptor)
    }

    /// Why `id` is not a valid renderer id, or nil if it is.
    package static func idProblem(_ id: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-")
        if let bad = id.first(where: { !allowed.contains($0) }) {
            return "'\(id)' contains '\(bad)'; ids are reverse-DNS in lowercase [a-z0-9.-], e.g. com.example.ring"
        }
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count < 2 {
            return "'\(id)' has no '.'; ids are reverse-DNS, e.g. com.example.ring"
        }
        if labels.contains(where: \.isEmpty) {
            return "'\(id)' has an empty label (a leading, trailing or doubled '.')"
        }
        if labels.contains(where: { $0.hasPrefix("-") || $0.hasSuffix("-") }) {
            return "'\(id)' has a label that starts or ends with '-'"
        }
        return nil
    }

    package static let hostVersion = UInt32(HUD_ABI_VERSION_MAJOR) << 16 | UInt32(HUD_ABI_VERSION_MINOR)

    package static func versionString(_ version: UInt32) -> String { "\(version >> 16).\(version & 0xFFFF)" }
}
