// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing
import HudRegistry
import HudScenes
import HudPresentation
import HudSystem

/// The C fixture plugins in `Tests/Fixtures/plugins`, by file name.
/// `good_*` are correct plugins; every other one breaks exactly one rule.
package enum Fixture: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case goodSimple = "good_simple"
    case goodManyNodes = "good_many_nodes"
    case missingEntry = "missing_entry"
    case wrongMajor = "wrong_major"
    case smallEntry = "small_entry"
    case smallDescriptor = "small_descriptor"
    case invalidID = "invalid_id"
    case duplicateID = "duplicate_id"
    case nanFrame = "nan_frame"
    case countOverCapacity = "count_over_capacity"
    case initFails = "init_fails"
    case nullLayout = "null_layout"
    case badUTF8Label = "bad_utf8_label"
    case layoutFails = "layout_fails"
    case callsActionInLayout = "calls_action_in_layout"
    case titleLabel = "title_label"
    case crashOnTitle = "crash_on_title"
    case readsFile = "reads_file"

    /// The file name of the compiled plugin.
    package var fileName: String { rawValue + ".so" }

    package var testDescription: String { rawValue }
}

/// What a finished subprocess left behind.
package struct ProcessOutput: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    /// The process's id (0 when not known).
    package var pid: Int32

    package init(status: Int32, stdout: String, stderr: String, pid: Int32 = 0) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.pid = pid
    }

    /// Everything it said, for failure messages.
    package var transcript: String { "exit status \(status)\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)" }
}

/// A fixture (or test program) that did not compile; the test fails with
/// the compiler's own diagnostics.
package struct FixtureBuildError: Error, CustomStringConvertible {
    package var command: [String]
    package var output: ProcessOutput

    package init(command: [String], output: ProcessOutput) {
        self.command = command
        self.output = output
    }

    package var description: String { "compilation failed: \(command.joined(separator: " "))\n\(output.transcript)" }
}

/// Builds the fixture plugins with the system `cc` at test time, once per
/// test process, into a private directory made with `mkdtemp` under /tmp,
/// and runs other tools (cc, c++, compiled probes) as real subprocesses.
///
/// Tests run in parallel: the cache is behind a `Mutex`, and a fixture is
/// compiled while holding it, so each `.so` is built exactly once.
package enum FixturePlugins {
    /// The package root, found from this file's path
    /// (`<root>/Tests/HudTestSupport/FixturePlugins.swift`).
    package static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The SDK include directory: the umbrella `hud_renderer.h` and its
    /// topic headers (`hudhost sdk --include-dir` of a source checkout).
    package static var headerDirectory: String { repositoryRoot + "/Sources/HudRendererAPI/include/hud" }

    /// The directory holding the fixture sources and `fixture_common.h`.
    package static var sourceDirectory: String { repositoryRoot + "/Tests/Fixtures/plugins" }

    /// The flags every fixture must compile with.
    package static let pluginFlags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-shared", "-fPIC"]

    /// This test process's private directory (canonical path, so it compares
    /// equal to the registry's `realpath`-resolved origins). Removed at exit.
    package static let workDirectory: String = {
        var template = Array("/tmp/hud-fixtures.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { fatalError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        atexit { try? FileManager.default.removeItem(atPath: FixturePlugins.workDirectory) }
        return canonical(path)
    }()

    /// The directory `swift build` put the products in: the test bundle's
    /// own directory (read from /proc/self/exe).
    package static var binDirectory: String {
        URL(fileURLWithPath: canonical("/proc/self/exe")).deletingLastPathComponent().path
    }

    private static let built = Mutex<[Fixture: Result<String, FixtureBuildError>]>([:])

    /// The path of `fixture` compiled into a shared object (built on first use).
    package static func path(of fixture: Fixture) throws -> String {
        try built.withLock { cache throws(FixtureBuildError) -> String in
            if let result = cache[fixture] { return try result.get() }
            let result = Result { () throws(FixtureBuildError) -> String in try compile(fixture) }
            cache[fixture] = result
            return try result.get()
        }
    }

    /// The path of the fixture whose file is `name` (`good_simple`, ...).
    package static func path(named name: String) throws -> String {
        guard let fixture = Fixture(rawValue: name) else {
            throw FixtureBuildError(command: [], output: ProcessOutput(status: -1, stdout: "", stderr: "no fixture named \(name)"))
        }
        return try path(of: fixture)
    }

    private static func compile(_ fixture: Fixture) throws(FixtureBuildError) -> String {
        let output = workDirectory + "/" + fixture.fileName
        let command = ["cc"] + pluginFlags + ["-I", headerDirectory, "-o", output, sourceDirectory + "/" + fixture.rawValue + ".c"]
        try compileCommand(command)
        return output
    }

    /// Runs a compiler command line and throws its diagnostics if it fails.
    package static func compileCommand(_ command: [String]) throws(FixtureBuildError) {
        let result: ProcessOutput
        do {
            result = try run(command)
        } catch {
            throw FixtureBuildError(command: command, output: ProcessOutput(status: -1, stdout: "", stderr: "\(error)"))
        }
        guard result.status == 0 else { throw FixtureBuildError(command: command, output: result) }
    }

    /// `compileCommand`, waited for off Swift's cooperative pool (`run(_:) async`).
    package static func compileCommand(_ command: [String]) async throws(FixtureBuildError) {
        let result: ProcessOutput
        do {
            result = try await run(command)
        } catch {
            throw FixtureBuildError(command: command, output: ProcessOutput(status: -1, stdout: "", stderr: "\(error)"))
        }
        guard result.status == 0 else { throw FixtureBuildError(command: command, output: result) }
    }

    /// A fresh, empty directory inside the work directory (for one test).
    package static func makeScratchDirectory(_ label: String) throws -> String {
        var template = Array((workDirectory + "/\(label).XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Runs `command` (the first element is looked up in PATH) as a child
    /// process and waits for it. Output goes through files, so a chatty
    /// child can never fill a pipe and deadlock. The wait is `wait4` on the
    /// child's own pid: Foundation's `Process` learns of an exit from a
    /// socket the child holds, which any process spawned meanwhile by
    /// another test (a long-running `hudhost preview`) can inherit and
    /// keep open, and then `waitUntilExit` waited as long as that one ran.
    /// A signal's number is the status, as `Process.terminationStatus` has it.
    package static func run(_ command: [String]) throws -> ProcessOutput {
        let stem = workDirectory + "/process-" + UUID().uuidString
        let outPath = stem + ".out", errPath = stem + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        var request = SpawnRequest(executable: "/usr/bin/env", arguments: command)
        request.redirections = [.open(descriptor: 0, path: "/dev/null", mode: .read), .open(descriptor: 1, path: outPath, mode: .truncate),
                                .open(descriptor: 2, path: errPath, mode: .truncate)]
        let pid: Int32
        switch SystemCalls.spawn(request) {
        case .success(let started): pid = started
        case .failure(let error): throw POSIXError(POSIXErrorCode(rawValue: error.code) ?? .EIO)
        }
        guard let ended = SystemCalls.wait(pid) else { throw POSIXError(.ECHILD) }
        let status: Int32 = switch ended.status {
        case .exited(let code): code
        case .signaled(let signal): signal
        }
        return ProcessOutput(
            status: status,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            pid: pid
        )
    }

    /// How many children `run(_:) async` lets run at once: two per core
    /// (on the 2-core VM the whole suite took 61 s with four, 64 s with
    /// six and 69 s with three; Docs/RELIABILITY.md).
    private static let runSlots = DispatchSemaphore(value: 2 * ProcessInfo.processInfo.activeProcessorCount)

    /// `run`, waited for on a Dispatch thread instead of one of the few
    /// threads of Swift's cooperative pool (one per core): while an async
    /// test waits for its child, the pool runs other tests (a sync test
    /// blocks its thread until the child ends). At most `runSlots` such
    /// children run at once, so the suite loads the machine as a few
    /// parallel runs would, never as a hundred.
    package static func run(_ command: [String]) async throws -> ProcessOutput {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                runSlots.wait()
                defer { runSlots.signal() }
                continuation.resume(with: Result { try run(command) })
            }
        }
    }

    /// `realpath(path)`, or `path` itself if it cannot be resolved.
    package static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
