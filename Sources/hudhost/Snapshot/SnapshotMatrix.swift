// SPDX-License-Identifier: MIT
import HudRegistry

/// The cases `hudhost snapshot` records and verifies for each renderer:
/// devices × orientations × directions × text sizes × schemes × states,
/// each named `<device>_<orientation>_<direction>_<text size>_<scheme>_<state>`
/// (`iphone-16_portrait_ltr_L_dark_resting`), which is also its files'
/// name. Docs/PLUGIN_GUIDE.md "Snapshot testing your renderer" lists them.
struct SnapshotCase: Sendable {
    /// What the shell shows when the picture is taken.
    enum State: String, CaseIterable, Sendable {
        /// Every slot shown, nothing pressed.
        case resting
        /// The center's long-press modes revealed (or the first slot's
        /// that has modes; the state is left out when none has).
        case revealed
        /// The control deck (on-demand presentation), collapsed to its pivot.
        case deck
        /// The control deck expanded by a tap on its pivot.
        case deckExpanded = "deck-expanded"
    }

    var device: DevicePreset
    var orientation: DevicePreset.Orientation
    var direction: HudLayoutDirection
    var textSize: TextSizeCategory
    var scheme: HudColorScheme
    var state: State

    var name: String {
        [device.id, orientation.rawValue, direction.rawValue, textSize.rawValue, scheme.rawValue, state.rawValue].joined(separator: "_")
    }

    var environment: HudEnvironment {
        HudEnvironment(device: device, orientation: orientation, layoutDirection: direction, colorScheme: scheme, textSize: textSize,
                       navigationTitle: "Home")
    }
}

/// A named set of cases.
enum SnapshotMatrix: String, CaseIterable {
    /// 3 devices × 2 orientations × 2 directions × 3 text sizes × dark ×
    /// 4 states: 144 cases.
    case standard = "default"
    /// Every device preset, text size and scheme × 2 orientations ×
    /// 2 directions × 4 states: 3,072 cases.
    case full

    var cases: [SnapshotCase] {
        let devices: [DevicePreset], sizes: [TextSizeCategory], schemes: [HudColorScheme]
        switch self {
        case .standard:
            devices = [.iphoneSE, .iphone16, .iphone16ProMax]
            sizes = [.small, .large, .accessibility3]
            schemes = [.dark]
        case .full:
            devices = DevicePreset.all
            sizes = TextSizeCategory.allCases
            schemes = HudColorScheme.allCases
        }
        var cases: [SnapshotCase] = []
        for device in devices {
            for orientation in [DevicePreset.Orientation.portrait, .landscape] {
                for direction in HudLayoutDirection.allCases {
                    for size in sizes {
                        for scheme in schemes {
                            for state in SnapshotCase.State.allCases {
                                cases.append(SnapshotCase(device: device, orientation: orientation, direction: direction, textSize: size,
                                                          scheme: scheme, state: state))
                            }
                        }
                    }
                }
            }
        }
        return cases
    }
}
