// SPDX-License-Identifier: MIT
import HudRegistry
import HudScenes
import Glibc
import HudSystem

/// Nanoseconds on CLOCK_MONOTONIC.
@inline(__always)
func monotonicNanoseconds() -> UInt64 { SystemCalls.monotonicNanoseconds() }

/// Distribution of one scenario, in nanoseconds per operation.
struct Stats {
    var median: Double
    var p10: Double
    var p90: Double
    var p99: Double
    /// Samples taken after warm-up.
    var samples: Int
    /// Operations timed together per sample (short operations are batched so
    /// the ~20 ns clock read stays under a few percent of a sample).
    var batch: Int
}

/// How long scenarios run.
struct MeasureConfig {
    var warmupSamples: Int
    var samples: Int
    /// A sample should last at least this long; shorter operations are batched.
    var targetSampleNanoseconds: UInt64

    static let full = MeasureConfig(warmupSamples: 1_000, samples: 10_000, targetSampleNanoseconds: 2_000)
    static let quick = MeasureConfig(warmupSamples: 100, samples: 600, targetSampleNanoseconds: 2_000)
}

/// Runs an operation many times after warm-up and summarizes the per-operation
/// time. The sample storage is allocated once, up front: the timed loop
/// itself allocates nothing (only the measured operation may).
final class Sampler {
    let config: MeasureConfig
    private var a: [Double]
    private var b: [Double]

    init(_ config: MeasureConfig) {
        self.config = config
        a = [Double](repeating: 0, count: max(config.samples, 1))
        b = [Double](repeating: 0, count: max(config.samples, 1))
    }

    /// Per-operation statistics of `body`.
    func measure(_ body: () -> Void) -> Stats {
        let batch = calibrate(body)
        for _ in 0..<config.warmupSamples { sample(batch, body) }
        for index in 0..<config.samples { a[index] = sample(batch, body) }
        return Self.summarize(a, count: config.samples, batch: batch)
    }

    /// Two operations measured in alternation (A, B, A, B…) with the same
    /// batch size, so drift and noise on this shared machine hit both alike;
    /// used where the result is a ratio.
    func measurePair(_ first: () -> Void, _ second: () -> Void) -> (Stats, Stats) {
        let batch = max(calibrate(first), calibrate(second))
        for _ in 0..<config.warmupSamples {
            sample(batch, first)
            sample(batch, second)
        }
        for index in 0..<config.samples {
            a[index] = sample(batch, first)
            b[index] = sample(batch, second)
        }
        return (Self.summarize(a, count: config.samples, batch: batch), Self.summarize(b, count: config.samples, batch: batch))
    }

    /// Measures an operation that needs a setup/teardown step outside the
    /// clock (e.g. creating thunks, then retiring them): `body(batch)` returns
    /// the nanoseconds it timed for `batch` operations.
    func measureTimed(batch: Int, _ body: (Int) -> UInt64) -> Stats {
        for _ in 0..<config.warmupSamples { _ = body(batch) }
        for index in 0..<config.samples { a[index] = Double(body(batch)) / Double(batch) }
        return Self.summarize(a, count: config.samples, batch: batch)
    }

    @inline(__always) @discardableResult
    private func sample(_ batch: Int, _ body: () -> Void) -> Double {
        let start = monotonicNanoseconds()
        for _ in 0..<batch { body() }
        return Double(monotonicNanoseconds() &- start) / Double(batch)
    }

    /// The smallest power-of-two batch whose run lasts the target time,
    /// found after a short warm-up (a cold first call would pick 1).
    private func calibrate(_ body: () -> Void) -> Int {
        for _ in 0..<64 { body() }
        var batch = 1
        while batch < 1 << 20 {
            let start = monotonicNanoseconds()
            for _ in 0..<batch { body() }
            if monotonicNanoseconds() &- start >= config.targetSampleNanoseconds { break }
            batch *= 2
        }
        return batch
    }

    private static func summarize(_ values: [Double], count: Int, batch: Int) -> Stats {
        let slice = values[0..<count].sorted()
        func percentile(_ p: Double) -> Double {
            guard count > 0 else { return .nan }
            let rank = p * Double(count - 1)
            let low = Int(rank.rounded(.down)), high = min(low + 1, count - 1)
            return slice[low] + (slice[high] - slice[low]) * (rank - Double(low))
        }
        return Stats(median: percentile(0.5), p10: percentile(0.1), p90: percentile(0.9), p99: percentile(0.99),
                     samples: count, batch: batch)
    }
}
