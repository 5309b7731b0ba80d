// SPDX-License-Identifier: MIT
/// A renderer description as a JSON record — what the registry cache
/// stores and what a sandboxed scan child replies — one encoding read and
/// written by both: `{"id", "name", "version", "vendor", "abi" (packed),
/// "positions" (bit mask), "capabilities" (bits), "description" (optional:
/// metadata sections do not carry it)}`.
extension RendererInfo {
    package var recordJSON: JSONValue {
        .object([("id", .string(id)), ("name", .string(name)), ("version", .string(version)), ("vendor", .string(vendor)),
                 ("abi", .number(Double(abiVersion.packed))), ("positions", .number(Double(Position.mask(supportedPositions)))),
                 ("capabilities", .number(Double(capabilities.rawValue)))] + (summary.isEmpty ? [] : [("description", .string(summary))]))
    }

    /// Decodes a record of the file at `path`, judged by the same rules as a
    /// metadata record (`recordProblem`); the failure says why not.
    package static func decodeRecord(_ json: JSONValue, path: String) -> Result<RendererInfo, RecordError> {
        guard let id = json["id"]?.stringValue, let name = json["name"]?.stringValue, let version = json["version"]?.stringValue,
              let vendor = json["vendor"]?.stringValue, let abi = json["abi"]?.numberValue.flatMap({ UInt32(exactly: $0) }),
              let positions = json["positions"]?.numberValue.flatMap({ UInt32(exactly: $0) }),
              let capabilities = json["capabilities"]?.numberValue.flatMap({ UInt32(exactly: $0) }) else {
            return .failure(RecordError(description: "a malformed renderer description"))
        }
        let summary = json["description"]?.stringValue ?? ""
        guard summary.utf8.count <= ABILimits.maxDescriptionBytes else {
            return .failure(RecordError(description: "renderer '\(TextChecks.escapingControls(id))': description is over \(ABILimits.maxDescriptionBytes) bytes"))
        }
        if let problem = recordProblem(id: id, texts: [("name", name), ("version", version), ("vendor", vendor), ("description", summary)],
                                       positions: positions, abi: ABIVersion(packed: abi)) {
            return .failure(RecordError(description: "renderer '\(TextChecks.escapingControls(id))': \(problem)"))
        }
        return .success(RendererInfo(id: id, name: name, version: version, vendor: vendor, summary: summary,
                                     supportedPositions: Set(Position.positions(in: positions)),
                                     capabilities: Capabilities(rawValue: capabilities),
                                     abiVersion: ABIVersion(packed: abi), origin: .file(path)))
    }

    package struct RecordError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }
}
