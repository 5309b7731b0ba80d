// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation

/// A failure a command reports and exits with, as one value: the message
/// for stderr, the `error` object of a JSON document (Docs/JSON.md) and
/// the exit code from the one table (`ExitCode`).
struct CommandFailure: Error, CustomStringConvertible {
    /// A `FailureCode`, or one of the CLI's own codes: `usage`,
    /// `event-target`, `unusable-scene`, `unwritable-output`.
    var code: String
    /// The file the failure is about, if any.
    var path: String?
    var rendererID: String?
    /// What failed, where, why, and what to do next.
    var message: String
    var exit: ExitCode

    var description: String { message }

    init(code: String, path: String? = nil, rendererID: String? = nil, message: String, exit: ExitCode) {
        self.code = code
        self.path = path
        self.rendererID = rendererID
        self.message = message
        self.exit = exit
    }

    /// A registry error, with its code and the exit code it maps to.
    init(_ error: RegistryError) {
        self.init(code: error.code.rawValue, path: error.path, rendererID: error.rendererID, message: error.description, exit: ExitCode(error))
    }

    /// A `--scene` file that is missing, unreadable, not a regular file, or
    /// not a valid scene (exit 3).
    static func unusableScene(_ path: String, _ reason: String) -> CommandFailure {
        CommandFailure(code: "unusable-scene", path: path, message: "scene \(path): \(reason)", exit: .unusableTarget)
    }

    /// An `--out` / `--output` file or directory that cannot be written (exit 3).
    static func unwritableOutput(_ error: Output.FileError) -> CommandFailure {
        CommandFailure(code: "unwritable-output", path: error.path, message: error.description, exit: .unusableTarget)
    }

    /// A picture that could not be drawn as PNG (librsvg missing or failing; exit 1).
    static func unrenderablePicture(_ reason: String) -> CommandFailure {
        CommandFailure(code: "unrenderable-picture",
                       message: "render --format png: \(reason); PNG output needs librsvg and cairo (Debian: apt-get install librsvg2-2)",
                       exit: .failure)
    }

    /// The `error` object of a JSON document.
    var json: JSONValue {
        .object([
            ("code", .string(code)), ("path", path.map(JSONValue.string) ?? .null),
            ("rendererId", rendererID.map(JSONValue.string) ?? .null), ("message", .string(message)),
        ])
    }

    /// `{"schemaVersion": 1, <extra members>, "error": {…}}`.
    func document(_ extra: [(String, JSONValue)] = []) -> String {
        JSONValue.object([("schemaVersion", .number(Double(LayoutJSON.schemaVersion)))] + extra + [("error", json)]).serialized()
    }

    /// Says it on stderr as `hudhost: error: <message>`.
    func report() {
        Output.error("hudhost: error: \(message)")
    }
}

extension UsageError {
    /// Says it the way every usage error is said (exit 2): on stderr with a
    /// pointer to --help, and with `json` also as a JSON error document on
    /// stdout (code `usage`), so stdout stays one JSON document.
    func report(command: String, json: Bool) {
        if json { Output.out(CommandFailure(code: "usage", message: description, exit: .usage).document()) }
        Output.error("hudhost \(command): \(self)\nRun `hudhost \(command) --help` for usage.")
    }
}
