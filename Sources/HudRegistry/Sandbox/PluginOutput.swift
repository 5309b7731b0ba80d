// SPDX-License-Identifier: MIT
import HudSystem

/// What plugin code in one sandboxed child wrote to its stdout and stderr.
/// A child never shares the caller's descriptors: both are pipes the host
/// drains, keeping at most `PluginOutput.keptBytes`, and the text reaches
/// the host application only as data (`PluginOutputLog`), never as bytes
/// on its terminal.
public struct PluginOutput: Sendable, Hashable {
    /// The most bytes kept of one child's output; the rest is counted.
    public static let keptBytes = 16 << 10

    /// Whose output: the renderer ids a renderer host served, or the
    /// plugin file (or files) a scanning or validating child loaded.
    public var source: String
    /// The first `keptBytes` bytes it wrote.
    public var bytes: [UInt8]
    /// How many bytes it wrote in all.
    public var totalBytes: Int
    /// True when the child failed (crashed, timed out, exited, broke its
    /// channel): its output may say why.
    public var childFailed: Bool

    public init(source: String, bytes: [UInt8], totalBytes: Int, childFailed: Bool) {
        self.source = source
        self.bytes = bytes
        self.totalBytes = totalBytes
        self.childFailed = childFailed
    }

    /// The output as lines to show a person: each prefixed with
    /// `[source] `, control characters and invalid UTF-8 escaped (no
    /// escape sequence, carriage return or C1 control reaches a terminal,
    /// and no line can pass for the host's own), and a last line saying
    /// how much was left out.
    public var displayLines: [String] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            "[\(source)] " + TextChecks.escapingControls(String(decoding: $0, as: UTF8.self))
        }
        if bytes.last == UInt8(ascii: "\n") { lines.removeLast() }
        if totalBytes > bytes.count {
            lines.append("[\(source)] … \(totalBytes - bytes.count) more bytes not kept (at most \(Self.keptBytes) are)")
        }
        return lines
    }
}

/// Where plugin output goes: nowhere, unless the host application installs
/// a handler (hudhost prints it to stderr: failures always, everything with
/// `--verbose`). Library code never prints.
public enum PluginOutputLog {
    private struct State {
        var handler: (@Sendable (PluginOutput) -> Void)?
        var everything = false
    }

    private static let state = ThreadLock(State())

    /// Installs `handler` for every child's output from now on: only a
    /// failed child's, or with `everything` every child's that wrote any.
    public static func install(everything: Bool, _ handler: @escaping @Sendable (PluginOutput) -> Void) {
        state.withLock { $0 = State(handler: handler, everything: everything) }
    }

    /// Hands `output` to the handler when there is one, the child wrote
    /// something and it failed or everything is asked for.
    package static func deliver(_ output: PluginOutput) {
        guard output.totalBytes > 0 else { return }
        let handler = state.withLock { $0.everything || output.childFailed ? $0.handler : nil }
        handler?(output)
    }
}

/// The reading end of a child's output pipe and what was drained from it
/// so far, bounded (`PluginOutput.keptBytes`).
package struct OutputCapture {
    package let descriptor: Int32
    package private(set) var kept: [UInt8] = []
    package private(set) var totalBytes = 0
    package private(set) var isOpen = true

    package init(descriptor: Int32) { self.descriptor = descriptor }

    /// Reads what is there without blocking (at most 16 reads, so a child
    /// that writes without pause cannot hold the caller); false once the
    /// pipe is closed.
    @discardableResult
    package mutating func drain() -> Bool {
        guard isOpen else { return false }
        for _ in 0..<16 {
            switch SystemCalls.read(descriptor, maximum: 65536) {
            case .bytes(let chunk):
                totalBytes += chunk.count
                if kept.count < PluginOutput.keptBytes { kept += chunk.prefix(PluginOutput.keptBytes - kept.count) }
            case .wouldBlock:
                return true
            case .endOfFile, .failed:
                isOpen = false
                return false
            }
        }
        return true
    }

    /// What was drained, as `source`'s output.
    package func output(source: String, childFailed: Bool) -> PluginOutput {
        PluginOutput(source: source, bytes: kept, totalBytes: totalBytes, childFailed: childFailed)
    }
}
