// SPDX-License-Identifier: MIT
import Glibc
import HudRendererAPI

/// What VoiceOver should say for an icon when a slot, chip or mode has no
/// label: the icon's spoken name ("List" for `list.bullet`), never the raw
/// symbol name (Hudson's tokens sheet, "accessibility").
///
/// Common symbols come from `table`; any other name is turned into words:
/// trailing modifiers (`fill`, `circle`, `square`, `filled`) are dropped
/// while something is left, dots become spaces, `2x2` becomes `2×2`, and
/// the first letter is capitalised (`square.grid.2x2.fill` → "Square grid
/// 2×2"). The built-ins are written against the C ABI only, so this lives
/// here (the shell's control deck, which draws top-lane slots itself, uses
/// `words(for:)` through a package import); the conformance check (`a11y-labels`) only needs to recognise a
/// raw symbol name, which it does on its own.
package enum SpokenSymbolName {
    /// Spoken names of common SF Symbols, by base name (modifiers removed).
    static let table: [String: StaticString] = [
        "list.bullet": "List", "list.dash": "List", "trash": "Delete", "bell": "Notifications",
        "bell.badge": "Notifications", "bell.slash": "Notifications off", "info": "Info", "info.circle": "Info",
        "paintbrush": "Paint brush", "gear": "Settings", "gearshape": "Settings", "gearshape.2": "Settings",
        "magnifyingglass": "Search", "plus": "Add", "plus.circle": "Add", "minus": "Remove",
        "square.and.arrow.up": "Share", "square.and.arrow.down": "Save", "house": "Home",
        "person": "Profile", "person.crop.circle": "Profile", "person.circle": "Profile", "star": "Favorite",
        "heart": "Like", "xmark": "Close", "checkmark": "Done", "ellipsis": "More", "ellipsis.circle": "More",
        "pencil": "Edit", "square.and.pencil": "Compose", "envelope": "Mail", "message": "Messages",
        "bubble.left": "Comment", "bookmark": "Bookmark", "folder": "Folder", "doc": "Document",
        "camera": "Camera", "photo": "Photo", "mic": "Microphone", "play": "Play", "pause": "Pause",
        "stop": "Stop", "arrow.clockwise": "Refresh", "arrow.counterclockwise": "Undo",
        "line.3.horizontal": "Menu", "line.3.horizontal.decrease": "Filter", "slider.horizontal.3": "Adjust",
        "questionmark": "Help", "questionmark.circle": "Help", "lock": "Locked", "lock.open": "Unlocked",
        "eye": "Show", "eye.slash": "Hide", "calendar": "Calendar", "clock": "Clock", "map": "Map",
        "location": "Location", "cart": "Cart",
    ]

    /// Trailing components that only change how the glyph is drawn.
    static let modifiers: Set<Substring> = ["fill", "circle", "square", "filled"]

    /// The spoken name of `symbol` (nil when it is empty or only dots).
    package static func words(for symbol: String) -> String? {
        var parts = symbol.split(separator: ".", omittingEmptySubsequences: true)
        if let exact = table[symbol] { return exact.description }
        while parts.count > 1, let last = parts.last, modifiers.contains(last) {
            parts.removeLast()
            if let named = table[parts.joined(separator: ".")] { return named.description }
        }
        guard !parts.isEmpty else { return nil }
        let text = parts.map { part in
            // A grid size such as `2x2` reads as "2×2".
            let sides = part.split(separator: "x", omittingEmptySubsequences: false)
            return sides.count == 2 && sides.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ? sides.joined(separator: "×") : String(part)
        }.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// At most this many names are kept (a plugin host may send any icon);
    /// past it, callers use their own generic label.
    static let capacity = 512

    /// Spoken names made so far, as NUL-terminated C strings that live as
    /// long as the library: node strings must have static lifetime.
    /// `nonisolated(unsafe)`: only touched while `internedLock` is held.
    nonisolated(unsafe) private static var interned: [String: UnsafeMutablePointer<CChar>] = unsafe [:]
    /// A pthread mutex, not `Synchronization.Mutex`: parallel layouts
    /// contend here, and a contended Mutex locks in the kernel where
    /// ThreadSanitizer cannot see it (Docs/RELIABILITY.md). Never freed.
    nonisolated(unsafe) private static let internedLock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        unsafe lock.initialize(to: pthread_mutex_t())
        unsafe pthread_mutex_init(lock, nil)
        return unsafe lock
    }()

    /// The spoken name of the C string `symbol`, as a C string of static
    /// lifetime, or nil (empty name, or the cache is full).
    static func cString(for symbol: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        let name = unsafe String(cString: symbol)
        if let exact = table[name] { return unsafe LayoutRequest.cString(exact) }
        unsafe pthread_mutex_lock(internedLock)
        defer { unsafe pthread_mutex_unlock(internedLock) }
        if let known = unsafe interned[name] { return unsafe UnsafePointer(known) }
        guard unsafe interned.count < capacity, let spoken = words(for: name) else { return nil }
        let utf8 = Array(spoken.utf8.prefix(Int(HUD_MAX_LABEL_BYTES)))
        let storage = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
        for (index, byte) in utf8.enumerated() { unsafe storage[index] = CChar(bitPattern: byte) }
        unsafe storage[utf8.count] = 0
        unsafe interned[name] = unsafe storage
        return unsafe UnsafePointer(storage)
    }
}
