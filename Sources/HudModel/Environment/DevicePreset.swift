// SPDX-License-Identifier: MIT
/// The iPhone screens the host can lay out for (the reference device table).
public struct DevicePreset: Sendable, Hashable {
    /// CLI name, e.g. `iphone-16-pro`.
    public var id: String
    public var model: String
    /// Portrait size in points.
    public var portraitSize: HudSize
    public var scale: Double
    public var portraitSafeArea: HudInsets
    public var landscapeSafeArea: HudInsets
    /// The display's continuous corner radius in points.
    public var displayCornerRadius: Double

    public init(id: String, model: String, portraitSize: HudSize, scale: Double, portraitSafeArea: HudInsets, landscapeSafeArea: HudInsets, displayCornerRadius: Double) {
        self.id = id
        self.model = model
        self.portraitSize = portraitSize
        self.scale = scale
        self.portraitSafeArea = portraitSafeArea
        self.landscapeSafeArea = landscapeSafeArea
        self.displayCornerRadius = displayCornerRadius
    }

    public enum Orientation: String, Sendable, Hashable, CaseIterable, Codable {
        case portrait
        case landscape
    }

    public func size(_ orientation: Orientation) -> HudSize {
        orientation == .portrait ? portraitSize : HudSize(width: portraitSize.height, height: portraitSize.width)
    }

    public func safeArea(_ orientation: Orientation) -> HudInsets {
        orientation == .portrait ? portraitSafeArea : landscapeSafeArea
    }

    private static func preset(_ id: String, _ model: String, _ width: Double, _ height: Double, _ scale: Double,
                               portrait p: (Double, Double, Double, Double), landscape l: (Double, Double, Double, Double),
                               corner: Double) -> DevicePreset {
        DevicePreset(
            id: id, model: model, portraitSize: HudSize(width: width, height: height), scale: scale,
            portraitSafeArea: HudInsets(top: p.0, left: p.2, bottom: p.1, right: p.3),
            landscapeSafeArea: HudInsets(top: l.0, left: l.2, bottom: l.1, right: l.3),
            displayCornerRadius: corner
        )
    }

    // Safe areas are given as the reference table writes them: T/B/L/R.
    public static let iphoneSE = preset("iphone-se", "iPhone SE (3rd gen)", 375, 667, 2, portrait: (20, 0, 0, 0), landscape: (0, 0, 0, 0), corner: 0)
    public static let iphone13Mini = preset("iphone-13-mini", "iPhone 13 mini", 375, 812, 3, portrait: (50, 34, 0, 0), landscape: (0, 21, 50, 50), corner: 44)
    public static let iphone16 = preset("iphone-16", "iPhone 15 / 16", 393, 852, 3, portrait: (59, 34, 0, 0), landscape: (0, 21, 59, 59), corner: 55)
    public static let iphone16Plus = preset("iphone-16-plus", "iPhone 15 Plus / 16 Plus", 430, 932, 3, portrait: (59, 34, 0, 0), landscape: (0, 21, 59, 59), corner: 55)
    public static let iphone16Pro = preset("iphone-16-pro", "iPhone 16 Pro", 402, 874, 3, portrait: (62, 34, 0, 0), landscape: (0, 21, 62, 62), corner: 62)
    public static let iphone16ProMax = preset("iphone-16-pro-max", "iPhone 16 Pro Max", 440, 956, 3, portrait: (62, 34, 0, 0), landscape: (0, 21, 62, 62), corner: 62)
    public static let iphone17Pro = preset("iphone-17-pro", "iPhone 17 / 17 Pro (iOS 26)", 402, 874, 3, portrait: (62, 34, 0, 0), landscape: (20, 20, 62, 62), corner: 62)
    public static let iphoneAir = preset("iphone-air", "iPhone Air (iOS 26)", 420, 912, 3, portrait: (68, 34, 0, 0), landscape: (20, 29, 68, 68), corner: 62)

    /// Every preset, in the reference table's order.
    public static let all: [DevicePreset] = [iphoneSE, iphone13Mini, iphone16, iphone16Plus, iphone16Pro, iphone16ProMax, iphone17Pro, iphoneAir]

    /// The preset the CLI uses when none is named.
    public static let `default` = iphone16Pro

    public static func named(_ id: String) -> DevicePreset? {
        all.first { $0.id == id.lowercased() }
    }
}

extension DevicePreset: CustomStringConvertible {
    public var description: String { id }
}
