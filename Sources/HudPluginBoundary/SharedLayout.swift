// SPDX-License-Identifier: MIT
package import HudModel
package import HudRendererAPI
import CHudSystem
import Glibc
package import HudSystem

// The memory an out-of-process renderer host shares with its parent: one
// memfd, sealed at its size, mapped by both. Owner: the parent creates it
// and passes it to the child at spawn (descriptor 4); each side unmaps its
// own mapping when its `SharedRegion` is released. Threads: one caller at a
// time on each side; the socketpair's request/reply frames order every
// access (the parent writes the inputs, then wakes the child; the child
// writes the layout, then wakes the parent).
//
// The child is not trusted: after its reply the parent copies the nodes and
// the strings it needs into its own memory and validates only that copy, so
// a child that keeps writing cannot change what was checked, and every
// string "pointer" in a shared node is an offset the parent bounds.

/// The fixed layout of the shared region: inputs the parent writes, then
/// the layout the child writes.
package enum SharedLayoutArea {
    /// The marshaled complications (`HudPhoneComplications.wireEncoded()`),
    /// rewritten only when the published set changes.
    package static let complicationsOffset = 0
    package static let complicationsCapacity = 4 << 20
    /// The per-call environment and interaction.
    package static let callOffset = complicationsOffset + complicationsCapacity
    package static let callCapacity = 64 << 10
    /// `ABILimits.maxNodes` nodes, as the renderer wrote them, strings as offsets.
    package static let nodesOffset = callOffset + callCapacity
    package static let nodeStride = unsafe MemoryLayout<hud_node_t>.stride
    package static let nodesCapacity = ABILimits.maxNodes * nodeStride
    /// Every node string, NUL-terminated, at most its limit plus one byte
    /// (one too many, so the parent sees a string that is too long).
    package static let stringsOffset = (nodesOffset + nodesCapacity + 4095) & ~4095
    package static let stringBytesPerNode = (Int(HUD_MAX_ICON_BYTES) + 2) + 2 * (Int(HUD_MAX_LABEL_BYTES) + 2)
    package static let stringsCapacity = ABILimits.maxNodes * stringBytesPerNode
    /// Concurrent slots (`validate`'s thread-safety check,
    /// `ValidationFrame.concurrentLayout`): slot `i` holds the nodes one
    /// thread's call wrote (at `nodeStride`), then the strings the child
    /// exported for them, as in the nodes and strings areas. 4 MiB of the
    /// memfd, touched only by that check (pages never written cost nothing).
    package static let concurrentOffset = (stringsOffset + stringsCapacity + 4095) & ~4095
    package static let concurrentCapacity = 4 << 20
    /// Export room for one slot's strings; a layout whose strings need more
    /// is reported as such (`concurrentStringsOverflow`).
    package static let concurrentStringBytes = 32 << 10
    package static let maxConcurrentSlots = 64
    /// A slot's string bytes when its strings did not fit.
    package static let concurrentStringsOverflow = UInt32.max
    package static let size = concurrentOffset + concurrentCapacity

    /// Bytes of one concurrent slot of `capacity` nodes (64-byte aligned).
    package static func concurrentSlotSize(capacity: Int) -> Int { (capacity * nodeStride + concurrentStringBytes + 63) & ~63 }

    /// Where concurrent slot `index` of `capacity` nodes starts: its nodes, then its strings.
    package static func concurrentSlot(_ index: Int, capacity: Int) -> (nodes: Int, strings: Int) {
        let nodes = concurrentOffset + index * concurrentSlotSize(capacity: capacity)
        return (nodes, nodes + capacity * nodeStride)
    }

    /// True when `slots` slots of `capacity` nodes fit the concurrent area.
    package static func concurrentFits(slots: Int, capacity: Int) -> Bool {
        (1...maxConcurrentSlots).contains(slots) && (1...ABILimits.maxNodes).contains(capacity)
            && slots * concurrentSlotSize(capacity: capacity) <= concurrentCapacity
    }
}

/// One shared mapping of `SharedLayoutArea.size` bytes.
@safe package final class SharedRegion {
    private let base: UnsafeMutableRawPointer
    package let size: Int

    private init(base: UnsafeMutableRawPointer, size: Int) {
        unsafe self.base = unsafe base
        self.size = size
    }

    deinit { unsafe munmap(base, size) }

    /// Makes the memfd (close-on-exec), sizes and seals it, and maps it.
    /// Returns the region and the descriptor to hand the child (the caller
    /// closes it once the child has it).
    package static func create(size: Int = SharedLayoutArea.size) -> Result<(region: SharedRegion, descriptor: FileDescriptor), SystemError> {
        let made = unsafe hud_system_memfd("hud-renderer-host")
        guard made >= 0 else { return .failure(.current) }
        // Numbered at 10 or above, so the child's dup2 onto 3 and 4 cannot clobber it.
        let fd = FileDescriptor(owning: fcntl(made, F_DUPFD_CLOEXEC, 10))
        close(made)
        guard fd.isOpen else { return .failure(.current) }
        guard ftruncate(fd.rawValue, off_t(size)) == 0, hud_system_seal_size(fd.rawValue) == 0 else { return .failure(.current) }
        return map(fd.rawValue, size: size).map { ($0, fd) }
    }

    /// The child's side: maps the region passed as `descriptor` after
    /// checking it is the sealed size the parent made (EINVAL if not), then closes the
    /// descriptor (the mapping stays).
    package static func adopt(descriptor fd: Int32, size: Int = SharedLayoutArea.size) -> Result<SharedRegion, SystemError> {
        defer { close(fd) }
        var info = stat()
        guard unsafe fstat(fd, &info) == 0 else { return .failure(.current) }
        guard Int(info.st_size) == size, isSizeSealed(fd) else { return .failure(SystemError(code: EINVAL)) }
        return map(fd, size: size)
    }

    private static func map(_ fd: Int32, size: Int) -> Result<SharedRegion, SystemError> {
        guard let pointer = unsafe mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), unsafe pointer != MAP_FAILED else {
            return .failure(.current)
        }
        return unsafe .success(SharedRegion(base: pointer, size: size))
    }

    /// True when the descriptor's size can no longer change (both size seals set).
    package static func isSizeSealed(_ fd: Int32) -> Bool {
        let seals = hud_system_seals(fd)
        return seals >= 0 && seals & 0x6 == 0x6
    }

    /// Copies `bytes` to `offset`; false if they do not fit in `capacity`.
    package func write(_ bytes: [UInt8], at offset: Int, capacity: Int) -> Bool {
        guard bytes.count <= capacity, offset >= 0, offset + capacity <= size else { return false }
        unsafe bytes.withUnsafeBytes { source in
            if let from = source.baseAddress { unsafe (base + offset).copyMemory(from: from, byteCount: bytes.count) }
        }
        return true
    }

    /// A private copy of `count` bytes at `offset` (nil when out of bounds).
    package func read(at offset: Int, count: Int, capacity: Int) -> [UInt8]? {
        guard count >= 0, count <= capacity, offset >= 0, offset + capacity <= size else { return nil }
        // Not through unsafeUninitializedCapacity for 0: it writes the count
        // into the runtime's one shared empty-array storage, a data race
        // when two threads (validate -j) read empty answers at once.
        guard count > 0 else { return [] }
        return unsafe [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            unsafe UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: base + offset, byteCount: count)
            initialized = count
        }
    }

    /// How many of the `count` bytes at `offset` are not `byte` (a guard
    /// band's damage), read from a copy: the child may be writing.
    package func bytes(at offset: Int, count: Int, differingFrom byte: UInt8) -> Int? {
        guard let copy = read(at: offset, count: count, capacity: count) else { return nil }
        return unsafe copy.withUnsafeBytes { unsafe $0.baseAddress.map { unsafe $0.bytes(differingFrom: byte, count: count) } ?? 0 }
    }

    package var raw: UnsafeMutableRawPointer { unsafe base }
}

/// The child's side of a layout: copies what the renderer wrote into the
/// shared region, turning each string pointer into `offset + 1` into the
/// strings area (0 for NULL). Strings are read up to their limit plus one
/// byte; a wild pointer crashes this (sandboxed) child, which the parent
/// reports as a crash of the renderer.
package enum LayoutExport {
    /// Returns the number of string bytes written.
    package static func write(_ output: hud_layout_t, buffer: LayoutBuffer, to region: SharedRegion) -> Int {
        let count = unsafe min(Int(output.count), buffer.capacity, ABILimits.maxNodes)
        return unsafe export(count, from: buffer.nodes, stride: buffer.stride, to: region.raw + SharedLayoutArea.nodesOffset,
                      strings: region.raw + SharedLayoutArea.stringsOffset, capacity: SharedLayoutArea.stringsCapacity) ?? 0
    }

    /// Concurrent slot `slot` of `capacity` nodes, in place: the first
    /// `count` nodes' strings copied into the slot's strings, pointers
    /// turned into tokens. The string bytes, or nil when they do not fit.
    package static func exportSlot(_ slot: Int, capacity: Int, count: Int, in region: SharedRegion) -> Int? {
        let (nodes, strings) = SharedLayoutArea.concurrentSlot(slot, capacity: capacity)
        return unsafe export(min(count, capacity), from: region.raw + nodes, stride: SharedLayoutArea.nodeStride, to: region.raw + nodes,
                      strings: region.raw + strings, capacity: SharedLayoutArea.concurrentStringBytes)
    }

    /// Copies `count` nodes from `source` (at `stride`) to `nodes` (at
    /// `SharedLayoutArea.nodeStride`; may be `source`), their strings into
    /// `strings` (at most `capacity` bytes). Nil when the strings do not fit.
    private static func export(_ count: Int, from source: UnsafeMutableRawPointer, stride: Int, to nodes: UnsafeMutableRawPointer,
                               strings: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        var used = 0
        var overflow = false
        func copy(_ pointer: UnsafePointer<CChar>?, limit: Int) -> UnsafePointer<CChar>? {
            guard let pointer = unsafe pointer else { return nil }
            let length = unsafe strnlen(pointer, limit + 1)
            guard used + length + 1 <= capacity else {
                overflow = true
                return nil
            }
            unsafe (strings + used).copyMemory(from: pointer, byteCount: length)
            unsafe (strings + used + length).storeBytes(of: 0, as: UInt8.self)
            let token = used + 1
            used += length + 1
            return unsafe UnsafePointer(bitPattern: token)
        }
        for index in 0..<count {
            var node = unsafe (source + index * stride).load(as: hud_node_t.self)
            unsafe node.icon = unsafe copy(node.icon, limit: Int(HUD_MAX_ICON_BYTES))
            unsafe node.label = unsafe copy(node.label, limit: Int(HUD_MAX_LABEL_BYTES))
            unsafe node.accessibility_label = unsafe copy(node.accessibility_label, limit: Int(HUD_MAX_LABEL_BYTES))
            unsafe (nodes + index * SharedLayoutArea.nodeStride).storeBytes(of: node, as: hud_node_t.self)
        }
        return overflow ? nil : used
    }
}

/// The parent's side: a private copy of a layout a renderer host wrote,
/// with string offsets turned back into pointers into the private copy,
/// then validated by `LayoutValidator` exactly like an in-process layout.
/// Reused across calls (no allocation once its buffers are large enough).
@safe package final class RemoteLayoutImport {
    private var nodes = LayoutBuffer(capacity: 64)
    private var strings: UnsafeMutableRawPointer
    private var stringsCapacity: Int

    package init() {
        stringsCapacity = 16 << 10
        unsafe strings = .allocate(byteCount: stringsCapacity, alignment: 16)
    }

    deinit { unsafe strings.deallocate() }

    /// Copies, translates and validates the reply's layout, then hands
    /// `body` a frame over the private copy (valid only inside `body`).
    /// `nodesAt`/`stringsAt`/`stringsCapacity` name where the layout is: the
    /// nodes and strings areas, or a concurrent slot.
    package func withFrame<R>(_ raw: RawLayoutResult, insets: HudInsets, hiddenPositions: UInt32, stringBytes: Int,
                             from region: SharedRegion, nodesAt: Int = SharedLayoutArea.nodesOffset,
                             stringsAt: Int = SharedLayoutArea.stringsOffset, stringsCapacity areaCapacity: Int = SharedLayoutArea.stringsCapacity,
                             info: RendererInfo, modes: ModeCounts,
                             _ body: (LayoutFrame) -> R) throws(RegistryError) -> R {
        try raw.check(info)
        let count = Int(raw.count)
        guard count <= ABILimits.maxNodes else {
            throw .invalidLayout(id: info.id, origin: info.origin.description, node: nil, field: "count",
                                 reason: "is \(count); at most \(ABILimits.maxNodes) nodes")
        }
        guard stringBytes >= 0, stringBytes <= areaCapacity else {
            throw .invalidLayout(id: info.id, origin: info.origin.description, node: nil, field: "strings",
                                 reason: "the renderer host reported \(stringBytes) string bytes; the shared area holds \(areaCapacity)")
        }
        if unsafe nodes.capacity < count { nodes = LayoutBuffer(capacity: count) }
        if stringsCapacity < stringBytes + 1 {
            unsafe strings.deallocate()
            stringsCapacity = max(stringBytes + 1, stringsCapacity * 2)
            unsafe strings = .allocate(byteCount: stringsCapacity, alignment: 16)
        }
        var output = unsafe hud_layout_t()
        unsafe nodes.prepare(&output)
        unsafe output.count = UInt32(count)
        unsafe output.content_insets = hud_insets_t(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right)
        unsafe output.hidden_positions = hiddenPositions
        nodes.noteWritten(status: Int32(HUD_STATUS_OK), count: UInt32(count))
        guard nodesAt >= 0, nodesAt + count * SharedLayoutArea.nodeStride <= region.size, stringsAt >= 0, stringsAt + stringBytes <= region.size else {
            throw .invalidLayout(id: info.id, origin: info.origin.description, node: nil, field: "count",
                                 reason: "is \(count); the layout does not fit the shared region")
        }
        unsafe nodes.nodes.copyMemory(from: region.raw + nodesAt, byteCount: count * SharedLayoutArea.nodeStride)
        unsafe strings.copyMemory(from: region.raw + stringsAt, byteCount: stringBytes)
        // Every string ends inside the copy: the validator's bounded reads stop here at the latest.
        unsafe (strings + stringBytes).storeBytes(of: 0, as: UInt8.self)
        for index in 0..<count {
            let node = unsafe (nodes.nodes + index * nodes.stride).assumingMemoryBound(to: hud_node_t.self)
            unsafe node.pointee.icon = unsafe try pointer(node.pointee.icon, index, "icon", stringBytes, info)
            unsafe node.pointee.label = unsafe try pointer(node.pointee.label, index, "label", stringBytes, info)
            unsafe node.pointee.accessibility_label = unsafe try pointer(node.pointee.accessibility_label, index, "accessibility_label", stringBytes, info)
        }
        return unsafe try nodes.withValidatedFrame(output, info: info, modes: modes, body)
    }

    private func pointer(_ token: UnsafePointer<CChar>?, _ index: Int, _ field: String, _ stringBytes: Int,
                         _ info: RendererInfo) throws(RegistryError) -> UnsafePointer<CChar>? {
        let value = UInt(bitPattern: token)
        guard value != 0 else { return nil }
        guard value - 1 < UInt(stringBytes) else {
            throw .invalidLayout(id: info.id, origin: info.origin.description, node: index, field: field,
                                 reason: "points outside the strings the renderer host wrote (offset \(value - 1) of \(stringBytes))")
        }
        return unsafe UnsafePointer((strings + Int(value - 1)).assumingMemoryBound(to: CChar.self))
    }
}

extension SystemCalls {
    /// `socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC)`.
    package static func socketPair() -> Result<(FileDescriptor, FileDescriptor), SystemError> {
        var fds: [Int32] = [-1, -1]
        guard unsafe hud_system_socketpair(&fds) == 0 else { return .failure(.current) }
        return moveAboveStandard(fds[0], fds[1])
    }

    /// `pidfd_open(pid)`: readable once `pid` has exited; nil if the kernel has none.
    package static func processDescriptor(_ pid: Int32) -> FileDescriptor? {
        let fd = hud_system_pidfd_open(pid)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return FileDescriptor(owning: fd)
    }

    /// Asks for SIGKILL when the parent exits; false if the parent is already gone.
    package static func dieWithParent(expectedParent: Int32) -> Bool {
        _ = hud_system_parent_death_signal(SIGKILL)
        return getppid() == expectedParent
    }
}

/// What a renderer host child reports for one call: the raw result, the
/// layout header's fields, and how many string bytes it exported.
package struct ServedLayout: Sendable {
    package var raw: RawLayoutResult
    package var insets: HudInsets
    package var hiddenPositions: UInt32
    package var stringBytes: Int
}

extension PluginRenderer {
    /// The renderer host child's call: the raw layout call, then (when it
    /// returned OK) its nodes and strings copied into `region`. Nothing is
    /// judged here; the parent does that.
    package func serve(_ snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction,
                       into region: SharedRegion) -> ServedLayout {
        var output = unsafe hud_layout_t()
        let (status, violations) = unsafe rawCall(snapshot, environment, interaction, &output)
        let buffer = currentBuffer
        let raw = unsafe RawLayoutResult(status: status, count: output.count, capacity: UInt32(buffer.capacity), violations: violations)
        let exported = unsafe status == Int32(HUD_STATUS_OK) && violations == 0 ? LayoutExport.write(output, buffer: buffer, to: region) : 0
        let i = unsafe output.content_insets
        return unsafe ServedLayout(raw: raw, insets: HudInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right),
                            hiddenPositions: output.hidden_positions, stringBytes: exported)
    }
}

// The raw and prepared calls' places in the region (the validator's
// harness, HudHarness's SharedRawCall.swift, makes the calls; the parent
// lays out and reads back their buffers).

extension SharedLayoutArea {
    /// Where a raw call's guarded buffer starts: the nodes and strings
    /// areas, unused by a raw call (it exports nothing).
    package static let rawOffset = nodesOffset
    package static let rawCapacity = preparedInputsOffset - nodesOffset
    /// This host's `hud_environment_t` size, the raw call's default `struct_size`.
    package static let hostEnvironmentSize = unsafe MemoryLayout<hud_environment_t>.size

    /// True when a raw call with these numbers fits the region and gives
    /// the renderer a buffer it may be given (a stride of at least the 1.0
    /// node, 8-byte aligned; a capacity of at most `HUD_MAX_NODES`).
    package static func rawCallFits(capacity: Int, stride: Int, guardBytes: Int) -> Bool {
        guard capacity >= 0, capacity <= Int(HUD_MAX_NODES), stride >= Int(HUD_NODE_SIZE_1_0), stride % 8 == 0,
              stride <= 4096, guardBytes >= 0, guardBytes % 16 == 0, guardBytes <= 1 << 20 else { return false }
        return 2 * guardBytes + capacity * stride <= rawCapacity
    }
}

extension SharedLayoutArea {
    /// Where a prepared call's inputs go: the end of the strings area,
    /// unused by raw calls, and rewritten by a normal layout only after.
    package static let preparedInputsCapacity = 1 << 20
    package static let preparedInputsOffset = size - preparedInputsCapacity
}

extension SharedRegion {
    /// Sets `count` bytes at `offset` to `byte`; false when out of bounds.
    package func fill(_ byte: UInt8, at offset: Int, count: Int) -> Bool {
        guard count >= 0, offset >= 0, offset + count <= size else { return false }
        unsafe (raw + offset).setBytes(to: byte, count: count)
        return true
    }
}
