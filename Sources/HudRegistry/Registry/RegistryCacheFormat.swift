// SPDX-License-Identifier: MIT
/// The registry cache's text (cacheFormat 1, Docs/DISCOVERY.md "The
/// registry cache"): one compact JSON document,
///
///     {"cacheFormat":1,"key":"…","files":[{"path":…,"device":…,…,"renderers":[…]},…]}
///
/// written straight from the records into one byte buffer (`write`), and
/// read back in ONE pass straight into `PluginRecord`s (`FastReader`),
/// with no `JSONValue` tree: the warm `hudhost list` reads it every run.
/// The fast reader accepts exactly the form `write` produces (members in
/// that order, no whitespace) and gives up at the first byte that differs;
/// the cache then falls back to the general JSON parser, which judges any
/// other valid JSON the same way (same records) and words the reason for
/// discarding a corrupt or foreign file. Both paths build records with the
/// same checks (`PluginRecord.assemble`, `RendererInfo.record`).
enum RegistryCacheFormat {
    /// The whole cache file: `{"cacheFormat","key","files"}` and a newline.
    static func write(key: String, records: [PluginRecord]) -> [UInt8] {
        var writer = JSONWriter(pretty: false, reservingCapacity: 256 + records.count * 480)
        writer.beginObject()
        writer.member("cacheFormat", integer: RegistryCache.formatVersion)
        writer.member("key", key)
        writer.key("files")
        writer.beginArray()
        for record in records {
            writer.element()
            write(record, to: &writer)
        }
        writer.endArray()
        writer.endObject()
        writer.raw("\n")
        return writer.bytes
    }

    /// One file record, members in the order `FastReader` expects.
    static func write(_ r: PluginRecord, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("path", r.path)
        // 64-bit values as strings: JSON numbers are doubles to many readers.
        writer.key("device")
        writer.quotedInteger(r.stamp.device)
        writer.key("inode")
        writer.quotedInteger(r.stamp.inode)
        writer.key("size")
        writer.quotedInteger(r.stamp.size)
        writer.key("mtimeNs")
        writer.quotedInteger(r.stamp.modifiedNanoseconds)
        writer.key("ctimeNs")
        writer.quotedInteger(r.stamp.changedNanoseconds)
        writer.member("buildId", r.buildID)
        writer.member("status", r.status.rawValue)
        writer.member("source", r.source?.rawValue)
        writer.member("failureCode", r.failureCode?.rawValue)
        writer.member("failureReason", r.failureReason)
        writer.key("time")
        writer.quotedInteger(r.time)
        writer.member("validation", r.validation)
        writer.member("trialLoaded", r.trialLoaded)
        writer.member("hostFailures", integer: r.hostFailures)
        writer.key("renderers")
        writer.beginArray()
        for renderer in r.renderers {
            writer.element()
            writer.value(renderer.recordJSON)
        }
        writer.endArray()
        writer.endObject()
    }

    /// Reads a cache file in `write`'s exact form for `key`; nil when the
    /// bytes are in any other form, or for another key or format, or a
    /// record fails its checks (the general parser then decides, and says
    /// why).
    struct FastReader {
        private let bytes: [UInt8]
        private var index = 0
        /// The general parser's limit on one string (`JSONParser.Limits`).
        private static let maxStringBytes = JSONParser.Limits().maxStringBytes

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The records by path; a file that holds a path twice is declined
        /// too.
        mutating func records(key: String) -> [String: PluginRecord]? {
            guard literal(Token.cacheFormat), number(UInt32.self) == UInt32(RegistryCache.formatVersion),
                  literal(Token.key), string() == key, literal(Token.files) else { return nil }
            var records: [String: PluginRecord] = [:]
            if !byte(UInt8(ascii: "]")) {
                repeat {
                    guard let record = record(), records.updateValue(record, forKey: record.path) == nil else { return nil }
                } while byte(UInt8(ascii: ","))
                guard byte(UInt8(ascii: "]")) else { return nil }
            }
            guard byte(UInt8(ascii: "}")) else { return nil }
            while index < bytes.count, bytes[index] == 0x0A || bytes[index] == 0x20 { index += 1 }
            return index == bytes.count ? records : nil
        }

        private mutating func record() -> PluginRecord? {
            guard literal(Token.path), let path = string(),
                  literal(Token.device), let device = quotedInteger(UInt64.self),
                  literal(Token.inode), let inode = quotedInteger(UInt64.self),
                  literal(Token.size), let size = quotedInteger(Int64.self),
                  literal(Token.mtime), let mtime = quotedInteger(Int64.self),
                  literal(Token.ctime), let ctime = quotedInteger(Int64.self),
                  literal(Token.buildID), let buildID = optionalString(),
                  literal(Token.status), let status = status(),
                  literal(Token.source), let source = source(),
                  literal(Token.failureCode), let code = optionalString(),
                  literal(Token.failureReason), let reason = optionalString(),
                  literal(Token.time), let time = quotedInteger(Int64.self),
                  literal(Token.validation), let validation = optionalString(),
                  literal(Token.trialLoaded), let trialLoaded = bool(),
                  literal(Token.hostFailures), let hostFailures = number(UInt32.self),
                  literal(Token.renderers) else { return nil }
            var renderers: [RendererInfo] = []
            if !byte(UInt8(ascii: "]")) {
                repeat {
                    guard let renderer = renderer(path: path) else { return nil }
                    renderers.append(renderer)
                } while byte(UInt8(ascii: ","))
                guard byte(UInt8(ascii: "]")) else { return nil }
            }
            guard byte(UInt8(ascii: "}")) else { return nil }
            return PluginRecord.assemble(path: path, stamp: FileStamp(device: device, inode: inode, size: size, modifiedNanoseconds: mtime,
                                                                      changedNanoseconds: ctime),
                                         buildID: buildID, status: status, renderers: renderers, source: source, failureCode: code,
                                         failureReason: reason, time: time, validation: validation, trialLoaded: trialLoaded,
                                         hostFailures: Int(hostFailures))
        }

        private mutating func renderer(path: String) -> RendererInfo? {
            guard literal(Token.id), let id = string(), literal(Token.name), let name = string(),
                  literal(Token.version), let version = string(), literal(Token.vendor), let vendor = string(),
                  literal(Token.abi), let abi = number(UInt32.self), literal(Token.positions), let positions = number(UInt32.self),
                  literal(Token.capabilities), let capabilities = number(UInt32.self) else { return nil }
            var summary = ""
            if literal(Token.description) {
                guard let text = string() else { return nil }
                summary = text
            }
            // ABI 1.2: a descriptor's picker icon (records of scanned and loaded files).
            var pickerIcon: String?
            if literal(Token.pickerIcon) {
                guard let icon = string(), RendererInfo.pickerIconProblem(icon) == nil else { return nil }
                pickerIcon = icon
            }
            guard byte(UInt8(ascii: "}")),
                  case .success(var info) = RendererInfo.record(id: id, name: name, version: version, vendor: vendor, summary: summary,
                                                                abi: abi, positions: positions, capabilities: capabilities, path: path)
            else { return nil }
            info.pickerIcon = pickerIcon
            return info
        }

        /// The status, matched against the enum's own raw values (no
        /// `String` made for it); any other value: nil.
        private mutating func status() -> PluginRecord.Status? {
            if literal(Token.ok) { return .ok }
            if literal(Token.failed) { return .failed }
            return nil
        }

        /// The metadata source or null: `.some(nil)` for null, nil for a
        /// value that is not one of the enum's raw values.
        private mutating func source() -> MetadataSource?? {
            if literal(Token.null) { return .some(nil) }
            for (token, source) in Token.sources where literal(token) { return .some(source) }
            return nil
        }

        /// The writer's member names and fixed values, as bytes (compared
        /// with the input byte by byte).
        private enum Token {
            static let cacheFormat = Array("{\"cacheFormat\":".utf8)
            static let key = Array(",\"key\":".utf8)
            static let files = Array(",\"files\":[".utf8)
            static let path = Array("{\"path\":".utf8)
            static let device = Array(",\"device\":".utf8)
            static let inode = Array(",\"inode\":".utf8)
            static let size = Array(",\"size\":".utf8)
            static let mtime = Array(",\"mtimeNs\":".utf8)
            static let ctime = Array(",\"ctimeNs\":".utf8)
            static let buildID = Array(",\"buildId\":".utf8)
            static let status = Array(",\"status\":".utf8)
            static let source = Array(",\"source\":".utf8)
            static let failureCode = Array(",\"failureCode\":".utf8)
            static let failureReason = Array(",\"failureReason\":".utf8)
            static let time = Array(",\"time\":".utf8)
            static let validation = Array(",\"validation\":".utf8)
            static let trialLoaded = Array(",\"trialLoaded\":".utf8)
            static let hostFailures = Array(",\"hostFailures\":".utf8)
            static let renderers = Array(",\"renderers\":[".utf8)
            static let id = Array("{\"id\":".utf8)
            static let name = Array(",\"name\":".utf8)
            static let version = Array(",\"version\":".utf8)
            static let vendor = Array(",\"vendor\":".utf8)
            static let abi = Array(",\"abi\":".utf8)
            static let positions = Array(",\"positions\":".utf8)
            static let capabilities = Array(",\"capabilities\":".utf8)
            static let description = Array(",\"description\":".utf8)
            static let pickerIcon = Array(",\"pickerIcon\":".utf8)
            static let null = Array("null".utf8)
            static let `true` = Array("true".utf8)
            static let `false` = Array("false".utf8)
            static let ok = Array(("\"" + PluginRecord.Status.ok.rawValue + "\"").utf8)
            static let failed = Array(("\"" + PluginRecord.Status.failed.rawValue + "\"").utf8)
            static let sources = [MetadataSource.elfSection, .sandboxScan, .builtin].map { (Array(("\"" + $0.rawValue + "\"").utf8), $0) }
        }

        // MARK: - Tokens

        /// Consumes `token` if the input continues with it.
        private mutating func literal(_ token: [UInt8]) -> Bool {
            let end = index + token.count
            guard end <= bytes.count, Self.equal(bytes.span.extracting(index..<end), token.span) else { return false }
            index = end
            return true
        }

        private static func equal(_ a: Span<UInt8>, _ b: Span<UInt8>) -> Bool {
            for offset in b.indices where a[offset] != b[offset] { return false }
            return true
        }

        /// Consumes `value` if it is the next byte.
        private mutating func byte(_ value: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == value else { return false }
            index += 1
            return true
        }

        /// A JSON string. An escape-free run is validated as UTF-8 straight
        /// from the input and copied; escapes are decoded (`\u` only below
        /// 0x80, what the writer produces). A raw control byte, invalid
        /// UTF-8 or an over-long string: nil.
        private mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] >= 0x20, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
            guard end < bytes.count, end - start <= Self.maxStringBytes else { return nil }
            if bytes[end] == UInt8(ascii: "\"") {
                index = end + 1
                guard let text = try? UTF8Span(validating: bytes.span.extracting(start..<end)) else { return nil }
                return String(copying: text)
            }
            guard bytes[end] == UInt8(ascii: "\\") else { return nil }
            return escapedString(from: start, firstEscape: end)
        }

        /// The rest of `string` from its first backslash.
        private mutating func escapedString(from start: Int, firstEscape: Int) -> String? {
            var decoded = Array(bytes[start..<firstEscape])
            var position = firstEscape
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    guard decoded.count <= Self.maxStringBytes else { return nil }
                    index = position + 1
                    return String(validating: decoded, as: UTF8.self)
                }
                guard byte >= 0x20 else { return nil }
                guard byte == UInt8(ascii: "\\") else {
                    decoded.append(byte)
                    position += 1
                    continue
                }
                guard position + 1 < bytes.count else { return nil }
                if let simple = JSONParser.unescaped(bytes[position + 1]) {
                    decoded.append(simple)
                    position += 2
                    continue
                }
                switch bytes[position + 1] {
                case UInt8(ascii: "u"):
                    guard position + 5 < bytes.count else { return nil }
                    var value: UInt32 = 0
                    for digit in bytes[(position + 2)...(position + 5)] {
                        guard let nibble = Self.hexValue(digit) else { return nil }
                        value = value << 4 | nibble
                    }
                    guard value < 0x80 else { return nil }  // the general parser handles the rest
                    decoded.append(UInt8(value))
                    position += 4
                default:
                    return nil
                }
                position += 2
            }
            return nil
        }

        private static func hexValue(_ digit: UInt8) -> UInt32? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(digit - UInt8(ascii: "A") + 10)
            default: nil
            }
        }

        /// A string or null: `.some(nil)` for null, nil for anything else.
        private mutating func optionalString() -> String?? {
            if literal(Token.null) { return .some(nil) }
            guard let text = string() else { return nil }
            return .some(text)
        }

        private mutating func bool() -> Bool? {
            if literal(Token.true) { return true }
            if literal(Token.false) { return false }
            return nil
        }

        /// A JSON number that is a non-negative integer in plain digits (no
        /// fraction, exponent or leading zero) and fits `T`.
        private mutating func number<T: UnsignedInteger & FixedWidthInteger>(_ type: T.Type) -> T? {
            let start = index
            guard let value = digits(T.self) else { return nil }
            if bytes[start] == UInt8(ascii: "0"), index - start > 1 { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
            return value
        }

        /// A decimal integer in a JSON string, as `T(String)` reads it
        /// (an optional '-', then digits), that fits `T`.
        private mutating func quotedInteger<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            guard byte(UInt8(ascii: "\"")) else { return nil }
            let negative = byte(UInt8(ascii: "-"))
            guard !negative || T.isSigned, let magnitude = digits(T.Magnitude.self), byte(UInt8(ascii: "\"")) else { return nil }
            guard negative else { return T(exactly: magnitude) }
            if magnitude == T.min.magnitude { return T.min }
            return T(exactly: magnitude).map { 0 - $0 }
        }

        /// One or more decimal digits whose value fits `T` (an unsigned
        /// type or a magnitude: no sign).
        private mutating func digits<T: UnsignedInteger & FixedWidthInteger>(_ type: T.Type) -> T? {
            var value: T = 0
            var end = index
            while end < bytes.count, bytes[end] &- UInt8(ascii: "0") < 10 {
                let (shifted, over) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = shifted.addingReportingOverflow(T(bytes[end] &- UInt8(ascii: "0")))
                guard !over, !carry else { return nil }
                value = sum
                end += 1
            }
            guard end > index else { return nil }
            index = end
            return value
        }
    }
}

extension JSONWriter {
    /// An integer as a JSON string (`"123"`).
    mutating func quotedInteger(_ value: UInt64) {
        raw("\"")
        integer(value)
        raw("\"")
    }

    mutating func quotedInteger(_ value: Int64) {
        raw("\"")
        integer(value)
        raw("\"")
    }
}

extension PluginRecord {
    /// A record from its fields as stored, or nil when a code or source is
    /// unknown (an enum: never a guess) or the status is. The one place
    /// both cache readers build records.
    static func assemble(path: String, stamp: FileStamp, buildID: String?, status: String, renderers: [RendererInfo],
                         source: String?, failureCode: String?, failureReason: String?, time: Int64, validation: String?,
                         trialLoaded: Bool, hostFailures: Int) -> PluginRecord? {
        guard let status = Status(rawValue: status), let metadataSource = decode(source, as: MetadataSource.self) else { return nil }
        return assemble(path: path, stamp: stamp, buildID: buildID, status: status, renderers: renderers, source: metadataSource,
                        failureCode: failureCode, failureReason: failureReason, time: time, validation: validation,
                        trialLoaded: trialLoaded, hostFailures: hostFailures)
    }

    /// `assemble` with the status and source already matched to their enums.
    static func assemble(path: String, stamp: FileStamp, buildID: String?, status: Status, renderers: [RendererInfo],
                         source metadataSource: MetadataSource?, failureCode: String?, failureReason: String?, time: Int64,
                         validation: String?, trialLoaded: Bool, hostFailures: Int) -> PluginRecord? {
        guard let failureCode = decode(failureCode, as: FailureCode.self) else { return nil }
        var record = PluginRecord(path: path, stamp: stamp, buildID: buildID, status: status, renderers: renderers, source: metadataSource,
                                  failureCode: failureCode, failureReason: failureReason, time: time, validation: validation)
        record.trialLoaded = trialLoaded
        record.hostFailures = hostFailures
        return record
    }

    /// `raw` as `T`: `.some(nil)` for no value, nil for an unknown one.
    private static func decode<T: RawRepresentable>(_ raw: String?, as type: T.Type) -> T?? where T.RawValue == String {
        guard let raw else { return .some(nil) }
        guard let value = T(rawValue: raw) else { return nil }
        return .some(value)
    }
}
