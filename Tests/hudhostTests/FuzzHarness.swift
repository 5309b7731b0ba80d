// SPDX-License-Identifier: MIT
@testable import HudPluginBoundary
import Glibc
import HudRendererAPI
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
@testable import HudSystem

/// What each libFuzzer target does with one input. One source for both
/// sides: `Fuzz/run.sh` compiles this file into every fuzzer next to its
/// `Fuzz/Targets/<target>.swift` entry point, and `FuzzRegressionTests`
/// replays the saved inputs in `Tests/Fixtures/fuzz/<target>/` through the
/// same functions. Only this module's imports (no Foundation, no Testing).
///
/// Inputs that a component rejects with its typed error are fine; a trap
/// (overflow, a failed precondition), a sanitizer report, or a broken
/// property (`PropertyViolation`) is a finding.
package enum FuzzHarness {
    /// A property every input must keep, broken.
    package struct PropertyViolation: Error, CustomStringConvertible {
        package var description: String
    }

    package static let targets = ["scene", "layout", "elf", "events", "cache"]

    /// Feeds `bytes` to the target named `target`.
    package static func run(_ target: String, _ bytes: [UInt8]) throws(PropertyViolation) {
        switch target {
        case "scene": try scene(bytes)
        case "layout": layout(bytes)
        case "elf": elf(bytes)
        case "events": events(bytes)
        case "cache": try cache(bytes)
        default: preconditionFailure("no fuzz target \(target)")
        }
    }

    // MARK: - scene

    /// Scene files from raw bytes to pixels: JSONParser over arbitrary bytes
    /// (invalid UTF-8 included); whatever parses serializes back to JSON that
    /// parses to an equal value; every document is read as a scene, and every
    /// valid scene is laid out by the tray renderer and drawn three ways.
    package static func scene(_ bytes: [UInt8]) throws(PropertyViolation) {
        guard let root = try? JSONParser.parse(bytes: bytes) else { return }
        let text = root.serialized(pretty: false)
        guard let again = try? JSONParser.parse(text) else {
            throw PropertyViolation(description: "serialized JSON does not parse again: \(text.prefix(300))")
        }
        guard again == root else { throw PropertyViolation(description: "the JSON round trip changed the value: \(text.prefix(300))") }
        guard let scene = try? SceneFile(root) else { return }
        let shell = scene.makeShell(registry: .withBuiltins(), environment: HudEnvironment(device: .default))
        guard let layout = try? shell.layout() else { return }
        draw(layout, environment: shell.environment, device: .default)
    }

    // MARK: - layout

    /// The pinned v1.0 `hud_node_t` size (ABIHeaderTests): input records
    /// are the nodes of a 1.0 renderer (`layoutInfo` says ABI 1.0), laid out
    /// in the host's buffer at this host's stride.
    package static let nodeSize = Int(HUD_NODE_SIZE_1_0)
    package static let layoutHeaderSize = 48
    package static let layoutInfo = RendererInfo(id: "org.fuzz.layout", name: "Fuzz", version: "1", vendor: "fuzz", summary: "",
                                         supportedPositions: Set(Position.allCases), capabilities: [], abiVersion: ABIVersion(major: 1, minor: 0), origin: .builtin)

    /// The layout validator fed arbitrary node buffers, as if a renderer had
    /// written them; every layout it accepts is hit-tested and drawn.
    ///
    /// Input: a 48-byte header, `count` hud_node_t records of 168 bytes, then
    /// a string pool.
    ///   [0,4)   count (u32 LE; clamped to the whole records present)
    ///   [4,8)   hidden_positions (u32 LE)
    ///   [8,40)  content_insets top, left, bottom, right (f64 LE)
    ///   [40]    device preset index; [41] bit 0 RTL, bit 1 landscape
    /// A node's string pointers (icon, label, accessibility_label) are not
    /// addresses: 0 is NULL, n > 0 points n - 1 bytes into the pool
    /// (wrapping), which always ends with a NUL. `Fuzz/make-seeds.py` writes
    /// real layouts in this form.
    package static func layout(_ bytes: [UInt8]) {
        guard bytes.count >= layoutHeaderSize else { return }
        precondition(MemoryLayout<hud_node_t>.size >= nodeSize, "hud_node_t is smaller than 1.0's 168 bytes")
        let stride = MemoryLayout<hud_node_t>.stride
        bytes.withUnsafeBytes { input in
            let claimed = Int(UInt32(littleEndian: input.loadUnaligned(as: UInt32.self)))
            let count = min(claimed, (input.count - layoutHeaderSize) / nodeSize)
            var output = hud_layout_t()
            output.count = UInt32(count)
            output.hidden_positions = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            output.content_insets = hud_insets_t(
                top: input.loadUnaligned(fromByteOffset: 8, as: Double.self), left: input.loadUnaligned(fromByteOffset: 16, as: Double.self),
                bottom: input.loadUnaligned(fromByteOffset: 24, as: Double.self), right: input.loadUnaligned(fromByteOffset: 32, as: Double.self))
            let device = DevicePreset.all[Int(input[40]) % DevicePreset.all.count]
            let environment = HudEnvironment(device: device, orientation: input[41] & 2 != 0 ? .landscape : .portrait,
                                             layoutDirection: input[41] & 1 != 0 ? .rightToLeft : .leftToRight)
            var pool = Array(input[(layoutHeaderSize + count * nodeSize)...])
            pool.append(0)
            let nodes = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * stride, alignment: 16)
            defer { nodes.deallocate() }
            let decoded: HudLayout? = pool.withUnsafeBufferPointer { poolBytes in
                let base = UnsafeRawPointer(poolBytes.baseAddress!).assumingMemoryBound(to: CChar.self)
                func string(_ offset: Int) -> UnsafePointer<CChar>? {
                    let selector = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    return selector == 0 ? nil : base + Int((selector - 1) % UInt64(poolBytes.count))
                }
                for index in 0..<count {
                    let record = layoutHeaderSize + index * nodeSize
                    var node = hud_node_t()
                    withUnsafeMutableBytes(of: &node) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: input[record..<(record + nodeSize)])) }
                    node.icon = string(record + 144)
                    node.label = string(record + 152)
                    node.accessibility_label = string(record + 160)
                    (nodes + index * stride).storeBytes(of: node, as: hud_node_t.self)
                }
                return try? LayoutDecoder(info: layoutInfo, environment: environment).decode(output, nodes: nodes, stride: stride, modes: .none)
            }
            guard let layout = decoded else { return }
            for node in layout.nodes { _ = layout.hitTest(x: node.frame.midX, y: node.frame.midY) }
            draw(layout, environment: environment, device: device)
        }
    }

    // MARK: - elf

    /// The ELF metadata reader fed arbitrary files through the `pread` path
    /// discovery uses (`scratch` is a file it may overwrite), and the
    /// `.hud_renderers` record parser and build-id reader fed the raw bytes.
    package static func elf(_ bytes: [UInt8], scratch: Int32 = scratchFile) {
        let written = bytes.withUnsafeBytes { ftruncate(scratch, 0) == 0 ? pwrite(scratch, $0.baseAddress, $0.count, 0) : -1 }
        precondition(written == bytes.count, "cannot write the scratch file: \(String(cString: strerror(errno)))")
        _ = try? ElfMetadataReader.read(file: scratchReader, size: bytes.count, path: "fuzz-input")
        _ = try? HudMetadataFormat.parse(bytes, path: "fuzz-input")
        _ = ElfMetadataReader.buildID(bytes)
    }

    /// An unlinked file on tmpfs (or /tmp), opened once per process.
    package static let scratchFile: Int32 = {
        for directory in ["/dev/shm", "/tmp"] {
            var template = Array("\(directory)/hud-fuzz-elf.XXXXXX".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 {
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                return fd
            }
        }
        preconditionFailure("cannot create a scratch file: \(String(cString: strerror(errno)))")
    }()

    /// `scratchFile` opened again read-only, through the reader discovery uses.
    package static let scratchReader: ReadOnlyFile = {
        guard case .success(let file) = ReadOnlyFile.open("/proc/self/fd/\(scratchFile)") else {
            preconditionFailure("cannot reopen the scratch file")
        }
        return file
    }()

    // MARK: - events

    /// The `--events` grammar: every input is parsed; a script that parses
    /// (up to 64 steps) is played against a fresh demo shell with the
    /// built-in renderers, and the final layout is drawn.
    package static func events(_ bytes: [UInt8]) {
        guard let script = try? EventScript(parsing: String(decoding: bytes, as: UTF8.self)), script.steps.count <= 64 else { return }
        let shell = DemoComplications.makeShell(registry: .withBuiltins(), environment: HudEnvironment(device: .default))
        _ = try? EventScriptRunner(shell: shell).run(script)
        guard let layout = try? shell.layout() else { return }
        draw(layout, environment: shell.environment, device: .default)
        _ = LayoutJSON.interaction(shell.interaction).serialized()
    }

    // MARK: - Shared

    /// Every presenter over one layout.
    package static func draw(_ layout: HudLayout, environment: HudEnvironment, device: DevicePreset) {
        let ascii = AsciiPresenter()
        _ = ascii.render(layout, environment: environment)
        _ = ascii.legend(layout)
        _ = SvgPresenter(showHitRegions: true).render(layout, environment: environment, device: device)
        _ = LayoutJSON.layout(layout).serialized()
    }

    // MARK: - cache

    /// The key the seeds are written for (`Fuzz/make-seeds.py`).
    package static let cacheKey = "abi 1.1\n/fuzz/plugins"

    /// The registry cache's two readers agree: whatever the fast reader
    /// accepts, the general JSON parser
    /// accepts with the same records; and the records written again read
    /// back the same through the fast reader.
    package static func cache(_ bytes: [UInt8]) throws(PropertyViolation) {
        var reader = RegistryCacheFormat.FastReader(bytes)
        guard let fast = reader.records(key: cacheKey) else {
            _ = RegistryCache.generalRecords(bytes, key: cacheKey)
            return
        }
        switch RegistryCache.generalRecords(bytes, key: cacheKey) {
        case .success(let general) where general == fast: break
        case .success: throw PropertyViolation(description: "the fast cache reader and the general parser read different records")
        case .failure(let discard): throw PropertyViolation(description: "the fast cache reader accepted what the general parser discards: \(discard.reason)")
        }
        let rewritten = RegistryCacheFormat.write(key: cacheKey, records: fast.values.sorted { $0.path < $1.path })
        var again = RegistryCacheFormat.FastReader(rewritten)
        guard again.records(key: cacheKey) == fast else {
            throw PropertyViolation(description: "cache records written again do not read back the same")
        }
    }
}
