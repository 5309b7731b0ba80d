// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// Inputs the libFuzzer targets (`Fuzz/`, Docs/RELIABILITY.md) once crashed
/// on, replayed through the very code the fuzzers run (`FuzzHarness`). A
/// finding is saved as `Tests/Fixtures/fuzz/<target>/<what-it-broke>` and
/// fixed; if the bug comes back, this test traps or fails.
struct FuzzRegressionTests {
    static let directory = FixturePlugins.repositoryRoot + "/Tests/Fixtures/fuzz"

    /// Every saved input, as (target, file name).
    static var savedInputs: [(String, String)] {
        FuzzHarness.targets.flatMap { target in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + target)) ?? []).sorted().map { (target, $0) }
        }
    }

    @Test(arguments: savedInputs.map { "\($0.0)/\($0.1)" })
    func savedFuzzFindingsStayFixed(_ input: String) throws {
        let target = String(input.prefix { $0 != "/" })
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.directory + "/" + input)))
        #expect(throws: Never.self) { try FuzzHarness.run(target, bytes) }
    }

    /// The cache target's seeds are in the writer's exact form: the fast
    /// reader takes each one keyed for the fuzzer (so fuzzing starts at
    /// inputs that reach its C scanning) and the general parser agrees.
    @Test(arguments: ["empty.json", "two.json", "failed.json"])
    func theCacheSeedsReachTheFastReader(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: FixturePlugins.repositoryRoot + "/Fuzz/corpus/cache/" + name)))
        var reader = RegistryCacheFormat.FastReader(bytes)
        #expect(reader.records(key: FuzzHarness.cacheKey) != nil)
        #expect(throws: Never.self) { try FuzzHarness.cache(bytes) }
    }

    @Test func everyFindingDirectoryNamesATarget() throws {
        let directories = try FileManager.default.contentsOfDirectory(atPath: Self.directory)
        #expect(Set(directories).isSubset(of: FuzzHarness.targets), "\(directories)")
        #expect(!Self.savedInputs.isEmpty)
    }

    /// layout/svg-subnormal-font-size.bin: a node with a subnormal
    /// font_size (valid: finite and >= 0) made SvgPresenter.truncate divide
    /// by zero and trap converting infinity to Int.
    @Test(arguments: [Double.leastNonzeroMagnitude, Double.leastNormalMagnitude / 1024, 1e-300])
    func svgTruncationSurvivesTinyFontSizes(fontSize: Double) {
        #expect(SvgPresenter.truncate("Compose", width: 100, fontSize: fontSize) == "Compose")
        _ = SvgPresenter.truncate("Compose", width: 0, fontSize: fontSize)  // 0 / 0: must not trap
        #expect(SvgPresenter.truncate("Compose", width: 1e7, fontSize: 1e-7) == "Compose")
        #expect(SvgPresenter.truncate("Compose", width: -1e7, fontSize: 1e-300) == "")
    }
}
