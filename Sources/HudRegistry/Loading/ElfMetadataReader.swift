// SPDX-License-Identifier: MIT
import Glibc
import HudSystem

/// What the ELF file itself says, without loading it.
public struct PluginFileMetadata: Sendable, Hashable {
    /// The renderers in the metadata section (empty when there is none).
    public var renderers: [RendererInfo]
    /// False when the file has no `.hud_renderers` section: it must be
    /// scanned (run in a sandbox) to learn what it provides.
    public var hasMetadataSection: Bool
    /// The GNU build-id as lowercase hex, when the file has one.
    public var buildID: String?
}

/// Why a file's ELF structure or metadata could not be read.
public struct ElfError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One of the ELF codes of `FailureCode` (`notELF`, `truncated`, ... `badMetadata`).
    public var kind: FailureCode
    public var reason: String
    public var description: String { reason }
}

/// A small, bounds-checked ELF64 reader over `pread` on an open file: it
/// finds the section headers, the section-name table, the metadata section
/// and the build-id note, and nothing else. No `mmap`, no `dlopen`; every
/// offset and size is checked against the file size before it is read.
package enum ElfMetadataReader {
    static let sectionName = HudMetadataFormat.sectionName
    /// Refuse to read more than this for any one table or section.
    static let maxTableBytes = 1 << 20

    #if arch(x86_64)
    static let hostMachine: UInt16 = 62   // EM_X86_64
    #elseif arch(arm64)
    static let hostMachine: UInt16 = 183  // EM_AARCH64
    #else
    static let hostMachine: UInt16 = 0
    #endif

    /// Reads the metadata of the open file `fd` of `size` bytes.
    static func read(file handle: ReadOnlyFile, size: Int, path: String) throws(ElfError) -> PluginFileMetadata {
        let file = File(handle: handle, size: size)
        let magic = try file.bytes(at: 0, count: min(4, size), what: "the ELF magic")
        guard magic == [0x7F, 0x45, 0x4C, 0x46] else {
            throw ElfError(kind: .notELF, reason: "not an ELF file (no \\x7FELF magic)")
        }
        let header = try file.bytes(at: 0, count: 64, what: "the ELF header")
        guard header[4] == 2 else { throw ElfError(kind: .wrongClass, reason: "a 32-bit ELF file; this host loads 64-bit shared objects") }
        guard header[5] == 1 else { throw ElfError(kind: .wrongClass, reason: "a big-endian ELF file; this host is little-endian") }
        let type = header.u16(16)
        let machine = header.u16(18)
        guard machine == hostMachine else {
            throw ElfError(kind: .wrongMachine, reason: "built for ELF machine \(machine) (\(Self.machineName(machine))); this host is \(Self.machineName(hostMachine))")
        }
        guard type == 3 else { throw ElfError(kind: .notSharedObject, reason: "ELF type \(type) is not a shared object (ET_DYN)") }
        let namesIndex = Int(header.u16(62))
        guard let sections = try SectionHeaders(file, header: header) else {
            return PluginFileMetadata(renderers: [], hasMetadataSection: false, buildID: nil)
        }
        let count = sections.count
        guard namesIndex < count else { throw ElfError(kind: .corrupt, reason: "section-name table index \(namesIndex) is out of range") }
        let section = sections.entry
        let names = section(namesIndex)
        let nameTable = try file.bytes(at: names.offset, count: names.size, what: "the section-name table")
        var metadata: [UInt8]?
        var buildID: String?
        for index in 0..<count {
            let entry = section(index)
            guard entry.type != 8 else { continue }  // SHT_NOBITS has no bytes in the file
            let name = nameTable.cString(at: entry.name)
            if name == ".interp" {
                // ET_DYN covers both shared libraries and position-independent
                // executables; only an executable asks for a program
                // interpreter. Loading one would run a program, not a plugin.
                throw ElfError(kind: .executable, reason: "\(path) is a position-independent executable (it has an .interp section), not a shared library; build the plugin with -shared")
            }
            if name == sectionName {
                metadata = try file.bytes(at: entry.offset, count: entry.size, what: "the \(sectionName) section")
            } else if name == ".note.gnu.build-id", entry.size <= 4096 {
                buildID = Self.buildID(try file.bytes(at: entry.offset, count: entry.size, what: "the build-id note"))
            }
        }
        guard let metadata else { return PluginFileMetadata(renderers: [], hasMetadataSection: false, buildID: buildID) }
        return PluginFileMetadata(renderers: try HudMetadataFormat.parse(metadata, path: path), hasMetadataSection: true, buildID: buildID)
    }

    /// Opens `path` read-only without following a final symlink, and reads it.
    static func read(path: String) throws(ElfError) -> PluginFileMetadata {
        let file: ReadOnlyFile
        switch ReadOnlyFile.open(path, noFollow: true) {
        case .success(let opened): file = opened
        case .failure(let error): throw ElfError(kind: .io, reason: "cannot open \(path): \(error)")
        }
        switch file.status() {
        case .success(let info): return try read(file: file, size: Int(info.size), path: path)
        case .failure(let error): throw ElfError(kind: .io, reason: "cannot stat \(path): \(error)")
        }
    }

    /// The descriptor bytes of an NT_GNU_BUILD_ID note, as hex.
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func buildID(_ note: [UInt8]) -> String? {
        guard note.count >= 16 else { return nil }
        let nameSize = Int(note.u32(0)), descSize = Int(note.u32(4)), type = note.u32(8)
        let descOffset = 12 + ((nameSize + 3) & ~3)
        guard type == 3, nameSize == 4, descSize > 0, descSize <= 64, descOffset + descSize <= note.count else { return nil }
        // Two ASCII digits per byte into one buffer, one String at the end
        // (not an array of two Characters per byte).
        var hex: [UInt8] = []
        hex.reserveCapacity(descSize * 2)
        for byte in note[descOffset..<(descOffset + descSize)] {
            hex.append(Self.hexDigits[Int(byte >> 4)])
            hex.append(Self.hexDigits[Int(byte & 15)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The libraries `path` links through its own search path (the
    /// entries of its `DT_RUNPATH` or `DT_RPATH`, `$ORIGIN` expanded to the
    /// file's directory, the system's trees left out: those are readable
    /// anyway), each found as the loader would, first entry first, and
    /// theirs in turn (at most `limit` files in all): canonical paths, the
    /// file itself excluded, only ELF64 files (the name of anything else
    /// would only make the loader fail). A sandboxed child may read these
    /// and nothing else beside the plugin or in those directories
    /// (Docs/ISOLATION.md): a static helper has no Swift runtime of its
    /// own to open the way to the toolchain's, so a SwiftPM-built plugin's
    /// `libswiftCore.so` comes through here. A file whose dynamic section
    /// cannot be read contributes nothing: the loader then fails on it in
    /// the child, with its own error.
    static func linkedDependencies(of path: String, excluding systemTrees: [String], limit: Int = 64) -> [String] {
        linkedFiles(of: path, excluding: systemTrees, limit: limit).dropFirst().map(\.path)
    }

    /// One file of `linkedFiles`: its canonical path and dynamic section.
    typealias LinkedFile = (path: String, needed: [String], searchPaths: [String])

    /// `path` (first) and the libraries `linkedDependencies` names, each
    /// with the `DT_NEEDED` names and `DT_RUNPATH`/`DT_RPATH` strings read
    /// from it once; empty when `path`'s own dynamic section cannot be read.
    static func linkedFiles(of path: String, excluding systemTrees: [String], limit: Int = 64) -> [LinkedFile] {
        func isSystem(_ directory: String) -> Bool {
            systemTrees.contains { directory == $0 || directory.hasPrefix($0 + "/") }
        }
        var seen: Set<String> = [path]
        // Each file's dynamic section is read once: when it is found (the
        // read is also the ELF check), then kept in the queue for its own
        // dependencies.
        guard let first = try? dynamicEntries(path: path) else { return [] }
        var found: [LinkedFile] = [(path, first.needed, first.searchPaths)]
        var queue = found
        while let next = queue.popLast(), found.count <= limit {  // the file itself and `limit` libraries
            let directory = PathSecurity.parent(of: next.path)
            let entries = next.searchPaths.flatMap { $0.split(separator: ":") }.compactMap { entry -> String? in
                let expanded = String(entry).replacingEvery("${ORIGIN}", with: directory).replacingEvery("$ORIGIN", with: directory)
                return expanded.hasPrefix("/") && !isSystem(expanded) ? expanded : nil
            }
            for name in next.needed where !name.contains("/") {
                for entry in entries {
                    guard case .success(let canonical) = SystemCalls.realPath(entry + "/" + name),
                          case .success(let info) = SystemCalls.status(of: canonical), info.isRegularFile else { continue }
                    // Found: the loader stops here (a system file is readable anyway).
                    if isSystem(PathSecurity.parent(of: canonical)) || seen.contains(canonical) { break }
                    guard let linked = try? dynamicEntries(path: canonical) else { continue }
                    seen.insert(canonical)
                    if found.count <= limit {
                        found.append((canonical, linked.needed, linked.searchPaths))
                        queue.append((canonical, linked.needed, linked.searchPaths))
                    }
                    break
                }
            }
        }
        return found
    }

    /// `DT_NEEDED` names and `DT_RUNPATH`/`DT_RPATH` strings of the ELF64
    /// file at `path`, from its `SHT_DYNAMIC` section and the string table
    /// that section links.
    static func dynamicEntries(path: String) throws(ElfError) -> (needed: [String], searchPaths: [String]) {
        guard let (entries, names) = try linkedSection(type: 6, of: path, what: "the dynamic section") else { return ([], []) }
        var needed: [String] = [], searchPaths: [String] = []
        for base in stride(from: 0, to: entries.count - 15, by: 16) {
            let tag = entries.u64(base), value = Int(clamping: entries.u64(base + 8))
            switch tag {
            case 0: return (needed, searchPaths)  // DT_NULL
            case 1: needed.append(names.cString(at: value))  // DT_NEEDED
            case 15, 29: searchPaths.append(names.cString(at: value))  // DT_RPATH, DT_RUNPATH
            default: continue
            }
        }
        return (needed, searchPaths)
    }

    /// The names of the ELF64 file's undefined global (not weak) dynamic
    /// symbols: what the loader must find elsewhere for it to run. From its
    /// `SHT_DYNSYM` section and the string table that section links.
    package static func undefinedSymbols(path: String) throws(ElfError) -> [String] {
        guard let (table, names) = try linkedSection(type: 11, of: path, what: "the dynamic symbol table") else { return [] }
        var undefined: [String] = []
        // Elf64_Sym: st_name u32, st_info u8, st_other u8, st_shndx u16, st_value u64, st_size u64.
        for base in stride(from: 0, to: table.count - 23, by: 24) {
            let name = Int(table.u32(base)), binding = table[base + 4] >> 4, section = table.u16(base + 6)
            guard section == 0, binding == 1, name > 0, name < names.count else { continue }  // SHN_UNDEF, STB_GLOBAL
            undefined.append(names.cString(at: name))
        }
        return undefined
    }

    /// The bytes of the first section of `type` in the ELF64 file at
    /// `path` and of the string table it links (nil when it has none).
    private static func linkedSection(type: UInt32, of path: String, what: String) throws(ElfError) -> (section: [UInt8], strings: [UInt8])? {
        let handle: ReadOnlyFile
        switch ReadOnlyFile.open(path, noFollow: false) {
        case .success(let opened): handle = opened
        case .failure(let error): throw ElfError(kind: .io, reason: "cannot open \(path): \(error)")
        }
        guard case .success(let info) = handle.status() else { throw ElfError(kind: .io, reason: "cannot stat \(path)") }
        let file = File(handle: handle, size: Int(info.size))
        let header = try file.bytes(at: 0, count: 64, what: "the ELF header")
        guard header.prefix(4) == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else {
            throw ElfError(kind: .notELF, reason: "not a little-endian ELF64 file")
        }
        guard let sections = try SectionHeaders(file, header: header),
              let found = (0..<sections.count).map(sections.entry).first(where: { $0.type == type }), found.link < sections.count else { return nil }
        let strings = sections.entry(found.link)
        return (try file.bytes(at: found.offset, count: found.size, what: what),
                try file.bytes(at: strings.offset, count: strings.size, what: "the string table of " + what))
    }

    static func machineName(_ machine: UInt16) -> String {
        switch machine {
        case 3: "x86 (32-bit)"
        case 40: "ARM (32-bit)"
        case 62: "x86-64"
        case 183: "AArch64"
        case 243: "RISC-V"
        default: "machine \(machine)"
        }
    }

    /// The section header table of an ELF64 file (nil when it has none).
    private struct SectionHeaders {
        let count: Int
        private let entrySize: Int
        private let table: [UInt8]

        init?(_ file: File, header: [UInt8]) throws(ElfError) {
            count = Int(header.u16(60))
            entrySize = Int(header.u16(58))
            guard count > 0 else { return nil }
            guard entrySize >= 64 else { throw ElfError(kind: .corrupt, reason: "section header entries of \(entrySize) bytes; ELF64 needs 64") }
            table = try file.bytes(at: Int(clamping: header.u64(40)), count: entrySize * count, what: "the section headers")
        }

        func entry(_ index: Int) -> (name: Int, type: UInt32, offset: Int, size: Int, link: Int) {
            let base = index * entrySize
            return (Int(table.u32(base)), table.u32(base + 4), Int(clamping: table.u64(base + 24)), Int(clamping: table.u64(base + 32)),
                    Int(table.u32(base + 40)))
        }
    }

    /// Bounded reads from the file.
    private struct File {
        let handle: ReadOnlyFile
        let size: Int

        func bytes(at offset: Int, count: Int, what: String) throws(ElfError) -> [UInt8] {
            guard offset >= 0, count >= 0, count <= ElfMetadataReader.maxTableBytes,
                  offset <= size, count <= size - offset else {
                throw ElfError(kind: .truncated, reason: "\(what) (\(count) bytes at offset \(offset)) lies outside the \(size)-byte file")
            }
            switch handle.read(at: offset, count: count) {
            case .success(let bytes): return bytes
            case .failure(let error):
                throw ElfError(kind: .io, reason: "reading \(what) failed: \(error.code == 0 ? "unexpected end of file" : error.description)")
            }
        }
    }
}

/// The `hud_renderer_metadata_t` record format, parsed from raw bytes.
enum HudMetadataFormat {
    static let sectionName = ABILimits.metadataSectionName
    static let magic: [UInt8] = Array("HUDMETA1".utf8)
    static let recordSize = 408
    static let fields: [(name: String, offset: Int, size: Int, limit: Int)] = [
        ("id", 24, 72, 64), ("name", 96, 136, 128), ("version", 232, 40, 32), ("vendor", 272, 136, 128),
    ]

    /// Parses back-to-back records, skipping zero padding between them.
    static func parse(_ bytes: [UInt8], path: String) throws(ElfError) -> [RendererInfo] {
        var records: [RendererInfo] = []
        var offset = 0
        while offset < bytes.count {
            if bytes[offset] == 0 {
                offset += 1
                continue
            }
            guard bytes.count - offset >= 16, Array(bytes[offset..<(offset + 8)]) == magic else {
                throw ElfError(kind: .badMetadata, reason: "metadata section: no HUDMETA1 record at byte \(offset)")
            }
            let size = Int(bytes.u32(offset + 8))
            guard size >= recordSize, size <= 65536, bytes.count - offset >= size else {
                throw ElfError(kind: .badMetadata, reason: "metadata record at byte \(offset) has size \(size); a record is at least \(recordSize) bytes and must fit in the section")
            }
            var strings: [String] = []
            for field in fields {
                let slice = bytes[(offset + field.offset)..<(offset + field.offset + field.size)]
                guard let end = slice.firstIndex(of: 0), end - slice.startIndex <= field.limit else {
                    throw ElfError(kind: .badMetadata, reason: "metadata record at byte \(offset): \(field.name) is not NUL-terminated within \(field.limit) bytes")
                }
                guard let text = String(validating: slice[slice.startIndex..<end], as: UTF8.self) else {
                    throw ElfError(kind: .badMetadata, reason: "metadata record at byte \(offset): \(field.name) is not valid UTF-8")
                }
                strings.append(text)
            }
            let positions = bytes.u32(offset + 16), packedVersion = bytes.u32(offset + 12)
            if let problem = RendererInfo.recordProblem(id: strings[0], name: strings[1], version: strings[2], vendor: strings[3], summary: "",
                                                        positions: positions, abi: ABIVersion(packed: packedVersion)) {
                throw ElfError(kind: .badMetadata, reason: "metadata record at byte \(offset): \(problem)")
            }
            records.append(RendererInfo(
                id: strings[0], name: strings[1], version: strings[2], vendor: strings[3], summary: "",
                supportedPositions: Set(Position.positions(in: positions)),
                capabilities: RendererInfo.Capabilities(rawValue: bytes.u32(offset + 20)),
                abiVersion: ABIVersion(packed: packedVersion), origin: .file(path)))
            guard records.count <= Int(ABILimits.maxRenderers) else {
                throw ElfError(kind: .badMetadata, reason: "more than \(ABILimits.maxRenderers) metadata records")
            }
            offset += size
        }
        return records
    }
}

extension Array where Element == UInt8 {
    /// Little-endian reads; callers have bounds-checked the array.
    func u16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(self[at + $1]) << (8 * UInt32($1)) } }
    func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(self[at + $1]) << (8 * UInt64($1)) } }

    /// The NUL-terminated string at `at` (empty when out of range).
    func cString(at: Int) -> String {
        guard at >= 0, at < count else { return "" }
        let end = self[at...].firstIndex(of: 0) ?? count
        return String(decoding: self[at..<end], as: UTF8.self)
    }
}
