// SPDX-License-Identifier: MIT

// The frames between the host and an out-of-process renderer host
// (`hudsandbox serve`), on a socketpair (descriptor 3 in the child). Each
// frame is a 32-bit little-endian length and that many payload bytes (at
// most `maxPayload`); the payload's first byte says what it is. The large
// data never travels here: inputs and node buffers are in the shared region
// (`SharedLayoutArea`). A frame that breaks these rules ends the child as a
// protocol error naming the plugin.
//
// The child sends facts, never verdicts: what its descriptors say (the
// parent compares them with what `list` showed), the raw status, count and
// capacity of a call, the actions a renderer tried to call, and where the
// nodes' strings end. Every judgment is the parent's (`RawLayoutResult`,
// `RemoteLayoutImport`).
//
// `validate`'s own frames (raw, prepared and concurrent calls, ABI facts)
// travel as `validation`: this library carries them, the conformance suite
// (HudConformance's ValidationFrames.swift) and the child's serve loop give
// them meaning, so a host that links this library carries none of that code.

package enum RendererHostFrame: Sendable, Equatable {
    /// Parent → child: lay out with renderer `renderer` (an index into the
    /// ids the child was started with). The complications in the shared
    /// region are `generation`; when `complicationsBytes` is non-zero they
    /// were just rewritten and the child decodes them again.
    case layout(LayoutRequest)
    /// Either way: a frame only `validate` uses (`validationKinds`), its
    /// payload after the kind byte, encoded and decoded by the conformance
    /// suite (`ValidationFrame`).
    case validation(kind: UInt8, payload: [UInt8])
    /// Child → parent, once, after loading: each requested renderer's
    /// descriptor as a record (`RendererInfo.recordJSON`), in request order.
    case ready(records: [String])
    /// Child → parent, once, instead of `ready`: the plugin could not be used.
    case loadFailed(code: String, reason: String)
    /// Child → parent: the raw result of one call.
    case layoutDone(LayoutReply)
    /// Child → parent: the inputs of one call could not be rebuilt.
    case callFailed(sequence: UInt32, reason: String)

    package struct LayoutRequest: Sendable, Equatable {
        package var sequence: UInt32
        package var renderer: UInt32
        package var generation: UInt64
        package var complicationsBytes: UInt32
        package var callBytes: UInt32

        package func encode(into w: inout WireWriter) {
            w.u32(sequence); w.u32(renderer); w.u64(generation); w.u32(complicationsBytes); w.u32(callBytes)
        }

        package init(sequence: UInt32, renderer: UInt32, generation: UInt64, complicationsBytes: UInt32, callBytes: UInt32) {
            (self.sequence, self.renderer, self.generation, self.complicationsBytes, self.callBytes) =
                (sequence, renderer, generation, complicationsBytes, callBytes)
        }

        package init(from r: inout WireReader) throws(WireError) {
            self.init(sequence: try r.u32(), renderer: try r.u32(), generation: try r.u64(), complicationsBytes: try r.u32(), callBytes: try r.u32())
        }
    }

    package struct LayoutReply: Sendable, Equatable {
        package var sequence: UInt32
        package var status: Int32
        package var count: UInt32
        package var capacity: UInt32
        package var violations: UInt32
        package var stringBytes: UInt32
        package var insets: HudInsets
        package var hiddenPositions: UInt32

        package func encode(into w: inout WireWriter) {
            w.u32(sequence); w.i32(status); w.u32(count); w.u32(capacity); w.u32(violations); w.u32(stringBytes)
            w.f64(insets.top); w.f64(insets.left); w.f64(insets.bottom); w.f64(insets.right)
            w.u32(hiddenPositions)
        }

        package init(sequence: UInt32, status: Int32, count: UInt32, capacity: UInt32, violations: UInt32, stringBytes: UInt32,
                     insets: HudInsets, hiddenPositions: UInt32) {
            (self.sequence, self.status, self.count, self.capacity, self.violations, self.stringBytes, self.insets, self.hiddenPositions) =
                (sequence, status, count, capacity, violations, stringBytes, insets, hiddenPositions)
        }

        package init(from r: inout WireReader) throws(WireError) {
            self.init(sequence: try r.u32(), status: try r.i32(), count: try r.u32(), capacity: try r.u32(),
                      violations: try r.u32(), stringBytes: try r.u32(),
                      insets: HudInsets(top: try r.f64(), left: try r.f64(), bottom: try r.f64(), right: try r.f64()),
                      hiddenPositions: try r.u32())
        }
    }

    /// The exit status of a renderer host whose renderer called an action
    /// during a prepared call (`ActionThunk.withFatalCalls`).
    package static let actionTrapExitStatus: Int32 = 113

    /// The largest payload either side accepts (a `concurrentDone` of
    /// `SharedLayoutArea.maxConcurrentSlots` replies is about 4 KiB).
    package static let maxPayload = 64 << 10

    /// The kinds of `validation` frames.
    package static let validationKinds: Set<UInt8> = [2, 3, 4, 5, 14, 15, 20, 30]

    /// Length prefix and payload.
    package var encoded: [UInt8] {
        var w = WireWriter()
        switch self {
        case .layout(let r):
            w.u8(1)
            r.encode(into: &w)
        case .validation(let kind, let payload):
            w.u8(kind)
            w.raw(payload)
        case .ready(let records):
            w.u8(10)
            w.u32(UInt32(records.count))
            for record in records { w.string(record) }
        case .loadFailed(let code, let reason):
            w.u8(11)
            w.string(code); w.string(String(reason.utf8.prefix(8192)) ?? reason)
        case .layoutDone(let r):
            w.u8(12)
            r.encode(into: &w)
        case .callFailed(let sequence, let reason):
            w.u8(13)
            w.u32(sequence); w.string(String(reason.utf8.prefix(8192)) ?? reason)
        }
        return FrameReader.frame(w.bytes)
    }

    /// Decodes one payload (without its length prefix).
    package init(payload: [UInt8]) throws(SandboxProtocolError) {
        var r = WireReader(payload)
        do {
            switch try r.u8() {
            case 1:
                self = .layout(try LayoutRequest(from: &r))
            case 10:
                let count = Int(try r.u32())
                guard count <= ABILimits.maxRenderers else { throw WireError("\(count) records; at most \(ABILimits.maxRenderers)") }
                var records: [String] = []
                for _ in 0..<count { records.append(try r.string()) }
                self = .ready(records: records)
            case 11:
                self = .loadFailed(code: try r.string(), reason: try r.string())
            case 12:
                self = .layoutDone(try LayoutReply(from: &r))
            case 13:
                self = .callFailed(sequence: try r.u32(), reason: try r.string())
            case let kind where Self.validationKinds.contains(kind):
                self = .validation(kind: kind, payload: Array(payload.dropFirst()))
                return
            case let kind:
                throw WireError("unknown frame kind \(kind)")
            }
            guard r.isAtEnd else { throw WireError("bytes left over in the frame") }
        } catch {
            throw SandboxProtocolError("a malformed frame: \(error)")
        }
    }
}

extension WireWriter {
    /// A 32-bit count, then each item.
    package mutating func counted<Items: Collection>(_ items: Items, _ each: (inout WireWriter, Items.Element) -> Void) {
        u32(UInt32(items.count))
        for item in items { each(&self, item) }
    }

    /// Bytes after their 32-bit count (`WireReader.bytes(atMost:_:)` reads them).
    package mutating func countedBytes(_ value: [UInt8]) {
        u32(UInt32(value.count))
        raw(value)
    }
}

extension WireReader {
    /// A 32-bit count, refused above `limit` before anything is read for it.
    package mutating func count(atMost limit: Int, _ what: String) throws(WireError) -> Int {
        let count = Int(try u32())
        guard count <= limit else { throw WireError("\(count) \(what); at most \(limit)") }
        return count
    }

    /// Bytes after their 32-bit count, the count refused above `limit`.
    package mutating func bytes(atMost limit: Int, _ what: String) throws(WireError) -> [UInt8] {
        try raw(try count(atMost: limit, what))
    }
}

/// Reads whole frames from a stream (a socket or a pipe): linear in the
/// bytes received (consumed bytes are dropped in blocks, not per frame),
/// every length checked against `maxPayload` before its payload is
/// buffered. Used for the renderer host's channel and every other sandboxed
/// child's result channel.
package struct FrameReader {
    private var pending: [UInt8] = []
    private var start = 0
    package let maxPayload: Int

    package init(maxPayload: Int = RendererHostFrame.maxPayload) { self.maxPayload = maxPayload }

    package enum Next {
        case frame([UInt8])
        /// More bytes are needed.
        case incomplete
        case tooLarge(Int)
    }

    package mutating func append(_ bytes: [UInt8]) {
        if start > 65536 {
            pending.removeSubrange(..<start)
            start = 0
        }
        pending += bytes
    }

    /// The next complete payload, if one has arrived.
    package mutating func next() -> Next {
        guard pending.count - start >= 4 else { return .incomplete }
        let length = Int(pending[start]) | Int(pending[start + 1]) << 8 | Int(pending[start + 2]) << 16 | Int(pending[start + 3]) << 24
        guard length <= maxPayload else { return .tooLarge(length) }
        guard pending.count - start >= 4 + length else { return .incomplete }
        let payload = Array(pending[start + 4..<start + 4 + length])
        start += 4 + length
        return .frame(payload)
    }

    /// Encodes `payload` as one frame: its length (32-bit little-endian), then the bytes.
    package static func frame(_ payload: [UInt8]) -> [UInt8] {
        let count = UInt32(payload.count)
        return [UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 24)] + payload
    }
}
