// SPDX-License-Identifier: MIT
import Testing
import HudRegistry
import HudUnsafe
import HudScenes
import HudPresentation

/// The touch-target rules every well-behaved renderer follows, checked the
/// same way for the built-ins and ExampleRing: frames on screen; interactive
/// nodes with a centered hit region of at least 44×44 that contains the
/// frame and stays inside the safe area, and a non-empty accessibility
/// label; no hit region on anything else; no two hit regions overlapping.
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
            #expect(abs(node.hit.midX - node.frame.midX) < 1e-9 && abs(node.hit.midY - node.frame.midY) < 1e-9,
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
