// SPDX-License-Identifier: MIT
/// One page of the shell's page tree: a title, the complications it
/// publishes (nil: it publishes nothing) and its child content.
///
/// This is the headless stand-in for a SwiftUI view that calls
/// `.hudComplications(_:)`; `children` are views nested inside it, each of
/// which may publish too.
public struct HudPage {
    public var title: String
    public var complications: HudPhoneComplications?
    public var children: [HudPage]

    public init(title: String, complications: HudPhoneComplications? = nil, children: [HudPage] = []) {
        self.title = title
        self.complications = complications
        self.children = children
    }

    /// `.hudComplications(_:)`: a copy of this page that publishes `complications`.
    public func hudComplications(_ complications: HudPhoneComplications?) -> HudPage {
        var copy = self
        copy.complications = complications
        return copy
    }

    /// The value `HudPhoneComplicationsKey` resolves to for this tree: the
    /// last non-nil writer in tree order (the page, then its children in
    /// order, depth first), so a child overrides its container's default.
    public var publishedComplications: HudPhoneComplications? {
        var result = complications
        for child in children {
            if let published = child.publishedComplications { result = published }
        }
        return result
    }
}

/// The seed's preference key, as a reduction rule.
public enum HudPhoneComplicationsKey {
    /// Combines writers in tree order: the last non-nil one wins.
    public static func reduce(_ values: [HudPhoneComplications?]) -> HudPhoneComplications? {
        values.reduce(nil) { current, next in next ?? current }
    }
}

extension HudPhoneComplications {
    /// True when both sets would marshal to the same C view: every string,
    /// role, mode and which chips are interactive. Closures are not
    /// comparable, so they never count: a republish with equal content keeps
    /// the snapshot and rebinds its thunks to the new closures.
    public func hasSameContent(as other: HudPhoneComplications) -> Bool {
        Position.allCases.allSatisfy { position in
            switch (self[position], other[position]) {
            case (nil, nil): true
            case (let a?, let b?): a.hasSameContent(as: b)
            default: false
            }
        }
    }
}

extension HudPhoneComplications.Slot {
    func hasSameContent(as other: HudPhoneComplications.Slot) -> Bool {
        guard icon == other.icon, role == other.role, label == other.label else { return false }
        switch (secondary, other.secondary) {
        case (nil, nil): break
        case (let a?, let b?):
            guard a.icon == b.icon, a.label == b.label, (a.action == nil) == (b.action == nil) else { return false }
        default: return false
        }
        let modes = longPressModes ?? [], otherModes = other.longPressModes ?? []
        return modes.count == otherModes.count
            && zip(modes, otherModes).allSatisfy { $0.id == $1.id && $0.icon == $1.icon && $0.label == $1.label && $0.isCurrent == $1.isCurrent }
    }
}
