// swift-tools-version: 6.0
// The Hudson HUD renderer registry: a stable C ABI for HUD renderers, a host
// that loads them with dlopen, the three built-in styles, and the `hudhost` CLI.
import PackageDescription

let package = Package(
    name: "HudRendererRegistry",
    products: [
        .library(name: "HudRegistry", targets: ["HudRegistry"]),
        // The built-ins as a loadable plugin: the same code hudhost links in,
        // loaded through dlopen exactly like a third-party renderer.
        .library(name: "BuiltinRenderers", type: .dynamic, targets: ["BuiltinRenderers"]),
        .executable(name: "hudhost", targets: ["hudhost"]),
        // A third-party renderer in plain C, built like any plugin: libExampleRing.so.
        .library(name: "ExampleRing", type: .dynamic, targets: ["ExampleRing"]),
        // The benchmark harness (issue 7): swift run -c release hudbench.
        .executable(name: "hudbench", targets: ["hudbench"]),
    ],
    targets: [
        // The ABI: one C header, nothing else.
        .target(name: "HudRendererAPI", path: "Sources/HudRendererAPI"),
        // libffi, for turning Swift closures into plain `void (*)(void)` pointers.
        .systemLibrary(
            name: "CFFI",
            path: "Sources/CFFI",
            pkgConfig: "libffi",
            providers: [.apt(["libffi-dev"])]
        ),
        // Linux calls the Glibc module does not expose (secure_getenv semantics).
        .systemLibrary(name: "CHudSystem", path: "Sources/CHudSystem"),
        .target(
            name: "BuiltinRenderers",
            dependencies: ["HudRendererAPI"],
            path: "Sources/BuiltinRenderers"
        ),
        // ExampleRing: written against hud_renderer.h only (Docs/PLUGIN_GUIDE.md).
        .target(name: "ExampleRing", dependencies: ["HudRendererAPI"], path: "Plugins/ExampleRing", publicHeadersPath: "."),
        .target(
            name: "HudRegistry",
            dependencies: ["HudRendererAPI", "CFFI", "CHudSystem", "BuiltinRenderers"],
            path: "Sources/HudRegistry"
        ),
        .executableTarget(
            name: "hudhost",
            dependencies: ["HudRegistry", "CHudSystem"],
            path: "Sources/hudhost"
        ),
        .executableTarget(
            name: "hudbench",
            dependencies: ["HudRegistry", "BuiltinRenderers", "HudRendererAPI"],
            path: "Sources/hudbench"
        ),
        .testTarget(
            name: "HudRegistryTests",
            dependencies: ["HudRegistry", "HudRendererAPI", "BuiltinRenderers", "hudhost"],
            path: "Tests/HudRegistryTests",
            resources: []
        ),
    ],
    swiftLanguageModes: [.v6]
)
