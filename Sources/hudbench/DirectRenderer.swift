import BuiltinRenderers
import Glibc
import HudRegistry
import HudScenes
import HudUnsafe
import HudRendererAPI

/// A renderer's layout function reached without the registry: the built-ins
/// through their linked entry (`hudRendererGetEntry()`), plugins through
/// their own `dlopen` + `dlsym` (the same, already loaded, image). All raw
/// calls of the benchmark into renderer code live here.
struct DirectRenderer {
    let descriptor: UnsafePointer<hud_renderer_descriptor_t>
    let layout: hud_layout_fn

    /// Finds the descriptor of `info.id` in the entry its origin names.
    init?(_ info: RendererInfo) {
        let entry: UnsafePointer<hud_entry_t>
        switch info.origin {
        case .builtin:
            entry = hudRendererGetEntry()
        case .file(let path):
            // RTLD_NODELETE like the registry; the image is already loaded, so
            // this only takes another reference.
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE),
                  let symbol = dlsym(handle, HUD_ENTRY_SYMBOL_NAME) else { return nil }
            let get = unsafeBitCast(symbol, to: hud_get_entry_fn.self)
            guard let found = get() else { return nil }
            entry = found
        }
        // Reference-counted: the registry's init already happened; one more
        // is harmless and keeps renderer_count() non-zero for us.
        guard let initialize = entry.pointee.`init`, initialize() == Int32(HUD_STATUS_OK),
              let count = entry.pointee.renderer_count, let at = entry.pointee.renderer_at else { return nil }
        for index in 0..<count() {
            guard let descriptor = at(index), let id = descriptor.pointee.id,
                  String(cString: id) == info.id, let layout = descriptor.pointee.layout else { continue }
            self.descriptor = descriptor
            self.layout = layout
            return
        }
        return nil
    }
}

/// A host-owned node buffer and layout header for direct calls: what a
/// minimal hand-written caller does per frame (reset the header, call).
/// The buffer is zeroed once; every node the renderers write is written
/// whole by `hud_layout_push_node`, so the direct baseline skips re-zeroing.
final class DirectCall {
    let renderer: DirectRenderer
    private let nodes: UnsafeMutableRawPointer
    private let capacity = 64
    private var output = hud_layout_t()

    init(_ renderer: DirectRenderer) {
        self.renderer = renderer
        let bytes = capacity * MemoryLayout<hud_node_t>.stride
        nodes = .allocate(byteCount: bytes, alignment: MemoryLayout<hud_node_t>.alignment)
        nodes.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    }

    deinit { nodes.deallocate() }

    /// One layout call on prepared C inputs; returns the node count (or -1).
    @inline(__always)
    func callAsFunction(_ complications: UnsafePointer<hud_complications_t>, _ environment: UnsafePointer<hud_environment_t>,
                        _ interaction: UnsafePointer<hud_interaction_t>) -> Int {
        output = hud_layout_t()
        output.struct_size = UInt32(MemoryLayout<hud_layout_t>.size)
        output.node_stride = UInt32(MemoryLayout<hud_node_t>.stride)
        output.nodes = nodes
        output.capacity = UInt32(capacity)
        let status = renderer.layout(renderer.descriptor, complications, environment, interaction, &output)
        return status == Int32(HUD_STATUS_OK) ? Int(output.count) : -1
    }
}
