// SPDX-License-Identifier: MIT
/// One renderer's description: what its descriptor says once loaded, or
/// what its file's `.hud_renderers` metadata record says without running it
/// (then `summary` is empty: records carry no description). The one type
/// for both, so what `list` shows and what loads compare field by field.
/// No C types, no pointers.
public struct RendererInfo: Sendable, Hashable {
    public var id: String
    public var name: String
    public var version: String
    public var vendor: String
    public var summary: String
    public var supportedPositions: Set<Position>
    public var capabilities: Capabilities
    /// The ABI version the plugin was built with.
    public var abiVersion: ABIVersion
    public var origin: Origin
    /// The icon a style picker shows for this renderer (ABI 1.2 descriptor
    /// `picker_icon`); nil when the renderer names none (every 1.0 and 1.1
    /// renderer), and in metadata records, which do not carry it.
    public var pickerIcon: String?

    public init(id: String, name: String, version: String, vendor: String, summary: String,
                supportedPositions: Set<Position>, capabilities: Capabilities, abiVersion: ABIVersion, origin: Origin,
                pickerIcon: String? = nil) {
        self.id = id
        self.name = name
        self.version = version
        self.vendor = vendor
        self.summary = summary
        self.supportedPositions = supportedPositions
        self.capabilities = capabilities
        self.abiVersion = abiVersion
        self.origin = origin
        self.pickerIcon = pickerIcon
    }

    /// Why `icon` cannot be a picker icon (1...`HUD_MAX_ICON_BYTES` bytes,
    /// no control characters), or nil.
    package static func pickerIconProblem(_ icon: String) -> String? {
        if icon.isEmpty { return "is empty; leave it NULL for the host's default icon" }
        if icon.utf8.count > ABILimits.maxIconBytes { return "is over \(ABILimits.maxIconBytes) bytes" }
        if TextChecks.firstControlCharacter(in: icon) != nil { return "contains a control character" }
        return nil
    }

    /// Why `id` is not a valid renderer id, or nil if it is: only
    /// [a-z0-9.-], at least two labels, none empty, none starting or ending
    /// with '-'. One pass over the UTF-8 bytes; a character outside the set
    /// is named first, wherever it is, then the other problems in that order.
    package static func idProblem(_ id: String) -> String? {
        var labels = 1
        var labelLength = 0
        var previous: UInt8 = 0
        var emptyLabel = false
        var dashAtEdge = false
        let span = id.utf8.span
        for index in span.indices {
            let byte = span[index]
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                labelLength += 1
            case UInt8(ascii: "-"):
                if labelLength == 0 { dashAtEdge = true }
                labelLength += 1
            case UInt8(ascii: "."):
                if labelLength == 0 { emptyLabel = true } else if previous == UInt8(ascii: "-") { dashAtEdge = true }
                labels += 1
                labelLength = 0
            default:
                // Named as a whole character (a letter with its accent).
                let bad = id.first { !($0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "-")) } ?? "?"
                return "'\(id)' contains '\(bad)'; ids are reverse-DNS in lowercase [a-z0-9.-], e.g. com.example.ring"
            }
            previous = byte
        }
        if labelLength == 0 { emptyLabel = true } else if previous == UInt8(ascii: "-") { dashAtEdge = true }
        if labels < 2 { return "'\(id)' has no '.'; ids are reverse-DNS, e.g. com.example.ring" }
        if emptyLabel { return "'\(id)' has an empty label (a leading, trailing or doubled '.')" }
        if dashAtEdge { return "'\(id)' has a label that starts or ends with '-'" }
        return nil
    }

    /// Why a renderer description that did not come from a loaded
    /// descriptor (an ELF metadata record, a sandboxed child's reply) could
    /// not describe a renderer this host loads, or nil. Such a record is
    /// what `list` shows without running the plugin, so it obeys the same
    /// rules as a descriptor: a valid id, printable text, at least one and
    /// only known positions, the host's ABI major.
    package static func recordProblem(id: String, name: String, version: String, vendor: String, summary: String,
                                      positions: UInt32, abi: ABIVersion) -> String? {
        if let problem = idProblem(id) { return "id \(problem)" }
        if let problem = textProblem("name", name) ?? textProblem("version", version) ?? textProblem("vendor", vendor)
            ?? textProblem("description", summary) {
            return problem
        }
        return numbersProblem(positions: positions, abi: abi)
    }

    private static func textProblem(_ field: String, _ value: String) -> String? {
        guard let control = TextChecks.firstControlCharacter(in: value) else { return nil }
        return "\(field) has a control character at byte \(control); descriptor text must be printable"
    }

    private static func numbersProblem(positions: UInt32, abi: ABIVersion) -> String? {
        guard positions != 0, positions & ~Position.allMask == 0 else {
            return "supported_positions 0x\(String(positions, radix: 16)) is empty or has unknown bits; only the five position bits (0x1f) exist"
        }
        guard abi.isLoadable() else { return "built for ABI \(abi); this host speaks \(ABIVersion.host) and majors must match" }
        return nil
    }

    /// Where a renderer came from.
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        /// Linked into the host (the entry pointer is a linked symbol).
        case builtin
        /// Loaded from a shared object (the entry pointer came from dlsym).
        case file(String)

        public var description: String {
            switch self {
            case .builtin: "built-in"
            case .file(let path): path
            }
        }
    }

    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Layout may be called from several threads at once.
        public static let threadSafe = Capabilities(rawValue: 0x1)
        /// RTL is deliberately not the mirror of LTR.
        public static let rtlNotMirrored = Capabilities(rawValue: 0x2)

        /// Names of the known flags, plus `0x…` for unknown bits.
        public var names: [String] {
            var names: [String] = []
            if contains(.threadSafe) { names.append("thread-safe") }
            if contains(.rtlNotMirrored) { names.append("rtl-not-mirrored") }
            let unknown = rawValue & ~(Capabilities.threadSafe.rawValue | Capabilities.rtlNotMirrored.rawValue)
            if unknown != 0 { names.append("0x" + String(unknown, radix: 16)) }
            return names
        }
    }
}
