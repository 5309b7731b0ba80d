// swift-tools-version: 6.2
// SPDX-License-Identifier: MIT
// The Hudson HUD renderer registry: a stable C ABI for HUD renderers, a host
// that loads them with dlopen, the three built-in styles, and the `hudhost` CLI.
//
// Targets are split by who uses them (Docs/ARCHITECTURE.md):
//   HudRegistry (+ HudModel, re-exported)  what a Swift host links
//   HudPresentation (HudModel only) / HudScenes / HudConformance   what the CLI adds on top
//   HudSystem   internal: the libc layer by domain (files and descriptors, processes, threads, sandbox calls)
//   HudPluginBoundary   internal: every dl*, plugin-pointer and libffi call, the C views, node checks, shared memory
//   HudHarness  internal: the raw-call harness of `validate` and the benchmarks (no host links it)
//   HudSandboxChild  internal: the sandboxed child's side (hudsandbox only)
//   HudHTTPServer  internal: every libmicrohttpd call (hudhost preview)
//   HudRaster   internal: every librsvg/cairo call (render --format png)
import PackageDescription

/// MemberImportVisibility, for every Swift target, tests too: a file uses
/// only the members of modules it imports itself. (That every target of
/// this package a file imports is one of its target's dependencies below
/// is DocumentationTests' everyImportOfATargetIsADeclaredDependency.)
let imports: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]
/// The products' and executables' upcoming features.
let upcoming: [SwiftSetting] = imports + [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]
/// Every Swift target is compiled with strict memory safety checking: an
/// unsafe construct is a warning unless its expression is marked `unsafe`,
/// and the build has none. Outside the targets that hold unsafe code
/// (`HudSystem`, `HudPluginBoundary`, `HudHarness`, `HudHTTPServer`, `HudRaster` and the
/// built-in renderers, which implement C callbacks) no file writes `unsafe`
/// at all (DocumentationTests holds that).
let safe: [SwiftSetting] = [.strictMemorySafety()] + upcoming
/// The targets that hold unsafe code: the same checking, and each unsafe
/// site marked where it is.
let unsafe: [SwiftSetting] = safe

/// The modules `hudsandbox` links are optimized in debug builds too (with
/// `lean`, below): the tests drive them through real subprocesses
/// (hudhost, its sandboxed children and renderer hosts) thousands of
/// times, and unoptimized generic code made a validation ~4× slower and
/// the whole suite twice as costly (Docs/RELIABILITY.md). The test
/// targets, hudhost's command code and the scene code stay unoptimized.
/// `HUD_ONONE=1 swift build` builds everything without optimization, for
/// a debugger.
let optimizedInDebug: [SwiftSetting] = Context.environment["HUD_ONONE"] != nil ? [] : [
    .unsafeFlags(["-O"], .when(configuration: .debug)),
]

/// The modules `hudsandbox` links (the sandboxed child every renderer host,
/// scan and validation starts) import neither `_Concurrency` nor
/// `_StringProcessing` implicitly: none uses async, actors or regexes, and
/// each implicit import is an autolinked shared object (with libdispatch
/// and BlocksRuntime behind `_Concurrency`) that the loader maps and
/// relocates in every child before it does anything (BENCHMARKS.md,
/// "Where the time goes").
let lean: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-implicit-concurrency-module-import",
                  "-Xfrontend", "-disable-implicit-string-processing-module-import"]),
] + optimizedInDebug

let package = Package(
    name: "HudRendererRegistry",
    products: [
        // The host library: the seed's model, the registry, discovery, the shell.
        .library(name: "HudRegistry", targets: ["HudRegistry"]),
        // ASCII, SVG and JSON of a layout, for hosts that want pictures.
        .library(name: "HudPresentation", targets: ["HudPresentation"]),
        // The built-ins as a loadable plugin: the same code hudhost links in,
        // loaded through dlopen exactly like a third-party renderer.
        .library(name: "BuiltinRenderers", type: .dynamic, targets: ["BuiltinRenderers"]),
        .executable(name: "hudhost", targets: ["hudhost"]),
        // A third-party renderer in plain C, built like any plugin: libExampleRing.so.
        .library(name: "ExampleRing", type: .dynamic, targets: ["ExampleRing"]),
        // The sandboxed child hudhost and the library start (libexec/hud/ when installed).
        .executable(name: "hudsandbox", targets: ["hudsandbox"]),
        // The benchmark harness: swift run -c release hudbench.
        .executable(name: "hudbench", targets: ["hudbench"]),
    ],
    targets: [
        // The ABI: C headers and nothing else. include/hud is the SDK include
        // directory (installed as <prefix>/include/hud): the umbrella
        // hud_renderer.h and its topic headers, imported by Swift as one
        // module (an umbrella directory). bindings/ holds the other
        // languages' bindings generated from them (Scripts/gen-rust-bindings.py).
        .target(name: "HudRendererAPI", path: "Sources/HudRendererAPI", exclude: ["bindings"], publicHeadersPath: "include/hud"),
        // libffi, for turning Swift closures into plain `void (*)(void)` pointers.
        .systemLibrary(
            name: "CFFI",
            path: "Sources/CFFI",
            pkgConfig: "libffi",
            providers: [.apt(["libffi-dev"])]
        ),
        // Linux calls the Glibc module does not expose (secure_getenv, prctl, Landlock).
        .systemLibrary(name: "CHudSystem", path: "Sources/CHudSystem"),
        // libmicrohttpd, the HTTP server of `hudhost preview`: a C shim that
        // opens libmicrohttpd.so.12 with dlopen on first use (nothing links
        // it, so no other command loads it and its TLS chain). Builds with
        // microhttpd.h from libmicrohttpd-dev; runs with libmicrohttpd12.
        .target(
            name: "CMicroHTTPD",
            path: "Sources/CMicroHTTPD",
            publicHeadersPath: ".",
            // DWARF 4, as the Swift compiler writes it: valgrind 3.19
            // (Debian 12) gives up on a binary with one DWARF 5 unit
            // (clang's default), and Scripts/valgrind-check.sh runs hudhost.
            cSettings: [.unsafeFlags(["-std=c11", "-Wall", "-Wextra", "-Werror", "-gdwarf-4"])]
        ),
        // librsvg and cairo, for `render --format png`: a C shim that opens
        // them with dlopen on first use (nothing links them; no -dev
        // packages needed to build; runs with librsvg2-2).
        .target(
            name: "CRaster",
            path: "Sources/CRaster",
            publicHeadersPath: ".",
            // DWARF 4, as for CMicroHTTPD (valgrind 3.19 and clang's DWARF 5).
            cSettings: [.unsafeFlags(["-std=c11", "-Wall", "-Wextra", "-Werror", "-gdwarf-4"])]
        ),
        // The layout call's C helper for HudPluginBoundary: the action
        // guard's thread-local counters (a C11 `_Thread_local`).
        .target(
            name: "CHudHot",
            dependencies: ["HudRendererAPI"],
            path: "Sources/CHudHot",
            publicHeadersPath: "include",
            // DWARF 4, as for CMicroHTTPD (valgrind 3.19 and clang's DWARF 5).
            cSettings: [.unsafeFlags(["-std=c11", "-Wall", "-Wextra", "-Werror", "-gdwarf-4"])]
        ),
        // libseccomp, for the sandbox's system-call filter.
        .systemLibrary(
            name: "CSeccomp",
            path: "Sources/CSeccomp",
            pkgConfig: "libseccomp",
            providers: [.apt(["libseccomp-dev"])]
        ),
        .target(
            name: "BuiltinRenderers",
            dependencies: ["HudRendererAPI"],
            path: "Sources/BuiltinRenderers",
            swiftSettings: unsafe + lean
        ),
        // ExampleRing: written against hud_renderer.h only (Docs/PLUGIN_GUIDE.md).
        .target(name: "ExampleRing", dependencies: ["HudRendererAPI"], path: "Plugins/ExampleRing", publicHeadersPath: "."),

        // The vocabulary: seed model, environment, layout, renderer description, errors.
        .target(name: "HudModel", dependencies: ["HudRendererAPI"], path: "Sources/HudModel", swiftSettings: safe + lean),
        // Internal (no product): the libc layer, one file per domain (files
        // and descriptors, processes, threads, the sandbox's raw calls).
        .target(
            name: "HudSystem",
            dependencies: ["CHudSystem", "CSeccomp"],
            path: "Sources/HudSystem",
            swiftSettings: unsafe + lean
        ),
        // Internal (no product): the plugin boundary (dlopen, the C views of
        // the inputs, libffi thunks, the node buffer and its checks, the
        // renderer host's shared memory).
        .target(
            name: "HudPluginBoundary",
            dependencies: ["HudModel", "HudSystem", "HudRendererAPI", "CFFI", "CHudSystem", "CHudHot", "BuiltinRenderers"],
            path: "Sources/HudPluginBoundary",
            swiftSettings: unsafe + lean
        ),
        // Internal (no product): every libmicrohttpd call, for hudhost only
        // (a host linking HudRegistry never links the HTTP server).
        .target(
            name: "HudHTTPServer",
            dependencies: ["CMicroHTTPD"],
            path: "Sources/HudHTTPServer",
            swiftSettings: unsafe
        ),
        // Internal (no product): every librsvg/cairo call, for hudhost only.
        .target(
            name: "HudRaster",
            dependencies: ["CRaster"],
            path: "Sources/HudRaster",
            swiftSettings: unsafe
        ),
        .target(
            name: "HudRegistry",
            dependencies: ["HudModel", "HudPluginBoundary", "HudSystem", "HudRendererAPI", "CHudSystem", "BuiltinRenderers"],
            path: "Sources/HudRegistry",
            swiftSettings: safe + lean
        ),
        // Internal (no product): the raw-call harness only `validate` and the
        // benchmarks need (direct and guarded layout calls, raw entry and
        // descriptor handles, input digests); no host links it.
        .target(
            name: "HudHarness",
            dependencies: ["HudModel", "HudPluginBoundary", "HudSystem", "HudRendererAPI", "BuiltinRenderers"],
            path: "Sources/HudHarness",
            swiftSettings: unsafe + lean
        ),
        // Internal (no product): the sandboxed child's entry points, run
        // inside hudsandbox only: the scan and layers replies and the
        // renderer host's serve loop (its raw frames through HudHarness).
        .target(
            name: "HudSandboxChild",
            dependencies: ["HudModel", "HudRegistry", "HudPluginBoundary", "HudSystem", "HudHarness", "HudConformance", "HudRendererAPI"],
            path: "Sources/HudSandboxChild",
            swiftSettings: safe + lean
        ),
        .target(name: "HudPresentation", dependencies: ["HudModel"], path: "Sources/HudPresentation", swiftSettings: safe + lean),
        .target(name: "HudScenes", dependencies: ["HudRegistry"], path: "Sources/HudScenes", swiftSettings: safe),
        .target(
            name: "HudConformance",
            dependencies: ["HudRegistry", "HudPluginBoundary", "HudSystem", "HudHarness", "HudPresentation", "HudRendererAPI", "BuiltinRenderers"],
            path: "Sources/HudConformance",
            swiftSettings: safe + lean
        ),
        .executableTarget(
            name: "hudhost",
            dependencies: ["HudModel", "HudRegistry", "HudPluginBoundary", "HudSystem", "HudPresentation", "HudScenes", "HudConformance", "HudHTTPServer",
                           "HudRaster", "HudRendererAPI", "CHudSystem"],
            path: "Sources/hudhost",
            // Swift 6.3's loop-invariant code motion is superlinear on this
            // module's large loop bodies (with the libraries' code inlined
            // by cross-module optimization): a release build of hudhost ran
            // for tens of minutes in that one pass. The CLI's own loops are
            // not hot (the hot paths live in HudRegistry and HudPluginBoundary,
            // optimized in full), so the pass is off here, in release only.
            swiftSettings: safe + [.unsafeFlags(["-Xllvm", "-sil-disable-pass=loop-invariant-code-motion"], .when(configuration: .release))],
            // A release hudhost carries the Swift runtime, as the installed
            // one does (`make`: --static-swift-stdlib): ~3 ms less of every
            // start. No plugin code needs this
            // process's runtime: sandboxed children are hudsandbox, which
            // may read the libraries a plugin links through its runpath.
            // It exports nothing but `main` (Scripts/link/hudhost.map).
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xlinker", "--version-script=" + Context.packageDirectory + "/Scripts/link/hudhost.map"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "hudsandbox",
            dependencies: ["HudRegistry", "HudPluginBoundary", "HudSystem", "HudSandboxChild", "HudConformance"],
            path: "Sources/hudsandbox",
            swiftSettings: safe + lean
        ),
        .executableTarget(
            name: "hudbench",
            dependencies: ["HudRegistry", "HudPluginBoundary", "HudSystem", "HudHarness", "HudScenes", "HudRendererAPI"],
            path: "Sources/hudbench",
            swiftSettings: safe
        ),

        // Tests: one target per library target, fixtures shared through HudTestSupport.
        .target(
            name: "HudTestSupport",
            dependencies: ["HudRegistry", "HudScenes", "HudPresentation", "HudSystem"],
            path: "Tests/HudTestSupport",
            swiftSettings: imports
        ),
        .testTarget(
            name: "HudModelTests",
            dependencies: ["HudModel"],
            path: "Tests/HudModelTests",
            swiftSettings: imports
        ),
        .testTarget(name: "HudSystemTests", dependencies: ["HudSystem"], path: "Tests/HudSystemTests", swiftSettings: imports),
        .testTarget(
            name: "HudRendererAPITests",
            dependencies: ["HudModel", "HudRegistry", "HudRendererAPI", "HudPresentation", "HudScenes", "HudTestSupport"],
            path: "Tests/HudRendererAPITests",
            swiftSettings: imports
        ),
        .testTarget(
            name: "HudPluginBoundaryTests",
            dependencies: ["HudModel", "HudRegistry", "HudPluginBoundary", "HudRendererAPI", "HudPresentation", "HudScenes", "HudTestSupport"],
            path: "Tests/HudPluginBoundaryTests",
            swiftSettings: imports
        ),
        .testTarget(
            name: "HudHarnessTests",
            dependencies: ["HudModel", "HudPluginBoundary", "HudHarness", "HudSystem", "HudTestSupport"],
            path: "Tests/HudHarnessTests",
            swiftSettings: imports
        ),
        .testTarget(
            name: "HudSandboxChildTests",
            dependencies: ["HudModel", "HudRegistry", "HudTestSupport"],
            path: "Tests/HudSandboxChildTests",
            swiftSettings: imports
        ),
        .testTarget(name: "HudRasterTests", dependencies: ["HudRaster"], path: "Tests/HudRasterTests", swiftSettings: imports),
        .testTarget(name: "HudHTTPServerTests", dependencies: ["HudHTTPServer", "HudSystem"], path: "Tests/HudHTTPServerTests", swiftSettings: imports),
        .testTarget(
            name: "BuiltinRenderersTests",
            dependencies: ["HudModel", "HudRegistry", "BuiltinRenderers", "HudPresentation", "HudScenes", "HudTestSupport"],
            path: "Tests/BuiltinRenderersTests",
            swiftSettings: imports
        ),
        .testTarget(
            name: "HudRegistryTests",
            dependencies: ["HudModel", "HudRegistry", "HudPluginBoundary", "HudSystem", "HudHarness", "HudRendererAPI", "HudPresentation", "HudScenes",
                           "HudTestSupport", "hudhost"],
            path: "Tests/HudRegistryTests",
            swiftSettings: imports
        ),
        .testTarget(
            name: "HudPresentationTests",
            dependencies: ["HudPresentation", "HudRegistry", "HudScenes", "HudTestSupport"],
            path: "Tests/HudPresentationTests",
            swiftSettings: imports
        ),
        .testTarget(
            name: "HudScenesTests",
            dependencies: ["HudScenes", "HudRegistry", "HudPresentation", "HudTestSupport"],
            path: "Tests/HudScenesTests",
            swiftSettings: imports
        ),
        .testTarget(
            name: "HudConformanceTests",
            dependencies: ["HudConformance", "HudRegistry", "HudPresentation", "HudScenes", "HudPluginBoundary", "HudTestSupport", "hudhost"],
            path: "Tests/HudConformanceTests",
            swiftSettings: imports
        ),
        .testTarget(
            name: "hudhostTests",
            dependencies: ["HudModel", "HudRegistry", "HudPluginBoundary", "HudSystem", "HudScenes", "HudPresentation", "HudConformance", "HudRendererAPI",
                           "HudTestSupport", "hudhost"],
            path: "Tests/hudhostTests",
            swiftSettings: imports
        ),
    ],
    swiftLanguageModes: [.v6]
)
