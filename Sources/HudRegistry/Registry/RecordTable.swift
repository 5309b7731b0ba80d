// SPDX-License-Identifier: MIT

/// The registry cache's records by path (`RegistryCache`).
///
/// Read from this host's own form of the cache file, the records stay in
/// the file's order — sorted by path, each path once, which the reader
/// checks — and a lookup walks that order: a warm `hudhost list` asks for
/// its files in the same sorted order, so each lookup is one comparison
/// with the record after the last one found (a binary search otherwise),
/// and no path is hashed and no table built. The first change builds the
/// dictionary by path, which a file in any other form is read into from
/// the start.
struct RecordTable: Sendable, Equatable {
    /// The records in strictly increasing path order, until the first
    /// change (then empty).
    private var ordered: [PluginRecord] = []
    /// The records by path: after the first change, or from the start for
    /// a file the general parser read.
    private var byPath: [String: PluginRecord]?
    /// Where in `ordered` the next lookup in order is expected.
    private var next = 0

    init(_ records: [String: PluginRecord] = [:]) { byPath = records }

    /// `records` in strictly increasing path order (String `<`: the order
    /// `RegistryCacheFormat.write` gets them in).
    init(inPathOrder records: [PluginRecord]) { ordered = records }

    var count: Int { byPath?.count ?? ordered.count }

    /// Every record, sorted by path.
    var inPathOrder: [PluginRecord] { byPath.map { $0.values.sorted { $0.path < $1.path } } ?? ordered }

    /// Every record by its path.
    var dictionary: [String: PluginRecord] { byPath ?? Dictionary(uniqueKeysWithValues: ordered.map { ($0.path, $0) }) }

    var paths: [String] { byPath.map { Array($0.keys) } ?? ordered.map(\.path) }

    /// The record for `path`. Getting it moves the in-order position on (so
    /// the getter is `mutating`); setting one builds the dictionary.
    subscript(path: String) -> PluginRecord? {
        mutating get {
            if let byPath { return byPath[path] }
            if next < ordered.count, ordered[next].path == path {
                next += 1
                return ordered[next - 1]
            }
            var low = 0
            var high = ordered.count
            while low < high {
                let middle = low + (high - low) / 2
                if ordered[middle].path < path { low = middle + 1 } else { high = middle }
            }
            guard low < ordered.count, ordered[low].path == path else { return nil }
            next = low + 1
            return ordered[low]
        }
        set {
            // The table by path is built once, at the first change, and then
            // changed in place: a copy of it per change (a local `var`
            // while `byPath` still held it) made a cold `list` of 10,000
            // files quadratic (21 s).
            if byPath == nil {
                byPath = dictionary
                ordered = []
                next = 0
            }
            byPath![path] = newValue
        }
    }

    static func == (a: RecordTable, b: RecordTable) -> Bool { a.dictionary == b.dictionary }
}
