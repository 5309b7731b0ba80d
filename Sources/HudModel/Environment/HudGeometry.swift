// SPDX-License-Identifier: MIT
/// A size in points.
public struct HudSize: Sendable, Hashable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle in points, origin at the top-left of the screen, y down.
public struct HudRect: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = HudRect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// True when the point lies inside (edges included on the top/left,
    /// excluded on the bottom/right, so adjacent rectangles never share one).
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && py >= y && px < maxX && py < maxY
    }

    /// True when `other` lies entirely inside this rectangle.
    public func contains(_ other: HudRect, tolerance: Double = 1e-9) -> Bool {
        other.minX >= minX - tolerance && other.minY >= minY - tolerance
            && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }

    /// True when the interiors overlap (touching edges do not count).
    public func intersects(_ other: HudRect, tolerance: Double = 1e-9) -> Bool {
        minX < other.maxX - tolerance && other.minX < maxX - tolerance
            && minY < other.maxY - tolerance && other.minY < maxY - tolerance
    }

    /// The rectangle mirrored across the vertical center line of a screen.
    public func mirrored(screenWidth: Double) -> HudRect {
        HudRect(x: screenWidth - x - width, y: y, width: width, height: height)
    }

    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

/// Insets in points by physical edge.
public struct HudInsets: Sendable, Hashable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = HudInsets()
}
