// SPDX-License-Identifier: MIT
import Glibc
import Testing
import HudModel
@testable import HudRegistry
import HudTestSupport

/// The sandboxed child's side of a scan, spoken to as the host speaks to
/// it: the real `hudsandbox` started with the scan requests, its one frame
/// per file read from the result channel. (What the sandbox keeps a plugin
/// from doing is IsolationTests'; the renderer host's serve loop is driven
/// by every out-of-process test.)
struct SandboxChildTests {
    static var helper: String { FixturePlugins.binDirectory + "/hudsandbox" }

    /// The ids a scan reply names, or the failure code it reports.
    static func ids(_ outcome: SandboxScanner.ScanOutcome) -> [String] {
        switch outcome {
        case .renderers(let infos): infos.map(\.id)
        case .failed(let code, _): ["failed: \(code.rawValue)"]
        }
    }

    /// The one reply line decoded.
    static func decoded(_ line: String?, path: String) throws -> (outcome: SandboxScanner.ScanOutcome, loaded: FileStamp?) {
        let line = try #require(line, "the child wrote no result")
        return try #require(ScanReply.decode(line, path: path), "not a scan reply: \(line)")
    }

    /// The renderers of the file it loaded, and the stamp of the very file
    /// it opened (which the host's cache keys the record to).
    @Test func aScanChildAnswersWithTheRenderersAndTheStampOfTheFileItOpened() throws {
        let path = try FixturePlugins.path(of: .goodSimple)
        let request = SandboxRequest.scan(path: path, allowInsecurePath: false)
        let (line, outcome) = SandboxProcess.reply(executable: Self.helper, arguments: request.arguments, timeoutSeconds: 30)
        #expect(outcome.termination == .exited(0))
        let reply = try Self.decoded(line, path: path)
        #expect(Self.ids(reply.outcome) == ["org.fixture.simple", "org.fixture.simple-alt"])
        #expect(reply.loaded != nil)
        #expect(reply.loaded == FileStamp.of(path))
    }

    /// A file others may write is refused before anything is loaded (no
    /// stamp: nothing was opened), unless the request allows it.
    @Test func aFileOthersMayWriteIsRefusedBeforeItIsOpened() throws {
        let directory = try FixturePlugins.makeScratchDirectory("child-insecure")
        let path = directory + "/writable.so"
        try FixturePlugins.compileCommand(["cp", try FixturePlugins.path(of: .goodSimple), path])
        try #require(chmod(path, 0o666) == 0)
        for allowed in [false, true] {
            let request = SandboxRequest.scan(path: path, allowInsecurePath: allowed)
            let (line, outcome) = SandboxProcess.reply(executable: Self.helper, arguments: request.arguments, timeoutSeconds: 30)
            #expect(outcome.termination == .exited(0))
            let reply = try Self.decoded(line, path: path)
            #expect(Self.ids(reply.outcome) == (allowed ? ["org.fixture.simple", "org.fixture.simple-alt"] : ["failed: insecure-path"]))
            #expect((reply.loaded != nil) == allowed)
        }
    }

    /// A batch child loads each file only when asked, and answers under the
    /// token of that turn; asked for no more, it ends.
    @Test func aBatchChildAnswersEachTurnItIsAskedUnderThatTurnsToken() throws {
        let paths = [try FixturePlugins.path(of: .goodSimple), try FixturePlugins.path(of: .titleLabel)]
        var tokens = [BatchTurn.newToken()]
        let input = SandboxInput(first: BatchTurn.request(tokens[0]))
        var answers: [(token: String, ids: [String])] = []
        let request = SandboxRequest.scanBatch(paths: paths, allowInsecurePath: false)
        let outcome = SandboxProcess.run(executable: Self.helper, arguments: request.arguments, timeoutSeconds: 30, input: input) { frame in
            guard let answer = BatchTurn.decode(frame) else {
                input.stopReason = "not a turn's answer: \(frame)"
                return .none
            }
            answers.append((answer.token, Self.ids(ScanReply.decode(answer.reply, path: paths[answers.count]).outcome)))
            if answers.count < paths.count {
                tokens.append(BatchTurn.newToken())
                input.send(BatchTurn.request(tokens[answers.count]))
            }
            return .progress
        }
        #expect(outcome.termination == .exited(0))
        #expect(answers.map(\.token) == tokens)
        #expect(answers.count == 2)
        #expect(answers.first?.ids == ["org.fixture.simple", "org.fixture.simple-alt"])
        #expect(answers.last?.ids == ["org.fixture.title-label"])
    }

    /// A request line that is not `go` and a 16-digit token ends the child
    /// without an answer: nothing is loaded on a malformed turn.
    @Test func aMalformedTurnEndsTheBatchChildWithoutAnAnswer() throws {
        let path = try FixturePlugins.path(of: .goodSimple)
        let input = SandboxInput(first: "go not-a-token\n")
        var frames = 0
        let request = SandboxRequest.scanBatch(paths: [path], allowInsecurePath: false)
        let outcome = SandboxProcess.run(executable: Self.helper, arguments: request.arguments, timeoutSeconds: 30, input: input) { _ in
            frames += 1
            return .none
        }
        #expect(outcome.termination == .exited(0))
        #expect(frames == 0)
    }
}
