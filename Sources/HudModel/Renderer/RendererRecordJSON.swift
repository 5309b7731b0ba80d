// SPDX-License-Identifier: MIT
/// A renderer description as a JSON record — what the registry cache
/// stores and what a sandboxed scan child replies — one encoding read and
/// written by both: `{"id", "name", "version", "vendor", "abi" (packed),
/// "positions" (bit mask), "capabilities" (bits), "description" (optional:
/// metadata sections do not carry it), "pickerIcon" (optional: ABI 1.2
/// descriptors only)}`.
extension RendererInfo {
    package var recordJSON: JSONValue {
        .object([("id", .string(id)), ("name", .string(name)), ("version", .string(version)), ("vendor", .string(vendor)),
                 ("abi", .number(Double(abiVersion.packed))), ("positions", .number(Double(Position.mask(supportedPositions)))),
                 ("capabilities", .number(Double(capabilities.rawValue)))] + (summary.isEmpty ? [] : [("description", .string(summary))])
                + (pickerIcon.map { [("pickerIcon", JSONValue.string($0))] } ?? []))
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
        var pickerIcon: String?
        switch json["pickerIcon"] {
        case nil: break
        case .string(let icon)?:
            if let problem = pickerIconProblem(icon) {
                return .failure(RecordError(description: "renderer '\(TextChecks.escapingControls(id))': pickerIcon \(problem)"))
            }
            pickerIcon = icon
        default: return .failure(RecordError(description: "a malformed renderer description"))
        }
        return record(id: id, name: name, version: version, vendor: vendor, summary: json["description"]?.stringValue ?? "",
                      abi: abi, positions: positions, capabilities: capabilities, path: path).map {
            var info = $0
            info.pickerIcon = pickerIcon
            return info
        }
    }

    /// A record's fields as a description of a renderer in the file at
    /// `path`, judged by the same rules as a metadata record
    /// (`recordProblem`); the failure says why not. The one place records
    /// read by any reader (a JSON tree, the registry cache's one-pass
    /// reader) become `RendererInfo`.
    package static func record(id: String, name: String, version: String, vendor: String, summary: String,
                               abi: UInt32, positions: UInt32, capabilities: UInt32, path: String) -> Result<RendererInfo, RecordError> {
        guard summary.utf8.count <= ABILimits.maxDescriptionBytes else {
            return .failure(RecordError(description: "renderer '\(TextChecks.escapingControls(id))': description is over \(ABILimits.maxDescriptionBytes) bytes"))
        }
        if let problem = recordProblem(id: id, name: name, version: version, vendor: vendor, summary: summary,
                                       positions: positions, abi: ABIVersion(packed: abi)) {
            return .failure(RecordError(description: "renderer '\(TextChecks.escapingControls(id))': \(problem)"))
        }
        return .success(RendererInfo(id: id, name: name, version: version, vendor: vendor, summary: summary,
                                     supportedPositions: Position.set(in: positions),
                                     capabilities: Capabilities(rawValue: capabilities),
                                     abiVersion: ABIVersion(packed: abi), origin: .file(path)))
    }

    package struct RecordError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }
}
