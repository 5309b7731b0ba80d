// SPDX-License-Identifier: MIT
/// The Starter layout's measures in points (the design is described in
/// Layout.swift).
enum Metrics {
    /// A corner slot, a rounded square.
    static let cornerSize = 48.0
    static let cornerRadius = 14.0
    /// The center slot's diameter.
    static let centerSize = 56.0
    /// A secondary chip's diameter.
    static let chipSize = 24.0
    /// Slot edge to chip edge: keeps a chip's 44 pt hit region clear of its slot's.
    static let chipGap = 12.0
    /// Slots and the picker from the safe area's sides.
    static let sideMargin = 16.0
    /// Top slots below the navigation bar.
    static let topMargin = 8.0
    /// Bottom slots above the bottom safe edge.
    static let bottomMargin = 16.0
    /// A mode item, at least, both ways: its icon over its label.
    static let modeSize = 44.0
    static let modeIcon = 14.0
    /// The label at text scale 1, and at the largest text sizes.
    static let modeFont = 10.0
    static let modeFontMaximum = 20.0
    /// Around the icon and label (and 2 between them).
    static let modeInset = 6.0
    static let modeRadius = 10.0
    /// Between two mode items.
    static let modeGap = 8.0
    /// The picker card around its items.
    static let pickerPadding = 8.0
    static let pickerRadius = 16.0
    /// Slot edge to card edge.
    static let pickerOffset = 12.0
    /// The smallest touch target, both ways.
    static let minimumHit = 44.0
    /// Larger screens are refused as unsupported.
    static let maximumLength = 1e6
}

/// Paint order: slots under their chips, the picker above both.
enum Layer {
    static let slot: Int32 = 10
    static let chip: Int32 = 11
    static let picker: Int32 = 20
    static let mode: Int32 = 21
}
