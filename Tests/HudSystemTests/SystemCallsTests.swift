// SPDX-License-Identifier: MIT
import Glibc
import Testing
import HudSystem

/// The libc layer the host stands on, against the real kernel: files are
/// replaced whole or not at all, only regular files are opened as plugins
/// or caches (a FIFO is refused without blocking), reads keep to their
/// limits and to `O_NOFOLLOW`, a directory is listed in order with each
/// entry's own status, and a child's exit or signal is reported as it was.
struct SystemCallsTests {
    /// A private directory of this test's own, removed with what it holds.
    private static func withScratch(_ body: (String) throws -> Void) throws {
        let directory = try SystemCalls.makePrivateDirectory(in: "/tmp", prefix: "hud-system-test-").get()
        defer { _ = SystemCalls.spawnAndWait(["/bin/rm", "-rf", directory]) }
        try body(directory)
    }

    private static func names(in directory: String) throws -> [String] {
        try SystemCalls.directoryEntries(directory).get().map(\.name).filter { $0 != "." && $0 != ".." }.sorted()
    }

    @Test func aPrivateDirectoryIsForThisUserAlone() throws {
        try Self.withScratch { directory in
            let status = try SystemCalls.status(of: directory).get()
            #expect(status.isDirectory && status.permissions == 0o700)
        }
    }

    @Test func anAtomicWriteReplacesTheWholeFileWithItsModeAndLeavesNoTemporaryFile() throws {
        try Self.withScratch { directory in
            let path = directory + "/cache.json"
            try SystemCalls.writeFile(path, Array("the old contents, longer than the new".utf8)).get()
            try SystemCalls.writeAtomically(path, Array("new".utf8), mode: 0o640).get()
            #expect(try SystemCalls.readFile(path).get() == Array("new".utf8))
            #expect(try SystemCalls.status(of: path).get().permissions == 0o640)
            #expect(try Self.names(in: directory) == ["cache.json"])
        }
    }

    @Test func anAtomicWriteThatCannotStartNamesTheStepAndThePath() throws {
        try Self.withScratch { directory in
            let path = directory + "/missing/cache.json"
            guard case .failure(let error) = SystemCalls.writeAtomically(path, [1, 2, 3], mode: 0o644) else {
                Issue.record("a write into a missing directory succeeded")
                return
            }
            #expect(error.step == "create a temporary file for" && error.path == path && error.error.code == ENOENT)
            #expect(error.description == "cannot create a temporary file for \(path): No such file or directory")
        }
    }

    /// A FIFO with no writer would block a plain `open` for ever; a
    /// directory opens fine and fails only at the first read.
    @Test func onlyARegularFileOpensAsOneAndAFIFOIsRefusedWithoutBlocking() throws {
        try Self.withScratch { directory in
            let fifo = directory + "/libfifo.so"
            #expect(mkfifo(fifo, 0o600) == 0)
            #expect(ReadOnlyFile.openRegular(fifo).failureValue == .notRegular(kind: "a FIFO (named pipe)"))
            #expect(ReadOnlyFile.openRegular(directory).failureValue == .notRegular(kind: "a directory"))
            #expect(ReadOnlyFile.openRegular(directory + "/absent.so").failureValue == .system(SystemError(code: ENOENT)))
            #expect(ReadOnlyFile.openRegular(fifo).failureValue?.description == "it is a FIFO (named pipe), not a regular file")
            let file = directory + "/libplain.so"
            try SystemCalls.writeFile(file, [0x7F, 0x45, 0x4C, 0x46]).get()
            let opened = try ReadOnlyFile.openRegular(file).get()
            #expect(try opened.read(at: 1, count: 3).get() == Array("ELF".utf8))
        }
    }

    @Test func aReadKeepsToItsLimitAndNoFollowRefusesASymlink() throws {
        try Self.withScratch { directory in
            let path = directory + "/data"
            let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try SystemCalls.writeFile(path, bytes).get()
            #expect(try SystemCalls.readFile(path, limit: bytes.count).get() == bytes)
            #expect(SystemCalls.readFile(path, limit: bytes.count - 1).failureValue == SystemError(code: EFBIG))
            let file = try ReadOnlyFile.open(path).get()
            #expect(try file.readToEnd(limit: 10, truncating: true).get() == Array(bytes[..<10]))

            let link = directory + "/link"
            #expect(symlink(path, link) == 0)
            #expect(try SystemCalls.readFile(link).get() == bytes)
            #expect(SystemCalls.readFile(link, noFollow: true).failureValue == SystemError(code: ELOOP))
        }
    }

    /// `hudhost list` walks plugin directories with this: names in byte
    /// order, only the suffix asked for, and each entry's status as it is
    /// in that directory (a symlink is reported as one, not followed).
    @Test func aDirectoryIsListedInOrderWithEachEntrysOwnStatus() throws {
        try Self.withScratch { directory in
            for name in ["libb.so", "liba.so", "notes.txt", "libB.so"] { try SystemCalls.writeFile(directory + "/" + name, [1]).get() }
            #expect(symlink(directory + "/liba.so", directory + "/libc.so") == 0)
            let listed = try SystemCalls.sortedDirectoryFilesWithStatus(directory, suffix: ".so", prefixing: "dir/").get()
            #expect(listed.paths == ["dir/libB.so", "dir/liba.so", "dir/libb.so", "dir/libc.so"])
            #expect(listed.statuses.map { $0?.isRegularFile } == [true, true, true, false])
            #expect(listed.statuses.last??.isSymbolicLink == true)
            #expect(try SystemCalls.sortedDirectoryFiles(directory, suffix: ".txt", prefixing: "").get() == ["notes.txt"])
            #expect(SystemCalls.sortedDirectoryFiles(directory + "/absent", suffix: ".so", prefixing: "").failureValue == SystemError(code: ENOENT))
        }
    }

    @Test func aChildsExitCodeAndSignalAreReportedAsTheyWere() throws {
        #expect(SystemCalls.spawnAndWait(["/bin/sh", "-c", "exit 3"]) == .exited(3))
        #expect(SystemCalls.spawnAndWait(["/bin/sh", "-c", "kill -KILL $$"]) == .signaled(SIGKILL))
        #expect(SystemCalls.spawn(SpawnRequest(executable: "/nonexistent/tool", arguments: [])).failureValue == SystemError(code: ENOENT))
    }

    /// A descriptor this process holds without O_CLOEXEC (another thread's
    /// file being written) never reaches a child: only 0–2 and what the
    /// request redirects do.
    @Test func aChildGetsOnlyTheDescriptorsItIsGiven() throws {
        try Self.withScratch { directory in
            let file = open(directory + "/being-written", O_WRONLY | O_CREAT, 0o600)
            defer { close(file) }
            // Above the 4 the child is given, whatever else this process has open.
            let stray = fcntl(file, F_DUPFD, 5)
            try #require(stray > 4)
            defer { close(stray) }
            let path = directory + "/out"
            var request = SpawnRequest(executable: "/bin/sh", arguments: ["-c", "for fd in 0 1 2 4 \(stray); do [ -e /proc/$$/fd/$fd ] && echo $fd; done; true"])
            request.redirections = [.open(descriptor: 1, path: path, mode: .truncate), .duplicate(from: 1, to: 4)]
            let pid = try SystemCalls.spawn(request).get()
            #expect(SystemCalls.wait(pid)?.status == .exited(0))
            #expect(try SystemCalls.readFile(path).get() == Array("0\n1\n2\n4\n".utf8))
        }
    }

    /// Nor one numbered between the descriptors it is given (a scan child
    /// gets 3 and 5, not 4): what sits in such a gap is closed too.
    @Test func aDescriptorBetweenTheGivenOnesDoesNotReachAChild() throws {
        try Self.withScratch { directory in
            let file = open(directory + "/being-written", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            defer { close(file) }
            let stray = fcntl(file, F_DUPFD, 150)
            try #require(stray >= 150)
            defer { close(stray) }
            // The child is given one above the stray, which leaves the stray in a gap.
            let given = stray + 1
            let path = directory + "/out"
            var request = SpawnRequest(executable: "/bin/sh", arguments: ["-c", "for fd in \(stray) \(given); do [ -e /proc/$$/fd/$fd ] && echo $fd; done; true"])
            request.redirections = [.open(descriptor: 1, path: path, mode: .truncate), .duplicate(from: 1, to: given)]
            let pid = try SystemCalls.spawn(request).get()
            #expect(SystemCalls.wait(pid)?.status == .exited(0))
            #expect(try SystemCalls.readFile(path).get() == Array("\(given)\n".utf8))
        }
    }

    @Test func aRedirectionAndAPipeCarryAChildsOutput() throws {
        try Self.withScratch { directory in
            let path = directory + "/out"
            var request = SpawnRequest(executable: "/bin/sh", arguments: ["-c", "echo to-file; echo to-pipe >&4"])
            let pipe = try SystemCalls.makePipe().get()
            #expect(pipe.read.rawValue >= 10 && pipe.write.rawValue >= 10)
            request.redirections = [.open(descriptor: 1, path: path, mode: .truncate), .duplicate(from: pipe.write.rawValue, to: 4)]
            let pid = try SystemCalls.spawn(request).get()
            pipe.write.close()
            pipe.write.close()
            #expect(!pipe.write.isOpen && pipe.write.rawValue == -1)
            var received: [UInt8] = []
            reading: while true {
                switch SystemCalls.read(pipe.read.rawValue, maximum: 64) {
                case .bytes(let bytes): received += bytes
                case .endOfFile: break reading
                case .wouldBlock, .failed: Issue.record("the pipe failed"); break reading
                }
            }
            #expect(SystemCalls.wait(pid)?.status == .exited(0))
            #expect(received == Array("to-pipe\n".utf8))
            #expect(try SystemCalls.readFile(path).get() == Array("to-file\n".utf8))
        }
    }
}

extension SystemCalls {
    /// Starts `argv` and waits for it.
    fileprivate static func spawnAndWait(_ argv: [String]) -> HudSystem.ExitStatus? {
        guard case .success(let pid) = spawn(SpawnRequest(executable: argv[0], arguments: Array(argv.dropFirst()))) else { return nil }
        return wait(pid)?.status
    }
}

extension Result {
    fileprivate var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
