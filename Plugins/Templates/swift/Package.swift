// swift-tools-version: 6.0
// SPDX-License-Identifier: MIT
// @NAME@ (@ID@), a Hudson HUD renderer plugin in Swift.
//
//   swift build -c release        .build/release/lib@LIB@.so
//   hudhost validate --profile strict .build/release/lib@LIB@.so
//
// Three targets make the one shared object:
//   HudRendererAPI   the SDK header, by absolute path (Sources/HudRendererAPI/module.modulemap)
//   @IDENT@_entry    C: the static descriptor, its .hud_renderers metadata record
//                    and the exported hud_renderer_get_entry (Sources/Entry)
//   @IDENT@          Swift: the layout, exported to C as @IDENT@_layout (Sources/Layout)
import PackageDescription

let package = Package(
    name: "@LIB@",
    products: [
        .library(name: "@LIB@", type: .dynamic, targets: ["@IDENT@_entry", "@IDENT@"]),
    ],
    targets: [
        .systemLibrary(name: "HudRendererAPI", path: "Sources/HudRendererAPI"),
        .target(name: "@IDENT@_entry", path: "Sources/Entry"),
        .target(
            name: "@IDENT@",
            dependencies: ["HudRendererAPI"],
            path: "Sources/Layout",
            // The Swift runtime linked in, so the plugin needs only system
            // libraries wherever it is installed (README.md, "What it needs
            // at run time"). Remove to link the toolchain's runtime instead.
            linkerSettings: [.unsafeFlags(["-static-stdlib"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
