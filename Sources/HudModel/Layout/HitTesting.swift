// SPDX-License-Identifier: MIT
/// What hit testing reads from a node: the one rule shared by `HudLayout`
/// and the in-place frame view, so the two can never disagree.
package protocol HitTestable {
    var isInteractive: Bool { get }
    var z: Int { get }
    var hit: HudRect { get }
}

extension HudNode: HitTestable {}

extension RandomAccessCollection where Element: HitTestable, Index == Int {
    /// The index of the topmost interactive node whose hit region contains
    /// the point: the highest z, and among equal z the one emitted last
    /// (painted on top). One pass, no sorting or allocation.
    package func topmostHitIndex(x: Double, y: Double) -> Int? {
        var best: Int?
        var bestZ = Int.min
        for index in indices {
            let node = self[index]
            guard node.isInteractive, node.z >= bestZ, node.hit.contains(x: x, y: y) else { continue }
            best = index
            bestZ = node.z
        }
        return best
    }
}
