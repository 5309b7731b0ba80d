// SPDX-License-Identifier: MIT
import HudRendererAPI

/// One layout() call's inputs, validated and read once.
///
/// Everything a renderer needs is copied out of the C structures here, and
/// only through fields a v1.0 `struct_size` covers (anything smaller is an
/// invalid argument, so every v1.0 field is covered). Geometry is kept in a
/// left-to-right working frame: in RTL the safe area's left and right insets
/// are swapped here, the renderers lay out as if LTR, and `LayoutBuilder`
/// mirrors every x at the end. String pointers point into the inputs or to
/// static storage, as the ABI requires of node strings.
struct LayoutRequest {
    /// Why a request was refused: the status layout() returns.
    struct Failure: Error {
        let status: hud_status_t

        static let invalidArgument = Failure(status: hud_status_t(HUD_STATUS_INVALID_ARGUMENT))
        static let unsupported = Failure(status: hud_status_t(HUD_STATUS_UNSUPPORTED))
    }

    /// A long-press mode.
    @safe struct Mode {
        let icon: UnsafePointer<CChar>
        let label: UnsafePointer<CChar>
        let accessibilityLabel: UnsafePointer<CChar>
        /// Unicode scalars in the label (its first HUD_MAX_LABEL_BYTES bytes).
        let labelScalarCount: Int
        /// The host flags it current (ABI 1.2 `HUD_MODE_FLAG_CURRENT`).
        let isCurrent: Bool
    }

    /// A secondary chip.
    @safe struct Secondary {
        let icon: UnsafePointer<CChar>
        let accessibilityLabel: UnsafePointer<CChar>
        /// It has an action: a control with its own hit region.
        let isControl: Bool
    }

    /// A published slot.
    @safe struct Slot {
        let role: hud_role_t
        let icon: UnsafePointer<CChar>
        let accessibilityLabel: UnsafePointer<CChar>
        let secondary: Secondary?
        let modes: [Mode]
    }

    /// Screen size, pt.
    let width: Double
    let height: Double
    /// Safe-area insets in the working (LTR) frame: in RTL, `left` is the
    /// physical right inset.
    let safeArea: hud_insets_t
    let isRightToLeft: Bool
    /// The environment's text scale, capped at `maximumTextScale`.
    let textScale: Double
    let colors: ChromeColors
    /// The navigation bar's vertical extent, clamped on screen. An empty
    /// rect from the host means a 44 pt bar right below the top safe area.
    let navigationBarY: Double
    let navigationBarHeight: Double
    /// Indexed by hud_position_t.
    let slots: [Slot?]
    let pressedPosition: hud_position_t
    let pressedPart: hud_part_t
    let pressedModeIndex: Int32
    let revealedPosition: hud_position_t

    /// Text scales above this are laid out as this (AX5 is 3.118); keeps a
    /// pathological factor from overflowing the geometry.
    static let maximumTextScale = 10.0
    /// Screens and insets larger than this (pt) are refused as unsupported.
    static let maximumLength = 1_000_000.0

    /// The safe area as a rect in the working frame, never negative.
    var safeRect: hud_rect_t {
        let x = min(safeArea.left, width)
        let y = min(safeArea.top, height)
        return hud_rect_t(
            x: x, y: y,
            width: max(0, width - safeArea.right - x),
            height: max(0, height - safeArea.bottom - y)
        )
    }

    var screenRect: hud_rect_t { hud_rect_t(x: 0, y: 0, width: width, height: height) }

    init(
        descriptor: UnsafePointer<hud_renderer_descriptor_t>?,
        complications: UnsafePointer<hud_complications_t>?,
        environment: UnsafePointer<hud_environment_t>?,
        interaction: UnsafePointer<hud_interaction_t>?,
        layout: UnsafeMutablePointer<hud_layout_t>?
    ) throws(Failure) {
        guard unsafe descriptor != nil, let complications = unsafe complications, let environment = unsafe environment, let interaction = unsafe interaction, let layout = unsafe layout else {
            throw .invalidArgument
        }
        unsafe try Self.validate(layout: layout)

        guard unsafe complications.pointee.struct_size >= HUD_COMPLICATIONS_SIZE_1_0 else { throw .invalidArgument }
        guard unsafe environment.pointee.struct_size >= HUD_ENVIRONMENT_SIZE_1_0 else { throw .invalidArgument }
        guard unsafe interaction.pointee.struct_size >= HUD_INTERACTION_SIZE_1_0 else { throw .invalidArgument }
        let env = unsafe environment.pointee
        let state = unsafe interaction.pointee

        // The screen: invalid (violates the header) before unsupported
        // (valid, but too large to lay out).
        let sizes = unsafe [env.screen_width, env.screen_height]
        let insets = unsafe env.safe_area
        let insetValues = [insets.top, insets.left, insets.bottom, insets.right]
        guard sizes.allSatisfy({ $0.isFinite && $0 > 0 }),
              insetValues.allSatisfy({ $0.isFinite && $0 >= 0 }),
              unsafe env.text_scale.isFinite, unsafe env.text_scale > 0
        else { throw .invalidArgument }
        guard let palette = unsafe env.palette,
              unsafe palette.pointee.struct_size >= HUD_PALETTE_SIZE_1_0
        else { throw .invalidArgument }
        let bar = unsafe env.navigation_bar
        guard bar.isFinite, bar.width >= 0, bar.height >= 0 else { throw .invalidArgument }
        guard (sizes + insetValues).allSatisfy({ $0 <= Self.maximumLength }) else { throw .unsupported }

        width = unsafe env.screen_width
        height = unsafe env.screen_height
        isRightToLeft = unsafe env.layout_direction == hud_layout_direction_t(HUD_LAYOUT_DIRECTION_RTL)
        safeArea = isRightToLeft
            ? hud_insets_t(top: insets.top, left: insets.right, bottom: insets.bottom, right: insets.left)
            : insets
        textScale = unsafe min(env.text_scale, Self.maximumTextScale)
        colors = unsafe ChromeColors(palette: palette.pointee, accessibility: env.accessibility)
        if bar.height > 0 {
            navigationBarY = unsafe Geometry.clamp(bar.y, 0, env.screen_height)
            navigationBarHeight = unsafe min(bar.height, env.screen_height - navigationBarY)
        } else {
            navigationBarY = unsafe min(insets.top, env.screen_height)
            navigationBarHeight = unsafe min(Geometry.defaultNavigationBarHeight, env.screen_height - navigationBarY)
        }

        // The complications.
        let published = unsafe complications.pointee.slots
        var slots: [Slot?] = []
        slots.reserveCapacity(Int(HUD_POSITION_COUNT))
        for unsafe (index, slot) in unsafe [published.0, published.1, published.2, published.3, published.4].enumerated() {
            if let slot = unsafe slot {
                unsafe slots.append(try Self.read(slot: slot, position: hud_position_t(index)))
            } else {
                slots.append(nil)
            }
        }
        self.slots = slots

        // The interaction: unknown positions and parts mean "nothing".
        pressedPosition = Self.knownPosition(state.pressed_position)
        pressedPart = state.pressed_part
        pressedModeIndex = state.pressed_mode_index
        revealedPosition = Self.knownPosition(state.revealed_position)
    }

    /// The output structure: big enough, a node stride that holds a v1.0
    /// node, and a buffer whenever there is capacity.
    private static func validate(layout: UnsafeMutablePointer<hud_layout_t>) throws(Failure) {
        guard unsafe layout.pointee.struct_size >= HUD_LAYOUT_SIZE_1_0 else { throw .invalidArgument }
        guard unsafe layout.pointee.node_stride >= HUD_NODE_SIZE_1_0,
              unsafe layout.pointee.capacity == 0 || layout.pointee.nodes != nil
        else { throw .invalidArgument }
    }

    private static func read(slot pointer: UnsafePointer<hud_slot_t>, position: hud_position_t) throws(Failure) -> Slot {
        guard unsafe pointer.pointee.struct_size >= HUD_SLOT_SIZE_1_0 else { throw .invalidArgument }
        let slot = unsafe pointer.pointee
        guard let icon = unsafe slot.icon, unsafe slot.action != nil else { throw .invalidArgument }

        var secondary: Secondary?
        if let chipPointer = unsafe slot.secondary {
            guard unsafe chipPointer.pointee.struct_size >= HUD_SECONDARY_SIZE_1_0 else { throw .invalidArgument }
            let chip = unsafe chipPointer.pointee
            guard let chipIcon = unsafe chip.icon else { throw .invalidArgument }
            secondary = unsafe Secondary(
                icon: chipIcon,
                accessibilityLabel: spokenLabel(chip.label, icon: chipIcon) ?? cString("Secondary action"),
                isControl: chip.action != nil
            )
        }

        guard unsafe slot.mode_count <= UInt32(HUD_MAX_MODES) else { throw .invalidArgument }
        var modes: [Mode] = []
        if unsafe slot.mode_count > 0 {
            guard let list = unsafe slot.modes else { throw .invalidArgument }
            unsafe modes.reserveCapacity(Int(slot.mode_count))
            for index in unsafe 0..<Int(slot.mode_count) {
                guard let modePointer = unsafe list[index],
                      unsafe modePointer.pointee.struct_size >= HUD_MODE_SIZE_1_0
                else { throw .invalidArgument }
                // Field by field: a 1.0 or 1.1 host's mode is 40 bytes, so
                // the 1.2 `flags` is read only when the size covers it.
                let mode = unsafe modePointer
                guard unsafe mode.pointee.id != nil, let modeIcon = unsafe mode.pointee.icon, let label = unsafe mode.pointee.label, unsafe mode.pointee.action != nil else {
                    throw .invalidArgument
                }
                let current = unsafe mode.pointee.struct_size >= HUD_MODE_SIZE_1_2 && mode.pointee.flags & HUD_MODE_FLAG_CURRENT != 0
                unsafe modes.append(Mode(
                    icon: modeIcon,
                    label: label,
                    accessibilityLabel: spokenLabel(label, icon: modeIcon) ?? cString("Mode"),
                    labelScalarCount: scalarCount(label),
                    isCurrent: current
                ))
            }
        }

        return unsafe Slot(
            role: slot.role,
            icon: icon,
            accessibilityLabel: spokenLabel(slot.label, icon: icon) ?? fallbackSlotLabel(position),
            secondary: secondary,
            modes: modes
        )
    }

    /// The size of a structure as this build's header defines it, as C's
    /// sizeof (Swift's stride): what a writer puts in struct_size. Readers
    /// compare with the frozen HUD_*_SIZE_1_0 instead.
    static func structSize<T>(_ type: T.Type) -> UInt32 {
        UInt32(MemoryLayout<T>.stride)
    }

    private static func knownPosition(_ position: hud_position_t) -> hud_position_t {
        (0..<hud_position_t(HUD_POSITION_COUNT)).contains(position) ? position : hud_position_t(HUD_POSITION_NONE)
    }

    /// What an element is announced as: its label when given, else its
    /// icon's spoken name (never the raw symbol name); nil when neither.
    private static func spokenLabel(_ label: UnsafePointer<CChar>?, icon: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        unsafe firstNonEmpty(label) ?? (icon[0] == 0 ? nil : SpokenSymbolName.cString(for: icon))
    }

    /// The first string that is non-NULL and non-empty.
    private static func firstNonEmpty(_ candidates: UnsafePointer<CChar>?...) -> UnsafePointer<CChar>? {
        unsafe candidates.first { unsafe $0 != nil && $0![0] != 0 } ?? nil
    }

    /// Unicode scalars in a UTF-8 string: its bytes that are not
    /// continuation bytes, reading at most HUD_MAX_LABEL_BYTES (so an
    /// unterminated or oversized label cannot run the count away).
    private static func scalarCount(_ string: UnsafePointer<CChar>) -> Int {
        let bytes = unsafe UnsafeRawPointer(string).assumingMemoryBound(to: UInt8.self)
        var count = 0
        var index = 0
        while index < Int(HUD_MAX_LABEL_BYTES), unsafe bytes[index] != 0 {
            if unsafe bytes[index] & 0xC0 != 0x80 { count += 1 }
            index += 1
        }
        return count
    }

    /// A static C string.
    static func cString(_ string: StaticString) -> UnsafePointer<CChar> {
        unsafe UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Said for a slot whose label and icon are both empty.
    private static func fallbackSlotLabel(_ position: hud_position_t) -> UnsafePointer<CChar> {
        switch position {
        case hud_position_t(HUD_POSITION_TOP_LEFT): unsafe cString("Top leading complication")
        case hud_position_t(HUD_POSITION_TOP_RIGHT): unsafe cString("Top trailing complication")
        case hud_position_t(HUD_POSITION_BOTTOM_LEFT): unsafe cString("Bottom leading complication")
        case hud_position_t(HUD_POSITION_BOTTOM_RIGHT): unsafe cString("Bottom trailing complication")
        default: unsafe cString("Center complication")
        }
    }

    /// The picker card's label, "<position> modes": node strings must be
    /// static or point into the inputs, so "<slot label> modes" cannot be
    /// built here.
    static func modePickerLabel(_ position: hud_position_t) -> UnsafePointer<CChar> {
        switch position {
        case hud_position_t(HUD_POSITION_TOP_LEFT): unsafe cString("Top leading complication modes")
        case hud_position_t(HUD_POSITION_TOP_RIGHT): unsafe cString("Top trailing complication modes")
        case hud_position_t(HUD_POSITION_BOTTOM_LEFT): unsafe cString("Bottom leading complication modes")
        case hud_position_t(HUD_POSITION_BOTTOM_RIGHT): unsafe cString("Bottom trailing complication modes")
        default: unsafe cString("Center complication modes")
        }
    }
}
