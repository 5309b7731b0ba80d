// SPDX-License-Identifier: MIT
@testable import HudPluginBoundary
import Glibc
import HudRendererAPI
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// The seed's model: its names and initializers, and marshaling into the
/// C view with libffi thunks.
struct SeedModelTests {
    /// Runs the seed's example exactly as written there.
    final class SeedPage {
        var log: [String] = []
        var style: HudPhoneComplicationsStyle = .tray

        func showLogs() { log.append("showLogs") }
        func showMenu() { log.append("showMenu") }
        func openSettings() { log.append("openSettings") }
        func openShell() { log.append("openShell") }
        func openComplications() { log.append("openComplications") }

        var complications: HudPhoneComplications {
            // The seed's `let complications = HudPhoneComplications(...)`, verbatim.
            let complications = HudPhoneComplications(
                topLeft:  .init(icon: "list.bullet",     action: showLogs),
                topRight: .init(icon: "ellipsis.circle", action: showMenu),
                bottomLeft:  .init(icon: "gearshape",          action: openSettings),
                bottomRight: .init(icon: "rectangle.3.group",  action: openShell),
                center: .init(
                    icon: "circle.grid.2x2",
                    role: .accent,
                    longPressModes: [
                        .init(id: "tray",      icon: "rectangle.bottomthird.inset.filled", label: "Tray")      { self.style = .tray },
                        .init(id: "scattered", icon: "circle.grid.cross.fill",             label: "Scattered") { self.style = .scattered },
                        .init(id: "minimal",   icon: "circle.fill",                        label: "Minimal")   { self.style = .minimal },
                    ],
                    action: openComplications
                )
            )
            return complications
        }
    }

    @Test func seedExampleMarshalsEveryStringAndMode() throws {
        let page = SeedPage()
        let snapshot = try ComplicationsSnapshot(page.complications)
        #expect(snapshot.occupiedPositions == Set(Position.allCases))
        #expect(snapshot.thunkCount == 8)  // five slots + three modes
        let view = snapshot.storage.view.pointee
        #expect(view.struct_size == UInt32(MemoryLayout<hud_complications_t>.size))
        let center = try #require(view.slots.4).pointee
        #expect(String(cString: center.icon) == "circle.grid.2x2")
        #expect(center.role == Int32(HUD_ROLE_ACCENT))
        #expect(center.label == nil)
        #expect(center.secondary == nil)
        #expect(center.mode_count == 3)
        let modes = try #require(center.modes)
        let ids = (0..<3).map { String(cString: modes[$0]!.pointee.id) }
        #expect(ids == ["tray", "scattered", "minimal"])
        #expect(String(cString: modes[2]!.pointee.label) == "Minimal")
        let topLeft = try #require(view.slots.0).pointee
        #expect(String(cString: topLeft.icon) == "list.bullet")
        #expect(topLeft.mode_count == 0 && topLeft.modes == nil)
    }

    @Test func actionsRunThroughTheCFunctionPointersPluginsSee() throws {
        let page = SeedPage()
        let snapshot = try ComplicationsSnapshot(page.complications)
        let view = snapshot.storage.view.pointee
        // Exactly what a C plugin would do with the pointers.
        try #require(view.slots.0).pointee.action!()
        try #require(view.slots.3).pointee.action!()
        let centerSlot = try #require(view.slots.4).pointee
        let centerModes = try #require(centerSlot.modes)
        centerModes[1]!.pointee.action!()
        #expect(page.log == ["showLogs", "openShell"])
        #expect(page.style == .scattered)
        // And the host's own dispatch reaches the same thunks, once per call.
        #expect(snapshot.invoke(.slot(.center)))
        #expect(snapshot.invoke(.mode(.center, index: 2)))
        #expect(!snapshot.invoke(.secondary(.center)))
        #expect(page.log == ["showLogs", "openShell", "openComplications"])
        #expect(page.style == .minimal)
    }

    @Test func aCallThroughARetiredThunkIsCaughtNotRun() throws {
        var fired = 0
        let thunk = try ActionThunk { fired += 1 }
        let pointer = thunk.function
        pointer()
        #expect(fired == 1)
        let caughtBefore = ActionThunkCounters.retiredCalls
        thunk.retire()
        pointer()  // a late call, as a misbehaving plugin would make
        pointer()
        #expect(fired == 1)
        #expect(ActionThunkCounters.retiredCalls >= caughtBefore + 2)
    }

    @Test func releasingASnapshotRetiresItsThunks() throws {
        var fired = 0
        var snapshot: ComplicationsSnapshot? = try ComplicationsSnapshot(HudPhoneComplications(center: .init(icon: "star") { fired += 1 }))
        let pointer = try #require(snapshot!.storage.view.pointee.slots.4).pointee.action!
        pointer()
        #expect(fired == 1)
        let caughtBefore = ActionThunkCounters.retiredCalls
        snapshot = nil
        pointer()
        #expect(fired == 1)
        #expect(ActionThunkCounters.retiredCalls > caughtBefore)
    }

    @Test func secondaryChipActionIsOptional() throws {
        var tapped = false
        let complications = HudPhoneComplications(
            topLeft: .init(icon: "bell", secondary: .init(icon: "1.circle")) {},
            topRight: .init(icon: "person", secondary: .init(icon: "plus", label: "Add") { tapped = true }) {})
        let snapshot = try ComplicationsSnapshot(complications)
        let badgeSlot = try #require(snapshot.storage.view.pointee.slots.0).pointee
        let badge = try #require(badgeSlot.secondary).pointee
        #expect(badge.action == nil)
        #expect(String(cString: badge.icon) == "1.circle")
        let chipSlot = try #require(snapshot.storage.view.pointee.slots.1).pointee
        let chip = try #require(chipSlot.secondary).pointee
        #expect(String(cString: chip.label) == "Add")
        chip.action!()
        #expect(tapped)
        #expect(snapshot.hasAction(.secondary(.topRight)) && !snapshot.hasAction(.secondary(.topLeft)))
    }

    /// Each case builds complications that break one marshaling rule.
    static let invalidCases: [(field: String, make: @Sendable () -> HudPhoneComplications)] = [
        ("center.icon", { HudPhoneComplications(center: .init(icon: "") {}) }),
        ("center.icon", { HudPhoneComplications(center: .init(icon: String(repeating: "x", count: 129)) {}) }),
        ("topLeft.label", { HudPhoneComplications(topLeft: .init(icon: "a", label: "nul\u{0}inside") {}) }),
        ("center.longPressModes", { HudPhoneComplications(center: .init(icon: "a", longPressModes: (0..<65).map { i in .init(id: "m\(i)", icon: "i", label: "l") {} }) {}) }),
        ("center.longPressModes", { HudPhoneComplications(center: .init(icon: "a", longPressModes: [.init(id: "x", icon: "i", label: "l") {}, .init(id: "x", icon: "j", label: "k") {}]) {}) }),
    ]

    @Test(arguments: 0..<invalidCases.count)
    func invalidComplicationsAreRejectedWithTheField(index: Int) {
        let (field, make) = Self.invalidCases[index]
        #expect {
            _ = try ComplicationsSnapshot(make())
        } throws: { error in
            guard case .invalidComplications(let reported, _) = error as? RegistryError else { return false }
            return reported == field
        }
    }

    @Test func styleNamesMapToBuiltinIDsAndBack() {
        #expect(HudPhoneComplicationsStyle(name: "tray") == .tray)
        #expect(HudPhoneComplicationsStyle(name: "com.hudson.minimal") == .minimal)
        #expect(HudPhoneComplicationsStyle(name: "org.example.ring") == .renderer("org.example.ring"))
        #expect(HudPhoneComplicationsStyle.scattered.rendererID == "com.hudson.scattered")
        #expect(HudPhoneComplicationsStyle.renderer("org.example.ring").rendererID == "org.example.ring")
    }

    @Test func paletteTokensMatchHudsonsDesignTokens() {
        #expect(HudPalette.bg.description == "#0A0A0A")
        #expect(HudPalette.stable.accent.description == "#10B981")
        #expect(HudPalette.stable.hairlineStandard.description == "#262626")
        #expect(HudPalette.accent.tintStrong.description == "#10B98199")
        #expect(HudPalette.resolved(appearance: .hudson, scheme: .light).palette == .stable)
        #expect(HudPalette.resolved(appearance: .hudson, scheme: .light).scheme == .dark)
        #expect(HudPalette.resolved(appearance: .system, scheme: .light).palette == .light)
        #expect(HudPalette.resolved(appearance: .system, scheme: .dark).palette == .stable)
    }

    @Test(arguments: DevicePreset.all)
    func devicePresetsFollowTheReferenceTable(device: DevicePreset) {
        #expect(DevicePreset.named(device.id) == device)
        let landscape = device.size(.landscape)
        #expect(landscape.width == device.portraitSize.height && landscape.height == device.portraitSize.width)
        let environment = HudEnvironment(device: device)
        #expect(environment.navigationBar == HudRect(x: 0, y: device.portraitSafeArea.top, width: device.portraitSize.width, height: 44))
        #expect(HudEnvironment(device: device, orientation: .landscape).navigationBar.height == 32)
    }

    @Test func textSizeCategoriesScaleFromLarge() {
        #expect(TextSizeCategory.large.scale == 1)
        #expect(abs(TextSizeCategory.accessibility5.scale - 3.118) < 0.001)
        #expect(TextSizeCategory(name: "ax5") == .accessibility5)
        #expect(TextSizeCategory(name: "huge") == nil)
    }
}

extension SeedModelTests {
    @Test func anActionCalledFromAnotherThreadIsDroppedAndCounted() throws {
        nonisolated(unsafe) var fired = 0  // written only by the thunk's own thread
        let thunk = try ActionThunk { fired += 1 }
        let pointer = thunk.function
        let before = ActionThunkCounters.callsFromOtherThreads
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            unsafeBitCast(argument, to: hud_action_fn.self)()
            return nil
        }, unsafeBitCast(pointer, to: UnsafeMutableRawPointer.self))
        #expect(started == 0)
        pthread_join(thread, nil)
        #expect(fired == 0)
        #expect(ActionThunkCounters.callsFromOtherThreads > before)
        pointer()  // on the owning thread it runs
        #expect(fired == 1)
    }
}
