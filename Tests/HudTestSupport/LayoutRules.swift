// SPDX-License-Identifier: MIT
import Testing
import HudRegistry
import HudScenes
import HudPresentation

/// The touch-target rules every well-behaved renderer follows, checked the
/// same way for the built-ins and ExampleRing: frames on screen; interactive
/// nodes with a hit region of exactly max(44, w) × max(44, h) that contains
/// the frame and stays inside the safe area, and a non-empty accessibility
/// label; no hit region on anything else; no two hit regions overlapping.
/// Regions are centered on their frames, except a control chip's and its
/// slot's: the chip sits 4 pt from the slot, so the two regions split the
/// strip between them and may only move sideways (same midY).
package enum LayoutRules {
    package static func expectTouchTargets(_ layout: HudLayout, in environment: HudEnvironment, context: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        for node in layout.nodes {
            let name = "\(context): \(node.kind) \(String(describing: node.position))"
            #expect(environment.screen.contains(node.frame), "\(name) off screen: \(node.frame)", sourceLocation: sourceLocation)
            guard node.isInteractive else {
                #expect(node.hit == .zero, "\(name) is not interactive but has a hit region", sourceLocation: sourceLocation)
                continue
            }
            #expect(node.hit.width >= 44 && node.hit.height >= 44, "\(name) hit \(node.hit)", sourceLocation: sourceLocation)
            #expect(node.hit.contains(node.frame), "\(name) hit \(node.hit) does not contain frame \(node.frame)", sourceLocation: sourceLocation)
            #expect(abs(node.hit.width - max(44, node.frame.width)) < 1e-9 && abs(node.hit.height - max(44, node.frame.height)) < 1e-9,
                    "\(name) hit \(node.hit) is not the minimal target for \(node.frame)", sourceLocation: sourceLocation)
            let pairedWithChip = node.kind == .secondary
                || (node.kind == .slot && layout.nodes.contains { $0.kind == .secondary && $0.isInteractive && $0.position == node.position })
            #expect((pairedWithChip || abs(node.hit.midX - node.frame.midX) < 1e-9) && abs(node.hit.midY - node.frame.midY) < 1e-9,
                    "\(name) hit not centered", sourceLocation: sourceLocation)
            #expect(environment.safeRect.contains(node.hit), "\(name) hit \(node.hit) leaves the safe area", sourceLocation: sourceLocation)
            #expect(!(node.accessibilityLabel ?? "").isEmpty, "\(name) has no accessibility label", sourceLocation: sourceLocation)
        }
        let interactive = layout.nodes.filter(\.isInteractive)
        for (i, a) in interactive.enumerated() {
            for b in interactive[(i + 1)...] {
                #expect(!a.hit.intersects(b.hit),
                        "\(context): hit regions overlap: \(a.kind) \(String(describing: a.position)) \(a.hit) and \(b.kind) \(String(describing: b.position)) \(b.hit)",
                        sourceLocation: sourceLocation)
            }
        }
    }
}
