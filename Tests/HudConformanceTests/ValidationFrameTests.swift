// SPDX-License-Identifier: MIT
@testable import HudPluginBoundary
import Testing
@testable import HudConformance
@testable import HudRegistry

/// `validate`'s renderer host frames (ValidationFrames.swift), carried by
/// the host library's channel as `RendererHostFrame.validation`: their wire
/// form and the bounds both sides hold them to, so a request can never
/// point a renderer outside the shared region.
struct ValidationFrameTests {
    /// `frame` as the channel carries it: encoded, cut into a payload, and
    /// decoded again the way the other side does.
    private func carried(_ frame: ValidationFrame) -> [UInt8] { Array(frame.frame.encoded.dropFirst(4)) }

    private func decode(_ payload: [UInt8]) throws -> ValidationFrame? { try ValidationFrame(try RendererHostFrame(payload: payload)) }

    @Test func aRawLayoutRequestRoundTripsAndATruncatedOneIsRefused() throws {
        let frame = ValidationFrame.rawLayout(
            .init(sequence: 7, renderer: 1, generation: 42, complicationsBytes: 100, callBytes: 64),
            .init(capacity: 3, stride: 184, guardBytes: 8192, environmentSize: UInt32(SharedLayoutArea.hostEnvironmentSize)))
        let payload = carried(frame)
        #expect(payload.first == 2)
        #expect(try decode(payload) == frame)
        #expect(throws: SandboxProtocolError.self) { try decode(Array(payload.dropLast())) }
        #expect(throws: SandboxProtocolError.self) { try decode(payload + [0]) }
    }

    /// The ABI facts exchange (`validate`'s loading and extension checks,
    /// judged by the parent) and the prepared call's frames: each round
    /// trips, and a count over its cap is refused before anything is read
    /// for it.
    @Test func abiFactsAndPreparedCallFramesRoundTripAndCountsAreCapped() throws {
        let request = ValidationFrame.abiFacts(.init(sequence: 3, script: [.init(.rendererCount), .init(.rendererAt, 7), .init(.initialize), .init(.deinitialize)],
                                                       extensionIDs: [Array("org.test/1".utf8), [], [0xFF, 0xFE]],
                                                       symbols: [Array("sin".utf8), Array("memcpy".utf8)]))
        let reply = ValidationFrame.abiFactsDone(.init(
            sequence: 3, loadNanoseconds: 1_234_567, abiVersion: ABIVersion.host.packed, entryStructSize: 48,
            observations: [.init(step: .init(.rendererCount), value: 1),
                           .init(step: .init(.rendererAt, 7), value: 1, pointer: 0x7f00_0000_1000, structSize: 96, digest: 0xDEAD_BEEF),
                           .init(step: .init(.initialize), value: ValidationFrame.ABIObservation.missing),
                           .init(step: .init(.deinitialize), value: 0)],
            extensions: [[true, false, false]],
            symbols: [.init(inScope: false, provider: Array("/usr/lib/x86_64-linux-gnu/libm.so.6".utf8)), .init(inScope: true, provider: [])],
            entry: .init(first: 0x7f00_0000_2000, again: 0x7f00_0000_2400, provider: Array("/opt/plugins/libx.so".utf8), countBeforeInit: 1)))
        let prepared = ValidationFrame.preparedLayout(
            .init(sequence: 9, renderer: 0, generation: 2, complicationsBytes: 0, callBytes: 64),
            .init(capacity: 64, stride: 184, guardBytes: 8192, environmentSize: 136))
        var withoutEntry = reply
        if case .abiFactsDone(var facts) = reply { facts.entry = nil; withoutEntry = .abiFactsDone(facts) }
        for frame in [request, reply, withoutEntry, prepared, .callPrepared(sequence: 9), .inputsReady(sequence: 9, bytes: 4096)] {
            let payload = carried(frame)
            #expect(try decode(payload) == frame)
            #expect(throws: SandboxProtocolError.self) { try decode(Array(payload.dropLast())) }
        }
        // A script of more steps than the cap: refused at its count.
        var tooLong = [UInt8(3), 3, 0, 0, 0]
        let steps = UInt32(ValidationFrame.maxABISteps + 1)
        tooLong += [UInt8(steps & 0xFF), UInt8(steps >> 8 & 0xFF), 0, 0]
        #expect(throws: SandboxProtocolError.self) { try decode(tooLong) }
        // Symbol names past their bytes' cap: refused while they are read.
        let half = [UInt8](repeating: UInt8(ascii: "s"), count: ValidationFrame.maxSymbolBytes / 2 + 1)
        #expect(throws: SandboxProtocolError.self) {
            try decode(carried(.abiFacts(.init(sequence: 4, script: [], extensionIDs: [], symbols: [half, half]))))
        }
        // An unknown ABI call in a script.
        #expect(throws: SandboxProtocolError.self) { try decode([3, 3, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0]) }
        // A layout request is no validation frame; an unknown kind is refused by the channel.
        #expect(try decode(Array(RendererHostFrame.layout(.init(sequence: 1, renderer: 0, generation: 1, complicationsBytes: 0, callBytes: 0)).encoded.dropFirst(4))) == nil)
        #expect(throws: SandboxProtocolError.self) { try decode([6, 0, 0, 0, 0]) }
    }

    @Test func rawCallsMustFitTheRegionWithAStrideARendererMayBeGiven() {
        // A raw call's buffer never reaches a prepared call's inputs.
        #expect(SharedLayoutArea.rawOffset + SharedLayoutArea.rawCapacity <= SharedLayoutArea.preparedInputsOffset)
        #expect(SharedLayoutArea.preparedInputsOffset + SharedLayoutArea.preparedInputsCapacity == SharedLayoutArea.size)
        #expect(SharedLayoutArea.rawCallFits(capacity: ABILimits.maxNodes, stride: 184, guardBytes: 8192))
        #expect(SharedLayoutArea.rawCallFits(capacity: 0, stride: 168, guardBytes: 0))
        #expect(!SharedLayoutArea.rawCallFits(capacity: ABILimits.maxNodes + 1, stride: 184, guardBytes: 8192))
        #expect(!SharedLayoutArea.rawCallFits(capacity: 1, stride: 160, guardBytes: 8192), "below the 1.0 node")
        #expect(!SharedLayoutArea.rawCallFits(capacity: 1, stride: 188, guardBytes: 8192), "unaligned stride")
        #expect(!SharedLayoutArea.rawCallFits(capacity: 1, stride: 184, guardBytes: 8200), "unaligned guard")
        // The largest request the limits allow still lies inside the region.
        #expect(SharedLayoutArea.rawCallFits(capacity: ABILimits.maxNodes, stride: 4096, guardBytes: 1 << 20))
        #expect(SharedLayoutArea.rawOffset + 2 * (1 << 20) + ABILimits.maxNodes * 4096 <= SharedLayoutArea.size)
        #expect(!SharedLayoutArea.rawCallFits(capacity: 1, stride: 4104, guardBytes: 8192), "stride over 4096")
        #expect(!SharedLayoutArea.rawCallFits(capacity: 1, stride: 184, guardBytes: (1 << 20) + 16), "guard over 1 MiB")
        #expect(!SharedLayoutArea.rawCallFits(capacity: -1, stride: 184, guardBytes: 0))
    }

    @Test func theHostRefusesARawCallThatDoesNotFitBeforeStartingAChild() throws {
        let info = RendererInfo(id: "org.test.raw", name: "Raw", version: "1.0.0", vendor: "Tests", summary: "",
                                supportedPositions: Set(Position.allCases), capabilities: [], abiVersion: .host,
                                origin: .file("/nonexistent/raw.so"))
        let host = RendererHost(path: "/nonexistent/raw.so", renderers: [info], settings: RendererHostSettings())
        let snapshot = try ComplicationsSnapshot(HudPhoneComplications())
        #expect(throws: RegistryError.self) {
            try host.rawCall(renderer: 0, snapshot, environment: HudEnvironment(screenSize: HudSize(width: 390, height: 844), safeArea: HudInsets()), interaction: HudInteraction(),
                             buffer: .init(capacity: UInt32(ABILimits.maxNodes + 1), stride: 184, guardBytes: 8192,
                                           environmentSize: UInt32(SharedLayoutArea.hostEnvironmentSize)),
                             guardPattern: 0xA5, fill: 0)
        }
        #expect(host.starts == 0)
        #expect(!host.isRunning)
    }

    /// `validate`'s thread-safety check (kinds 20 and 30): both frames
    /// round-trip, and a request whose threads, calls, inputs or slots are
    /// out of bounds is a protocol error before anything is run.
    @Test func aConcurrentRequestRoundTripsAndOneOutOfBoundsIsRefused() throws {
        typealias Request = ValidationFrame.ConcurrentRequest
        let inputs = [ValidationFrame.ConcurrentInput(complicationsBytes: 300, callBytes: 90),
                      ValidationFrame.ConcurrentInput(complicationsBytes: 280, callBytes: 92)]
        let request = ValidationFrame.concurrentLayout(Request(sequence: 3, renderer: 0, threads: 8, callsPerThread: 8, capacity: 64, inputs: inputs))
        let payload = carried(request)
        #expect(payload.first == 20)
        #expect(try decode(payload) == request)
        #expect(throws: SandboxProtocolError.self) { try decode(Array(payload.dropLast())) }
        for (threads, calls, capacity, count) in [(0, 1, 64, 1), (17, 1, 64, 1), (8, 17, 64, 1), (8, 8, 64, 0), (8, 8, 64, 17),
                                                  (8, 8, 0, 1), (8, 8, ABILimits.maxNodes, 1)] {
            let bad = Request(sequence: 1, renderer: 0, threads: UInt32(threads), callsPerThread: UInt32(calls), capacity: UInt32(capacity),
                              inputs: Array(repeating: inputs[0], count: count))
            #expect(throws: SandboxProtocolError.self, "\(threads)×\(calls), \(capacity) nodes, \(count) inputs") {
                try decode(carried(.concurrentLayout(bad)))
            }
        }
        let reply = RendererHostFrame.LayoutReply(sequence: 3, status: 0, count: 9, capacity: 64, violations: 0, stringBytes: 120,
                                                  insets: HudInsets(), hiddenPositions: 0)
        let done = ValidationFrame.concurrentDone(sequence: 3, slots: Array(repeating: reply, count: SharedLayoutArea.maxConcurrentSlots))
        let donePayload = carried(done)
        #expect(donePayload.first == 30)
        #expect(donePayload.count <= RendererHostFrame.maxPayload)
        #expect(try decode(donePayload) == done)
        let tooMany = ValidationFrame.concurrentDone(sequence: 3, slots: Array(repeating: reply, count: SharedLayoutArea.maxConcurrentSlots + 1))
        #expect(throws: SandboxProtocolError.self) { try decode(carried(tooMany)) }
    }

    /// Every concurrent slot the bounds allow lies inside the region, after the strings area.
    @Test func concurrentSlotsLieInsideTheRegion() {
        #expect(SharedLayoutArea.concurrentOffset >= SharedLayoutArea.stringsOffset + SharedLayoutArea.stringsCapacity)
        #expect(SharedLayoutArea.concurrentFits(slots: SharedLayoutArea.maxConcurrentSlots, capacity: 64))
        #expect(!SharedLayoutArea.concurrentFits(slots: SharedLayoutArea.maxConcurrentSlots + 1, capacity: 64))
        #expect(!SharedLayoutArea.concurrentFits(slots: 1, capacity: 0))
        for capacity in [1, 64, 200, 1000] {
            var slots = SharedLayoutArea.maxConcurrentSlots
            while slots > 0, !SharedLayoutArea.concurrentFits(slots: slots, capacity: capacity) { slots -= 1 }
            guard slots > 0 else { continue }
            let last = SharedLayoutArea.concurrentSlot(slots - 1, capacity: capacity)
            #expect(last.strings + SharedLayoutArea.concurrentStringBytes <= SharedLayoutArea.size, "\(slots) slots of \(capacity) nodes")
        }
    }
}
