// SPDX-License-Identifier: MIT

// A renderer's ELF metadata record against the descriptor its entry
// returns: the catalog lists the record, the loader and the renderer host
// hold the descriptor to it.

extension RendererInfo {
    /// Each field in which this renderer's descriptor differs from the
    /// metadata record listed for it, described (empty when they agree).
    package func differences(fromRecord record: RendererInfo) -> [String] {
        let positions = Position.mask(supportedPositions), recorded = Position.mask(record.supportedPositions)
        return [
            record.name != name ? "name (metadata '\(record.name)', descriptor '\(name)')" : nil,
            record.version != version ? "version (metadata '\(record.version)', descriptor '\(version)')" : nil,
            record.vendor != vendor ? "vendor (metadata '\(record.vendor)', descriptor '\(vendor)')" : nil,
            recorded != positions ? "supported_positions (metadata 0x\(String(recorded, radix: 16)), descriptor 0x\(String(positions, radix: 16)))" : nil,
            record.capabilities != capabilities ? "capabilities (metadata 0x\(String(record.capabilities.rawValue, radix: 16)), descriptor 0x\(String(capabilities.rawValue, radix: 16)))" : nil,
            // A plugin rebuilt unchanged against a newer SDK reports the
            // header's newer minor from its entry while its record may name
            // the one it was written for: consistent (Docs/COMPATIBILITY.md).
            // Another major, or a record newer than its entry, is not.
            !Self.recordAgrees(record.abiVersion, withEntry: abiVersion)
                ? "ABI version (metadata \(record.abiVersion), entry \(abiVersion); a record may name an older minor of its entry's major, never a newer minor or another major)" : nil,
        ].compactMap { $0 }
    }

    /// Whether a metadata record's ABI version agrees with its entry's: the
    /// same major and a minor no newer than the entry's.
    package static func recordAgrees(_ record: ABIVersion, withEntry entry: ABIVersion) -> Bool {
        record.major == entry.major && record.minor <= entry.minor
    }
}
