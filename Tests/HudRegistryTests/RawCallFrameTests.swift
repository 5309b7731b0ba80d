// SPDX-License-Identifier: MIT
import Testing
@testable import HudRegistry
@testable import HudUnsafe
import HudModel

/// The renderer host's raw call (`validate`'s buffer checks, judged by the
/// parent): the request's wire form and the bounds both sides hold it to,
/// so a request can never point a renderer outside the shared region.
struct RawCallFrameTests {
    @Test func aRawLayoutRequestRoundTripsAndATruncatedOneIsRefused() throws {
        let frame = RendererHostFrame.rawLayout(
            .init(sequence: 7, renderer: 1, generation: 42, complicationsBytes: 100, callBytes: 64),
            .init(capacity: 3, stride: 184, guardBytes: 8192, environmentSize: UInt32(SharedLayoutArea.hostEnvironmentSize)))
        let payload = Array(frame.encoded.dropFirst(4))
        #expect(try RendererHostFrame(payload: payload) == frame)
        #expect(throws: SandboxProtocolError.self) { try RendererHostFrame(payload: Array(payload.dropLast())) }
        #expect(throws: SandboxProtocolError.self) { try RendererHostFrame(payload: payload + [0]) }
    }

    @Test func rawCallsMustFitTheRegionWithAStrideARendererMayBeGiven() {
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
}
