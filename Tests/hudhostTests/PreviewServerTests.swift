// SPDX-License-Identifier: MIT
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import Testing
import HudTestSupport

/// `hudhost preview` as a user runs it: a real subprocess serving on
/// loopback, spoken to over real TCP (Docs/PREVIEW.md).
@Suite(.serialized) struct PreviewServerTests {
    /// A running `hudhost preview`; killed when the test is done.
    // @unchecked: every stored property is a constant set in init; Process is
    // only asked isRunning/terminate, which Foundation guards itself.
    final class Preview: @unchecked Sendable {
        let process = Process()
        let url: String
        let base: String
        let token: String
        let port: UInt16
        let stderrPath: String

        init(_ arguments: [String] = [], environment extra: [String: String] = [:]) throws {
            let scratch = try FixturePlugins.makeScratchDirectory("preview")
            stderrPath = scratch + "/stderr.txt"
            _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
            process.executableURL = URL(fileURLWithPath: HudHost.path)
            process.arguments = ["preview", "--port", "0"] + arguments
            var environment = ["HOME": scratch, "HUD_RENDERER_PATH": "", "NO_COLOR": "1", "XDG_CACHE_HOME": scratch + "/cache",
                               "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
            // A sanitizer build's options (Scripts/sanitizer-tests.sh: a crash
            // is left to its signal, reports go to files) reach the preview
            // and its children as they reach every other hudhost the tests run.
            for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "SWIFT_BACKTRACE"] {
                environment[name] = ProcessInfo.processInfo.environment[name]
            }
            process.environment = environment.merging(extra) { $1 }
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle(forWritingAtPath: stderrPath)
            try process.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += chunk
            }
            url = String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            guard url.hasPrefix("http://127.0.0.1:"), let range = url.range(of: "/?token=") else {
                process.terminate()
                throw PreviewError("the first stdout line is not the URL: '\(url)'; stderr: \((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")")
            }
            base = String(url[..<range.lowerBound])
            token = String(url[range.upperBound...])
            port = UInt16(base.split(separator: ":").last ?? "") ?? 0
        }

        deinit {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }

        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        struct Reply {
            var status: Int
            var body: String
            var headers: [String: String]
            var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        }

        /// One request; `token: false` leaves the token out.
        func request(method: String = "GET", _ path: String, body: String? = nil, token: Bool = true, tokenValue: String? = nil) async throws -> Reply {
            var address = base + path
            if token { address += (path.contains("?") ? "&" : "?") + "token=" + (tokenValue ?? self.token) }
            var request = URLRequest(url: URL(string: address)!)
            request.httpMethod = method
            if let body { request.httpBody = Data(body.utf8) }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = response as! HTTPURLResponse
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields { headers[String(describing: key).lowercased()] = String(describing: value) }
            return Reply(status: http.statusCode, body: String(decoding: data, as: UTF8.self), headers: headers)
        }

        func state() async throws -> [String: Any] { try await request("/api/state").json }

        /// The state once `condition` holds (reloads are asynchronous): read
        /// again each time the server announces a version on a held event
        /// stream, opened before the first read so no change is missed.
        func waitForState(_ what: String, seconds: Double = 15, _ condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
            let fd = connectRaw()
            guard fd >= 0 else { throw PreviewError("\(what): cannot open an event stream; stderr: \(stderr)") }
            defer { close(fd) }
            Self.send(fd, "GET /api/stream?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            let deadline = Date().addingTimeInterval(seconds)
            var last = try await state()
            while !condition(last) {
                // An event ends with a blank line ("\n\n"; the headers end "\r\n\r\n").
                let announced = await Self.offPool { Self.receive(fd, seconds: deadline.timeIntervalSinceNow, until: "\n\n") }
                guard !announced.isEmpty else { throw PreviewError("\(what): not within \(seconds) s; state: \(last); stderr: \(stderr)") }
                last = try await state()
            }
            return last
        }

        /// Bytes straight onto a TCP connection; what came back before the
        /// server closed it or `seconds` passed (for what an HTTP client
        /// library would not send: a forged Host, garbage, a held stream).
        func raw(_ text: String, seconds: Double = 5, until stop: String? = nil) async -> String {
            await Self.offPool { self.rawBlocking(text, seconds: seconds, until: stop) }
        }

        /// `work` on a Dispatch thread: a blocking read must not hold one of
        /// the few threads of Swift's concurrency pool (URLSession needs them).
        static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: work()) }
            }
        }

        /// Sends `text` on `fd` (no SIGPIPE if the server has gone).
        static func send(_ fd: Int32, _ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// A TCP connection to the server (the caller closes it), or -1.
        func connectRaw() -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(fd)
                return -1
            }
            return fd
        }

        /// Waits until the server has closed at least `count` of `fds` (their
        /// end of stream arrives) or `seconds` pass; the indices of those it
        /// closed (blocking: call it off the concurrency pool).
        static func awaitClosed(_ fds: [Int32], count: Int, seconds: Double) -> Set<Int> {
            var closed = Set<Int>()
            let deadline = Date().addingTimeInterval(seconds)
            while closed.count < count, deadline.timeIntervalSinceNow > 0 {
                let watched = fds.indices.filter { !closed.contains($0) }
                var entries = watched.map { pollfd(fd: fds[$0], events: Int16(POLLIN), revents: 0) }
                guard poll(&entries, nfds_t(entries.count), Int32(deadline.timeIntervalSinceNow * 1000) + 1) > 0 else { continue }
                for (index, entry) in zip(watched, entries) where entry.revents != 0 {
                    var byte: UInt8 = 0
                    if recv(fds[index], &byte, 1, 0) <= 0 { closed.insert(index) }  // the server sends nothing but its end
                }
            }
            return closed
        }

        private func rawBlocking(_ text: String, seconds: Double, until stop: String?) -> String {
            let fd = connectRaw()
            guard fd >= 0 else { return "" }
            defer { close(fd) }
            Self.send(fd, text)
            return Self.receive(fd, seconds: seconds, until: stop)
        }

        /// What arrives on `fd` until `stop` is among it, the peer closes,
        /// or `seconds` pass (blocking: call it off the concurrency pool).
        static func receive(_ fd: Int32, seconds: Double, until stop: String?) -> String {
            var received = [UInt8]()
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 100) >= 0 else { break }
                if entry.revents == 0 { continue }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                received += buffer[..<count]
                if let stop, String(decoding: received, as: UTF8.self).contains(stop) { break }
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    struct PreviewError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test func firstLineIsTheURLWithATokenAndTheServerListensOnLoopbackOnly() async throws {
        let preview = try Preview()
        #expect(preview.token.count == 32)
        #expect(preview.token.allSatisfy { $0.isHexDigit })
        let page = try await preview.request("/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.body.hasPrefix("<!-- SPDX-License-Identifier: MIT -->"))
        #expect(page.body.contains("/preview.js?token=\(preview.token)"))
        #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        #expect(try await preview.request("/preview.js").body.contains("EventSource"))
        #expect(try await preview.request("/preview.css").status == 200)
        let worker = try await preview.request("/preview-worker.js")
        #expect(worker.body.contains("new EventSource('/api/stream' + location.search)"), "\(worker.body.prefix(300))")
        #expect(worker.headers["content-security-policy"]?.contains("connect-src 'self'") == true)
        // Nothing listens on the machine's other addresses: the daemon is bound to 127.0.0.1.
        let listing = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let hexPort = String(preview.port, radix: 16, uppercase: true)
        let listening = listing.split(separator: "\n").filter { $0.contains(":" + String(repeating: "0", count: 4 - hexPort.count) + hexPort + " ") && $0.contains(" 0A ") }
        #expect(!listening.isEmpty)
        #expect(listening.allSatisfy { $0.contains("0100007F:") }, "\(listening)")
    }

    @Test func requestsWithoutTheTokenOrWithAnotherHostAreRefused() async throws {
        let preview = try Preview()
        for path in ["/", "/api/state", "/api/frame.svg", "/preview.js", "/preview-worker.js", "/api/stream", "/nope"] {
            let missing = try await preview.request(path, token: false)
            #expect(missing.status == 401, "\(path): \(missing.status)")
            let wrong = try await preview.request(path, tokenValue: String(repeating: "0", count: 32))
            #expect(wrong.status == 403, "\(path): \(wrong.status)")
        }
        let posted = try await preview.request(method: "POST", "/api/events", body: "tap center", token: false)
        #expect(posted.status == 401)
        // DNS rebinding: the right token under another Host name is refused.
        for host in ["evil.example:\(preview.port)", "127.0.0.1:1", "127.0.0.1", "[::1]:\(preview.port)"] {
            let answer = await preview.raw("GET /api/state?token=\(preview.token) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 403"), "\(host): \(answer.prefix(200))")
            #expect(answer.contains("bad-host"))
        }
        let good = await preview.raw("GET /api/state?token=\(preview.token) HTTP/1.1\r\nHost: localhost:\(preview.port)\r\nConnection: close\r\n\r\n")
        #expect(good.hasPrefix("HTTP/1.1 200"), "\(good.prefix(200))")
        // A state-changing request from another origin is refused, even with
        // the token; from the page's own origin (or none: a script) it is taken.
        for (origin, status) in [("http://evil.example", "403"), ("null", "403"), ("http://127.0.0.1:\(preview.port)", "200")] {
            let body = "tap center"
            let answer = await preview.raw("POST /api/events?token=\(preview.token) HTTP/1.1\r\nHost: 127.0.0.1:\(preview.port)\r\nOrigin: \(origin)\r\n"
                                           + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(origin): \(answer.prefix(300))")
            #expect(answer.contains("bad-origin") == (status == "403"))
        }
        // The token in a header works too (for scripts).
        let header = await preview.raw("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(preview.port)\r\nX-Hud-Token: \(preview.token)\r\nConnection: close\r\n\r\n")
        #expect(header.hasPrefix("HTTP/1.1 200"))
    }

    /// `--open` never puts the token in a command line (every local user
    /// can read `/proc/PID/cmdline`): xdg-open gets a private launcher file
    /// that leads to the URL, removed once the page is served with the token.
    @Test func openKeepsTheTokenOutOfEveryCommandLine() async throws {
        let tools = try FixturePlugins.makeScratchDirectory("fake-xdg-open")
        let report = tools + "/report"
        try #require(mkfifo(report, 0o600) == 0)
        // The fake xdg-open reports its arguments, the launcher's text and
        // the modes of the file and its directory on a FIFO.
        let script = "#!/bin/sh\n{ printf 'argv %s\\n' \"$*\"; stat -c 'modes %a' \"$1\" \"$(dirname \"$1\")\"; cat \"$1\"; } > \(report)\n"
        try script.write(toFile: tools + "/xdg-open", atomically: false, encoding: .utf8)
        chmod(tools + "/xdg-open", 0o755)
        let reader = open(report, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let preview = try Preview(["--open"], environment: ["PATH": tools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        var received: [UInt8] = []
        while !String(decoding: received, as: UTF8.self).contains("</a>") {
            var entry = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            try #require(poll(&entry, 1, 20_000) == 1, "xdg-open never ran")
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(reader, &buffer, buffer.count)
            if count > 0 { received += buffer[..<count] }
        }
        let text = String(decoding: received, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        let argv = try #require(lines.first { $0.hasPrefix("argv ") })
        #expect(!argv.contains(preview.token), "the token is in xdg-open's command line: \(argv)")
        #expect(lines.filter { $0.hasPrefix("modes ") } == ["modes 600", "modes 700"], "\(text)")
        #expect(text.contains(preview.url), "the launcher leads to the page: \(text)")
        let launcher = String(argv.dropFirst("argv ".count))
        #expect(FileManager.default.fileExists(atPath: launcher))
        #expect(try await preview.request("/").status == 200)
        #expect(!FileManager.default.fileExists(atPath: launcher), "the launcher outlived its use")
        #expect(!FileManager.default.fileExists(atPath: (launcher as NSString).deletingLastPathComponent))
    }

    @Test func eventsChangeTheStateAndTheFrameLikeAnEventsScript() async throws {
        let preview = try Preview()
        let start = try await preview.state()
        #expect(start["schemaVersion"] as? Int == 1)
        #expect((start["style"] as? [String: Any])?["id"] as? String == "com.hudson.tray")
        #expect((start["renderers"] as? [[String: Any]])?.map { $0["id"] as? String } == ["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal"])
        #expect((start["device"] as? [String: Any])?["id"] as? String == "iphone-16-pro")
        #expect((start["deck"] as? [String: Any])?["presentation"] != nil)
        #expect(start["revealedPosition"] is NSNull)
        let firstFrame = try await preview.request("/api/frame.svg")
        #expect(firstFrame.status == 200)
        #expect(firstFrame.headers["content-type"]?.hasPrefix("image/svg+xml") == true)
        // The same frame as PNG (librsvg); its first bytes are not UTF-8, so the signature reads as U+FFFD "PNG".
        let picture = try await preview.request("/api/frame.png")
        #expect(picture.status == 200 && picture.headers["content-type"] == "image/png", "\(picture.status) \(picture.headers)")
        #expect(picture.body.hasPrefix("\u{FFFD}PNG\r\n"), "\(picture.body.prefix(16))")
        #expect(firstFrame.body.contains("data-device=\"iphone-16-pro\""))

        let revealed = try await preview.request(method: "POST", "/api/events", body: "longpress center")
        #expect(revealed.status == 200, "\(revealed.body)")
        #expect(revealed.json["revealedPosition"] as? String == "center")
        #expect((revealed.json["modes"] as? [String]) == ["tray", "scattered", "minimal"])
        #expect((revealed.json["version"] as? Int ?? 0) > (start["version"] as? Int ?? 0))
        let steps = revealed.json["steps"] as? [[String: Any]]
        #expect((steps?.first?["events"] as? [String]) == ["pressed slot:center", "long-pressed slot:center", "revealed center modes"])

        let picked = try await preview.request(method: "POST", "/api/events", body: "tap mode:scattered")
        #expect(picked.status == 200)
        #expect((picked.json["style"] as? [String: Any])?["id"] as? String == "com.hudson.scattered")
        #expect((picked.json["actions"] as? [String]) == ["mode:center#1"])
        #expect(picked.json["revealedPosition"] is NSNull)
        let lastFrame = try await preview.request("/api/frame.svg")
        #expect(lastFrame.body != firstFrame.body)
        #expect(lastFrame.headers["x-hud-version"] == String(picked.json["version"] as? Int ?? -1))

        // Timed raw phases, as the page sends them: a press held past the
        // threshold is a long press, a short one a tap; moving over 10 pt cancels.
        let clock = picked.json["clock"] as? Double ?? 0
        _ = try await preview.request(method: "POST", "/api/events", body: "press center @\(clock + 0.1)")
        let held = try await preview.request(method: "POST", "/api/events", body: "wait 0 @\(clock + 0.6)")
        #expect(held.json["revealedPosition"] as? String == "center", "\(held.body)")
        let released = try await preview.request(method: "POST", "/api/events", body: "release center @\(clock + 0.65)")
        #expect(released.json["revealedPosition"] as? String == "center")
        #expect((released.json["actions"] as? [String]) == ["mode:center#1"])
        _ = try await preview.request(method: "POST", "/api/events", body: "tap 200,450 @\(clock + 1)")  // closes the picker
        _ = try await preview.request(method: "POST", "/api/events", body: "press topLeft @\(clock + 2)")
        let slopped = try await preview.request(method: "POST", "/api/events", body: "move 200,450 @\(clock + 2.05)")
        #expect((slopped.json["steps"] as? [[String: Any]])?.first?["events"] as? [String] == ["cancelled slot:topLeft"], "\(slopped.body)")
        let dropped = try await preview.request(method: "POST", "/api/events", body: "release 200,450 @\(clock + 2.1)")
        #expect((dropped.json["actions"] as? [String]) == ["mode:center#1"])

        let settings = try await preview.request(method: "POST", "/api/settings", body: #"{"device":"iphone-se","direction":"rtl","textSize":"AX2","style":"minimal"}"#)
        #expect(settings.status == 200, "\(settings.body)")
        #expect((settings.json["settings"] as? [String: Any])?["device"] as? String == "iphone-se")
        #expect((settings.json["settings"] as? [String: Any])?["direction"] as? String == "rtl")
        #expect((settings.json["style"] as? [String: Any])?["id"] as? String == "com.hudson.minimal")
        let seFrame = try await preview.request("/api/frame.svg")
        #expect(seFrame.body.contains("data-device=\"iphone-se\"") && seFrame.body.contains("data-direction=\"rtl\""))
    }

    /// The deck box: the presentation setting turns the control deck on,
    /// the pivot expands it, Escape (from the keyboard or the button)
    /// collapses it, and the frame and the state follow.
    @Test func theControlDeckIsDrivenFromThePage() async throws {
        let preview = try Preview()
        let start = try await preview.state()
        let startDeck = start["deck"] as? [String: Any]
        #expect(startDeck?["presentation"] as? String == "always")
        #expect(startDeck?["state"] is NSNull)
        #expect(((start["choices"] as? [String: Any])?["presentation"] as? [String]) == ["always", "on-demand"])
        let badChoice = try await preview.request(method: "POST", "/api/settings", body: #"{"presentation":"sometimes"}"#)
        #expect(badChoice.status == 400)
        #expect(((badChoice.json["error"] as? [String: Any])?["message"] as? String)?.contains("always, on-demand") == true)

        func deckState(_ json: [String: Any]) -> String? {
            ((json["deck"] as? [String: Any])?["state"] as? [String: Any])?["presentation"] as? String
        }
        let onDemand = try await preview.request(method: "POST", "/api/settings", body: #"{"presentation":"on-demand"}"#)
        #expect(onDemand.status == 200, "\(onDemand.body)")
        #expect((onDemand.json["deck"] as? [String: Any])?["presentation"] as? String == "on-demand")
        #expect(deckState(onDemand.json) == "deckResting")
        let resting = try await preview.request("/api/frame.svg")
        #expect(resting.body.contains("data-deck-control=\"pivot\""))

        let expanded = try await preview.request(method: "POST", "/api/events", body: "tap pivot")
        #expect(expanded.status == 200, "\(expanded.body)")
        #expect(deckState(expanded.json) == "deckExpanded")
        #expect(try await preview.request("/api/frame.svg").body.contains("data-deck-control=\"close\""))
        let escaped = try await preview.request(method: "POST", "/api/events", body: "key escape")
        #expect(escaped.status == 200, "\(escaped.body)")
        #expect(deckState(escaped.json) == "deckResting")
        #expect((escaped.json["version"] as? Int ?? 0) > (expanded.json["version"] as? Int ?? 0))

        let always = try await preview.request(method: "POST", "/api/settings", body: #"{"presentation":"always"}"#)
        #expect(deckState(always.json) == nil)
        #expect(try await preview.request(method: "POST", "/api/events", body: "tap pivot").status == 422)
    }

    @Test func badRequestsGetClearClientErrorsAndNeverStopTheServer() async throws {
        let preview = try Preview()
        let unknownVerb = try await preview.request(method: "POST", "/api/events", body: "fly center")
        #expect(unknownVerb.status == 400)
        #expect(((unknownVerb.json["error"] as? [String: Any])?["message"] as? String)?.hasPrefix("event 1 'fly center': unknown verb 'fly'; use tap, longpress") == true)
        #expect(try await preview.request(method: "POST", "/api/events", body: "").status == 400)
        #expect(try await preview.request(method: "POST", "/api/events", body: "tap 5000,5000").status == 400)
        let notRevealed = try await preview.request(method: "POST", "/api/events", body: "tap mode:scattered")
        #expect(notRevealed.status == 422)
        #expect(((notRevealed.json["error"] as? [String: Any])?["message"] as? String)?.contains("no modes are revealed") == true)
        #expect(try await preview.request(method: "POST", "/api/events", body: String(repeating: "tap center;", count: 7000)).status == 413)
        #expect(try await preview.request(method: "POST", "/api/settings", body: "{not json").status == 400)
        let badDevice = try await preview.request(method: "POST", "/api/settings", body: #"{"device":"nokia-3310"}"#)
        #expect(badDevice.status == 400)
        #expect(((badDevice.json["error"] as? [String: Any])?["message"] as? String)?.contains("iphone-se") == true)
        #expect(try await preview.request(method: "POST", "/api/settings", body: #"{"style":"org.nowhere"}"#).status == 400)
        #expect(try await preview.request(method: "POST", "/api/settings", body: #"{"colour":"red"}"#).status == 400)
        #expect(try await preview.request("/api/nothing").status == 404)
        let wrongMethod = try await preview.request(method: "DELETE", "/api/state")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "GET, HEAD")
        #expect(try await preview.request(method: "GET", "/api/events").status == 405)
        // Not HTTP at all: libmicrohttpd answers or closes; the server goes on.
        _ = await preview.raw("\u{1}\u{2}garbage\r\n\r\n", seconds: 2)
        _ = await preview.raw("GET /api/state?token=\(preview.token) HTTP/1.1\r\nHost: 127.0.0.1:\(preview.port)\r\nContent-Length: 99999999999999999999\r\n\r\n", seconds: 2)
        _ = await preview.raw("POST /api/events?token=\(preview.token) HTTP/1.1\r\nHost: 127.0.0.1:\(preview.port)\r\nContent-Length: 100\r\n\r\ntap", seconds: 1)
        let after = try await preview.request("/api/state")
        #expect(after.status == 200)
        #expect(preview.process.isRunning)
    }

    @Test func concurrentRequestsAreAllAnsweredInOrder() async throws {
        let preview = try Preview()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                group.addTask {
                    switch index % 4 {
                    case 0: try await preview.request("/api/state").status
                    case 1: try await preview.request("/api/frame.svg").status
                    case 2: try await preview.request(method: "POST", "/api/events", body: "tap topLeft").status
                    default: try await preview.request(method: "POST", "/api/settings", body: index % 8 == 3 ? #"{"scheme":"light"}"# : #"{"scheme":"dark"}"#).status
                    }
                }
            }
            var all: [Int] = []
            for try await status in group { all.append(status) }
            return all
        }
        #expect(statuses.count == 24)
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        let state = try await preview.state()
        #expect((state["actions"] as? [String])?.count == 6)
    }

    @Test func serverSentEventsAnnounceEveryNewVersion() async throws {
        let preview = try Preview()
        let version = try await preview.state()["version"] as? Int ?? 0
        // A held stream on a raw connection: the state changes only once
        // the stream has announced the current version (an event, not a delay).
        let fd = preview.connectRaw()
        #expect(fd >= 0)
        defer { close(fd) }
        Preview.send(fd, "GET /api/stream?token=\(preview.token) HTTP/1.1\r\nHost: 127.0.0.1:\(preview.port)\r\n\r\n")
        let current = "event: frame\ndata: {\"version\":\(version)}"
        let first = await Preview.offPool { Preview.receive(fd, seconds: 8, until: current) }
        #expect(first.contains(current), "\(first)")
        _ = try await preview.request(method: "POST", "/api/events", body: "longpress center")
        let rest = await Preview.offPool { Preview.receive(fd, seconds: 8, until: "data: {\"version\":\(version + 1)}") }
        let received = first + rest
        #expect(received.hasPrefix("HTTP/1.1 200"))
        #expect(received.lowercased().contains("content-type: text/event-stream"))
        #expect(received.contains("event: frame\ndata: {\"version\":\(version)}"))
        #expect(received.contains("data: {\"version\":\(version + 1)}"), "\(received)")
    }

    /// libmicrohttpd's idle timeout restarts with every byte; the request
    /// deadline does not: a request trickled a byte at a time is cut once
    /// the deadline has passed, and the server goes on serving.
    @Test func aTrickledRequestIsCutAtTheDeadline() async throws {
        let preview = try Preview(["--request-timeout", "1"])
        let outcome: String = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let fd = preview.connectRaw()
                guard fd >= 0 else { return continuation.resume(returning: "no connection") }
                defer { close(fd) }
                _ = send(fd, "GET /api/state HTTP/1.1\r\nX-Slow: ", 34, Int32(MSG_NOSIGNAL))
                // One byte every 0.1 s, for up to 20 s (the idle timeout is
                // 60 s): the server must close the connection long before.
                for _ in 0..<200 {
                    guard send(fd, "a", 1, Int32(MSG_NOSIGNAL)) == 1 else { return continuation.resume(returning: "closed") }
                    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    if poll(&entry, 1, 100) == 1 {
                        var byte: UInt8 = 0
                        if recv(fd, &byte, 1, 0) <= 0 { return continuation.resume(returning: "closed") }
                    }
                }
                continuation.resume(returning: "still open after 20 s of trickling")
            }
        }
        #expect(outcome == "closed")
        #expect(try await preview.request("/api/state").status == 200)
    }

    /// Connections that never present the token cannot crowd out the
    /// token's holder: past the share kept for them, each newcomer closes
    /// the oldest, and the holder's own request is answered.
    @Test func connectionsWithoutTheTokenCannotCrowdOutItsHolder() async throws {
        // The request deadline (here 60 s) cannot close any of them while
        // the test runs: every connection closed is the guard's doing.
        let preview = try Preview(["--request-timeout", "60"])
        // More than the server's whole connection limit (64), all silent.
        let held = (0..<80).map { _ in preview.connectRaw() }
        defer { held.filter { $0 >= 0 }.forEach { close($0) } }
        #expect(held.allSatisfy { $0 >= 0 })
        // The server takes the burst in its own time; each connection it
        // accepts past the newest 32 unadmitted ones (HTTPDaemon's
        // unadmittedLimit) closes the oldest: once 48 have been closed, all
        // 80 were accepted, and exactly the oldest went.
        let closed = await Preview.offPool { Preview.awaitClosed(held, count: 48, seconds: 15) }
        #expect(closed.sorted() == Array(0..<48), "stderr: \(preview.stderr)")
        // The holder comes on a connection of its own, as a new tab does.
        let answer = await preview.raw("GET /api/state?token=\(preview.token) HTTP/1.1\r\nHost: 127.0.0.1:\(preview.port)\r\nConnection: close\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        // Its arrival closed one more of the oldest; the newest 31 stay.
        let closedThen = await Preview.offPool { Preview.awaitClosed(held, count: 49, seconds: 5) }
        #expect(closedThen.sorted() == Array(0..<49))
        let open = held.indices.filter { index in
            var entry = pollfd(fd: held[index], events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, 0) == 0
        }
        #expect(open == Array(49..<80))
    }

    /// The limit holds for admitted connections too: with 64 of them open
    /// (the token's holder, keeping each alive), a 65th is closed unanswered
    /// and the 64 go on being served.
    @Test func pastTheConnectionLimitTheNewcomerIsRefused() async throws {
        let preview = try Preview()
        // HEAD: each answer ends with its headers' blank line.
        let ask = "HEAD /api/state?token=\(preview.token) HTTP/1.1\r\nHost: 127.0.0.1:\(preview.port)\r\n\r\n"
        let admitted: [Int32] = await Preview.offPool {
            (0..<64).map { _ in
                let fd = preview.connectRaw()
                Preview.send(fd, ask)
                _ = Preview.receive(fd, seconds: 10, until: "\r\n\r\n")
                return fd
            }
        }
        defer { admitted.filter { $0 >= 0 }.forEach { close($0) } }
        let refused = await preview.raw(ask, seconds: 10)
        #expect(refused.isEmpty, "\(refused.prefix(200))")
        let again = await Preview.offPool { () -> String in
            Preview.send(admitted[0], ask)
            return Preview.receive(admitted[0], seconds: 10, until: "\r\n\r\n")
        }
        #expect(again.hasPrefix("HTTP/1.1 200"), "\(again.prefix(200))")
    }

    /// A client that closes its side of an event stream is let go at once:
    /// the server ends the stream (its last chunk, or the connection's end)
    /// straight away, not at the next keep-alive comment (15 s).
    @Test func aDepartedEventStreamClientIsReleasedAtOnce() async throws {
        let preview = try Preview()
        let outcome: String = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let fd = preview.connectRaw()
                guard fd >= 0 else { return continuation.resume(returning: "no connection") }
                defer { close(fd) }
                let request = "GET /api/stream?token=\(preview.token) HTTP/1.1\r\nHost: 127.0.0.1:\(preview.port)\r\n\r\n"
                _ = send(fd, request, request.utf8.count, Int32(MSG_NOSIGNAL))
                var received = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 4096)
                var departed = false
                // Each wait has its own deadline: 10 s for the first event,
                // then 5 s for the end of the stream after the client's FIN.
                while true {
                    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&entry, 1, departed ? 5_000 : 10_000) == 1 else {
                        return continuation.resume(returning: departed ? "the stream went on for 5 s after the client left" : "no first event")
                    }
                    let count = recv(fd, &buffer, buffer.count, 0)
                    if count > 0 { received += buffer[..<count] }
                    let text = String(decoding: received, as: UTF8.self)
                    if departed, count <= 0 || text.hasSuffix("\r\n0\r\n\r\n") { return continuation.resume(returning: "ended") }
                    guard count > 0 else { return continuation.resume(returning: "closed before the first event") }
                    if !departed, text.contains("event: frame") {
                        shutdown(fd, Int32(SHUT_WR))  // the client leaves
                        departed = true
                    }
                }
            }
        }
        #expect(outcome == "ended")
    }

    @Test func aRebuiltPluginIsReloadedKeepingTheInteractionAndABrokenOneKeepsTheLastGoodFrame() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("preview-reload")
        chmod(directory, 0o755)
        let plugin = directory + "/libreload.so"
        try FileManager.default.copyItem(atPath: FixturePlugins.path(of: .goodSimple), toPath: plugin)
        // The second version: the same renderers, the corner slots 30 pt in instead of 8.
        let moved = directory + "/moved.so.tmp"
        try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + ["-DSIMPLE_MARGIN=30.0", "-I", FixturePlugins.headerDirectory,
                                            "-I", FixturePlugins.sourceDirectory, "-o", moved, FixturePlugins.sourceDirectory + "/good_simple.c"])
        let preview = try Preview(["--plugin", plugin, "--style", "org.fixture.simple"])
        let start = try await preview.state()
        #expect((start["style"] as? [String: Any])?["id"] as? String == "org.fixture.simple", "\(preview.stderr)")
        #expect(start["problem"] is NSNull, "\(start["problem"] ?? "")")
        _ = try await preview.request(method: "POST", "/api/events", body: "longpress center")
        let firstFrame = try await preview.request("/api/frame.svg").body
        let revealedVersion = try await preview.state()["version"] as? Int ?? 0

        // Rebuilt: renamed over the old file, as a build tool does.
        #expect(rename(moved, plugin) == 0)
        let reloaded = try await preview.waitForState("the rebuilt plugin is shown") { state in
            (state["reloads"] as? [Any])?.count == 1 && (state["version"] as? Int ?? 0) > revealedVersion && state["problem"] is NSNull
        }
        #expect(reloaded["revealedPosition"] as? String == "center")
        #expect((reloaded["style"] as? [String: Any])?["id"] as? String == "org.fixture.simple")
        let secondFrame = try await preview.request("/api/frame.svg").body
        #expect(secondFrame != firstFrame)
        #expect(preview.stderr.contains("restarting its renderer host"))

        // A broken rebuild: not a shared object at all.
        let broken = directory + "/broken.so.tmp"
        try Data("this is not an ELF file\n".utf8).write(to: URL(fileURLWithPath: broken))
        #expect(rename(broken, plugin) == 0)
        let failed = try await preview.waitForState("the broken rebuild is reported") { state in
            (state["reloads"] as? [Any])?.count == 2 && !(state["problem"] is NSNull)
        }
        let problem = failed["problem"] as? String ?? ""
        #expect(problem.contains("org.fixture.simple"), "\(problem)")
        #expect(problem.contains("could not load") || problem.contains("load"), "\(problem)")
        #expect(try await preview.request("/api/frame.svg").body == secondFrame)
        #expect(failed["revealedPosition"] as? String == "center")
        // The server goes on, and events still work.
        #expect(try await preview.request(method: "POST", "/api/events", body: "tap topLeft").status == 200)

        // A rebuild that loads but crashes in layout (reads address 0), and
        // one whose layout is invalid (NaN frames): each reason is shown,
        // the last good frame stays.
        for (index, (define, word)) in [("-DSIMPLE_MARGIN=(*(volatile double *)0)", "crash"), ("-DSIMPLE_SIZE=(0.0/0.0)", "finite")].enumerated() {
            let variant = directory + "/variant\(index).so.tmp"
            try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + [define, "-I", FixturePlugins.headerDirectory,
                                                "-I", FixturePlugins.sourceDirectory, "-o", variant, FixturePlugins.sourceDirectory + "/good_simple.c"])
            #expect(rename(variant, plugin) == 0)
            let shown = try await preview.waitForState("the \(word) rebuild is reported") { state in
                (state["reloads"] as? [Any])?.count == 3 + index && !(state["problem"] is NSNull)
            }
            let reason = (shown["problem"] as? String ?? "").lowercased()
            #expect(reason.contains(word) || reason.contains("signal") || reason.contains("invalid"), "\(reason)")
            #expect(try await preview.request("/api/frame.svg").body == secondFrame)
            #expect(preview.process.isRunning)
        }

        // Fixed again: back to a good frame, no problem.
        let fixed = directory + "/fixed.so.tmp"
        try FileManager.default.copyItem(atPath: FixturePlugins.path(of: .goodSimple), toPath: fixed)
        #expect(rename(fixed, plugin) == 0)
        let recovered = try await preview.waitForState("the fixed plugin is shown") { state in
            (state["reloads"] as? [Any])?.count == 5 && state["problem"] is NSNull
        }
        #expect(recovered["problem"] is NSNull)
        #expect(try await preview.request("/api/frame.svg").body == firstFrame)
    }

    @Test func aChangedSceneIsReadAgainAndABrokenOneIsReported() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("preview-scene")
        let scene = directory + "/scene.json"
        func write(_ title: String) throws {
            let text = #"{ "schemaVersion": 1, "title": "\#(title)", "complications": { "center": { "icon": "circle.grid.2x2", "action": "log:hello" } } }"#
            try Data(text.utf8).write(to: URL(fileURLWithPath: scene + ".tmp"))
            #expect(rename(scene + ".tmp", scene) == 0)
        }
        try write("First")
        let preview = try Preview(["--scene", scene])
        #expect(try await preview.request("/api/frame.svg").body.contains("First"))
        try write("Second")
        _ = try await preview.waitForState("the new scene is shown") { ($0["stack"] as? [String]) == ["Second"] }
        #expect(try await preview.request("/api/frame.svg").body.contains("Second"))
        try Data("{ broken".utf8).write(to: URL(fileURLWithPath: scene))
        let broken = try await preview.waitForState("the broken scene is reported") { !($0["problem"] is NSNull) }
        #expect((broken["problem"] as? String)?.contains(scene) == true)
        #expect(try await preview.request("/api/frame.svg").body.contains("Second"))
    }
}

extension PreviewServerTests {
    /// libmicrohttpd is loaded only by `preview`: with the library hidden
    /// (bind-mounted over by /dev/null in a private mount namespace, which
    /// needs root; skipped otherwise) `preview` fails with what to install
    /// and exit 1, and `list` works.
    static let microhttpd = "/usr/lib/x86_64-linux-gnu/libmicrohttpd.so.12"
    static let canHideMicrohttpd = geteuid() == 0 && FileManager.default.fileExists(atPath: microhttpd) && Requirement.installed("unshare")

    @Test(Requirement.when(canHideMicrohttpd, "needs root, unshare(1) and \(microhttpd) to hide the library in a private mount namespace"))
    func withoutLibmicrohttpdPreviewSaysWhatToInstallAndTheRestWorks() throws {
        try Requirement.require(Self.canHideMicrohttpd, "root, unshare(1) or \(Self.microhttpd)")
        let library = Self.microhttpd
        func hidden(_ arguments: [String]) throws -> ProcessOutput {
            let command = "mount --bind /dev/null \(library) && exec \"$0\" \"$@\""
            return try FixturePlugins.run(["env", "HOME=" + FixturePlugins.workDirectory + "/no-home", "HUD_RENDERER_PATH=", "NO_COLOR=1",
                                           "/usr/bin/unshare", "--mount", "--propagation", "private", "sh", "-c", command, HudHost.path] + arguments)
        }
        let preview = try hidden(["preview", "--port", "0"])
        #expect(preview.status == 1, "\(preview.transcript)")
        #expect(preview.stderr.contains("cannot load libmicrohttpd.so.12") && preview.stderr.contains("apt-get install libmicrohttpd12"),
                "\(preview.stderr)")
        let list = try hidden(["list", "--builtin-only"])
        #expect(list.status == 0, "\(list.transcript)")
    }
}
