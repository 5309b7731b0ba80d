// SPDX-License-Identifier: MIT
import HudUnsafe
/// The registry cache's text (cacheFormat 1, Docs/DISCOVERY.md "The
/// registry cache"): one compact JSON document,
///
///     {"cacheFormat":1,"key":"…","files":[{"path":…,"device":…,…,"renderers":[…]},…]}
///
/// written straight from the records into one byte buffer (`write`), and
/// read back by the JSON parser (`RegistryCache.parse`), which accepts any
/// valid JSON of the same schema and words the reason for discarding a
/// corrupt or foreign file.
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

    /// One file record.
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
            renderer.writeRecord(to: &writer)
        }
        writer.endArray()
        writer.endObject()
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
    /// A record from its fields as stored, or nil when the status, a code or
    /// the source is unknown (an enum: never a guess).
    static func assemble(path: String, stamp: FileStamp, buildID: String?, status: String, renderers: [RendererInfo],
                         source: String?, failureCode: String?, failureReason: String?, time: Int64, validation: String?,
                         trialLoaded: Bool, hostFailures: Int) -> PluginRecord? {
        guard let status = Status(rawValue: status), let metadataSource = decode(source, as: MetadataSource.self),
              let failureCode = decode(failureCode, as: FailureCode.self) else { return nil }
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
