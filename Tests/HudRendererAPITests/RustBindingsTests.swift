// SPDX-License-Identifier: MIT
import Foundation
import HudRendererAPI
import Testing
@testable import HudRegistry
import HudTestSupport

/// The SDK's Rust bindings (`Sources/HudRendererAPI/bindings/rust/hud_renderer.rs`),
/// kept in sync for real: the committed file is what the generator makes of
/// today's headers; a C program and a Rust program print every structure's
/// size and alignment, every field's offset and size, every constant (value,
/// size, signedness) and what the helpers compute, and must agree line for
/// line; and a renderer written in Rust on the bindings alone
/// (`Plugins/ExampleRust`) passes `hudhost validate --profile strict`, its
/// metadata read from the `.hud_renderers` section it emits.
///
/// The lists come from the C side, not from the generator: structures and
/// fields from `ABIHeaderTests.pinnedLayouts` (checked against the Swift
/// importer), macros from `cc -dM -E`, enum constants from the headers'
/// `enum { ... }` blocks. A name the bindings lack fails the Rust build.
struct RustBindingsTests {
    static let bindings = FixturePlugins.repositoryRoot + "/Sources/HudRendererAPI/bindings/rust/hud_renderer.rs"
    static let generator = FixturePlugins.repositoryRoot + "/Scripts/gen-rust-bindings.py"
    static let topicHeaders = ["hud_abi.h", "hud_metadata.h"]

    // MARK: - The generator

    @Test func theCommittedBindingsAreWhatTheGeneratorMakesOfTheHeaders() async throws {
        let output = try await FixturePlugins.run(["python3", Self.generator, "--check"])
        #expect(output.status == 0, "run Scripts/gen-rust-bindings.py and commit the result\n\(output.transcript)")
    }

    @Test func checkModeFailsWithADiffWhenTheBindingsAreStale() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("rust-stale")
        let stale = directory + "/hud_renderer.rs"
        let current = try String(contentsOfFile: Self.bindings, encoding: .utf8)
        try current.replacingOccurrences(of: "pub const HUD_MAX_MODES: i32 = 64;", with: "pub const HUD_MAX_MODES: i32 = 32;")
            .write(toFile: stale, atomically: true, encoding: .utf8)
        let output = try await FixturePlugins.run(["python3", Self.generator, "--check", "--output", stale])
        #expect(output.status == 1, "\(output.transcript)")
        #expect(output.stdout.contains("-pub const HUD_MAX_MODES: i32 = 32;") && output.stdout.contains("+pub const HUD_MAX_MODES: i32 = 64;"),
                "\(output.transcript)")
        #expect(output.stderr.contains("stale"), "\(output.transcript)")
    }

    // MARK: - C and Rust agree

    /// A constant of the headers and how to print it.
    struct Constant: Equatable {
        var name: String
        var isString: Bool
    }

    /// Every HUD_ object-like macro the C preprocessor ends up with whose
    /// value is an integer expression or a string literal, then every enum
    /// constant of the topic headers.
    static func constants() async throws -> [Constant] {
        let directory = try FixturePlugins.makeScratchDirectory("rust-macros")
        let source = directory + "/macros.c"
        try "#include \"hud_renderer.h\"\n".write(toFile: source, atomically: true, encoding: .utf8)
        let output = try await FixturePlugins.run(["cc", "-std=c11", "-dM", "-E", "-I", FixturePlugins.headerDirectory, source])
        try #require(output.status == 0, "\(output.transcript)")
        var found: [Constant] = []
        for line in output.stdout.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard words.count == 3, words[0] == "#define", words[1].hasPrefix("HUD_"), !words[1].contains("(") else { continue }
            let value = String(words[2]).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\"") && value.hasSuffix("\"") {
                found.append(Constant(name: String(words[1]), isString: true))
            } else if isIntegerExpression(value) {
                found.append(Constant(name: String(words[1]), isString: false))
            }
        }
        found.sort { $0.name < $1.name }
        for header in topicHeaders {
            let text = try String(contentsOfFile: FixturePlugins.headerDirectory + "/" + header, encoding: .utf8)
            let code = text.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: " ", options: .regularExpression)
            for block in matches(#"enum\s*\{([^}]*)\}"#, in: code) {
                for name in matches(#"(HUD_[A-Z0-9_]+)\s*(?:=|,|$)"#, in: block) {
                    found.append(Constant(name: name, isString: false))
                }
            }
        }
        return found
    }

    /// An expression of numbers, HUD_ constants, casts to the header's
    /// integer types and operators (not an attribute or an identifier).
    static func isIntegerExpression(_ value: String) -> Bool {
        guard !value.isEmpty else { return false }
        let stripped = value
            .replacingOccurrences(of: #"\b(uint32_t|int32_t|hud_rgba_t)\b"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: #"\bHUD_[A-Z0-9_]+\b"#, with: "1", options: .regularExpression)
            .replacingOccurrences(of: #"\b(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\b"#, with: "1", options: .regularExpression)
        return stripped.range(of: #"^[\s()|&^~<>+\-*,1]*$"#, options: .regularExpression) != nil && stripped.contains("1")
    }

    /// The first capture group of every match of `pattern`.
    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The helpers both sides compute: C's function-like macros and inline
    /// functions against their Rust counterparts in the bindings.
    static let helperChecks: [(name: String, c: String, rust: String)] = [
        ("make_version", "(long long)HUD_ABI_MAKE_VERSION(3, 7)", "hud_abi_make_version(3, 7) as i64"),
        ("get_major", "(long long)HUD_ABI_VERSION_GET_MAJOR(0x00030007u)", "hud_abi_version_get_major(0x00030007) as i64"),
        ("get_minor", "(long long)HUD_ABI_VERSION_GET_MINOR(0x00030007u)", "hud_abi_version_get_minor(0x00030007) as i64"),
        ("compatible_1_9", "(long long)hud_abi_version_is_compatible(HUD_ABI_MAKE_VERSION(1, 9))",
         "hud_abi_version_is_compatible(hud_abi_make_version(1, 9)) as i64"),
        ("compatible_2_0", "(long long)hud_abi_version_is_compatible(HUD_ABI_MAKE_VERSION(2, 0))",
         "hud_abi_version_is_compatible(hud_abi_make_version(2, 0)) as i64"),
        ("rgba", "(long long)HUD_RGBA(0x12, 0x34, 0x56, 0x78)", "hud_rgba(0x12, 0x34, 0x56, 0x78) as i64"),
        ("position_bit", "(long long)HUD_POSITION_BIT(HUD_POSITION_CENTER)", "hud_position_bit(HUD_POSITION_CENTER) as i64"),
        ("has_navigation_bar_120", "(long long)HUD_STRUCT_HAS(&env120, hud_environment_t, navigation_bar)",
         "hud_struct_has!(env120, hud_environment_t, navigation_bar) as i64"),
        ("has_navigation_title_120", "(long long)HUD_STRUCT_HAS(&env120, hud_environment_t, navigation_title)",
         "hud_struct_has!(env120, hud_environment_t, navigation_title) as i64"),
        ("push_first", "(long long)hud_layout_push_node(&layout, &node)", "unsafe { hud_layout_push_node(&mut layout, &node) } as i64"),
        ("push_second", "(long long)hud_layout_push_node(&layout, &node)", "unsafe { hud_layout_push_node(&mut layout, &node) } as i64"),
        ("pushed_count", "(long long)layout.count", "layout.count as i64"),
        ("finish", "(long long)hud_layout_finish(&layout)", "hud_layout_finish(&layout) as i64"),
    ]

    static func cProbe(_ constants: [Constant]) -> String {
        var lines = [
            "#include <stdio.h>", "#include <string.h>", "#include \"hud_renderer.h\"",
            "#define SIGNED(x) _Generic((x), unsigned int: 0, unsigned long: 0, unsigned long long: 0, default: 1)",
            "int main(void) {",
        ]
        for layout in ABIHeaderTests.pinnedLayouts {
            lines.append("    printf(\"%s %zu %zu\\n\", \"\(layout.name)\", sizeof(\(layout.name)), _Alignof(\(layout.name)));")
            for field in layout.fields {
                lines.append("    printf(\"%s %zu %zu\\n\", \"\(layout.name).\(field.name)\", offsetof(\(layout.name), \(field.name)), sizeof(((\(layout.name) *)0)->\(field.name)));")
            }
        }
        for constant in constants {
            if constant.isString {
                lines.append("    printf(\"%s \\\"%s\\\"\\n\", \"\(constant.name)\", \(constant.name));")
            } else {
                lines.append("    printf(\"%s %lld %zu %d\\n\", \"\(constant.name)\", (long long)(\(constant.name)), sizeof(\(constant.name)), SIGNED(\(constant.name)));")
            }
        }
        lines += [
            "    hud_environment_t env120;", "    memset(&env120, 0, sizeof env120);", "    env120.struct_size = 120;",
            "    unsigned char buffer[HUD_NODE_SIZE_1_0];", "    hud_layout_t layout;", "    memset(&layout, 0, sizeof layout);",
            "    layout.struct_size = sizeof layout;", "    layout.node_stride = HUD_NODE_SIZE_1_0;", "    layout.nodes = buffer;",
            "    layout.capacity = 1;", "    hud_node_t node;", "    memset(&node, 0, sizeof node);",
        ]
        for check in helperChecks { lines.append("    printf(\"helper %s %lld\\n\", \"\(check.name)\", \(check.c));") }
        lines += ["    return 0;", "}", ""]
        return lines.joined(separator: "\n")
    }

    static func rustProbe(_ constants: [Constant]) -> String {
        var lines = [
            "#[path = \"\(bindings)\"]", "mod hud;", "use hud::*;", "use core::mem::{align_of, offset_of, size_of};",
            "trait Int: Copy + Into<i128> { const SIGNED: i32; }",
            "impl Int for i32 { const SIGNED: i32 = 1; }", "impl Int for u32 { const SIGNED: i32 = 0; }",
            "impl Int for i64 { const SIGNED: i32 = 1; }", "impl Int for u64 { const SIGNED: i32 = 0; }",
            "impl Int for i16 { const SIGNED: i32 = 1; }", "impl Int for u16 { const SIGNED: i32 = 0; }",
            "impl Int for i8 { const SIGNED: i32 = 1; }", "impl Int for u8 { const SIGNED: i32 = 0; }",
            "fn int<T: Int>(name: &str, value: T) { println!(\"{} {} {} {}\", name, value.into(), size_of::<T>(), T::SIGNED); }",
            "fn field_size<T, F>(_: fn(&T) -> &F) -> usize { size_of::<F>() }",
            "fn main() {",
        ]
        for layout in ABIHeaderTests.pinnedLayouts {
            lines.append("    println!(\"{} {} {}\", \"\(layout.name)\", size_of::<\(layout.name)>(), align_of::<\(layout.name)>());")
            for field in layout.fields {
                lines.append("    println!(\"{} {} {}\", \"\(layout.name).\(field.name)\", offset_of!(\(layout.name), \(field.name)), field_size(|s: &\(layout.name)| &s.\(field.name)));")
            }
        }
        for constant in constants {
            if constant.isString {
                lines.append("    println!(\"{} \\\"{}\\\"\", \"\(constant.name)\", \(constant.name));")
            } else {
                lines.append("    int(\"\(constant.name)\", \(constant.name));")
            }
        }
        lines += [
            "    let mut env120 = hud_environment_t::default();", "    env120.struct_size = 120;", "    let env120 = &env120;",
            "    let mut buffer = [0u8; HUD_NODE_SIZE_1_0 as usize];", "    let mut layout = hud_layout_t::default();",
            "    layout.struct_size = size_of::<hud_layout_t>() as u32;", "    layout.node_stride = HUD_NODE_SIZE_1_0;",
            "    layout.nodes = buffer.as_mut_ptr().cast();", "    layout.capacity = 1;", "    let node = hud_node_t::default();",
        ]
        for check in helperChecks { lines.append("    println!(\"helper {} {}\", \"\(check.name)\", \(check.rust));") }
        lines += ["}", ""]
        return lines.joined(separator: "\n")
    }

    @Test(Requirement.when(RustToolchain.rustc != nil, "needs rustc on PATH or in ~/.cargo/bin"))
    func rustBindingsAgreeWithTheCHeadersOnEverySizeOffsetAndConstant() async throws {
        let rustc = try #require(RustToolchain.rustc)
        let constants = try await Self.constants()
        // The lists are not empty by accident: a few names every ABI 1.x has.
        for name in ["HUD_ABI_VERSION", "HUD_ENTRY_SYMBOL_NAME", "HUD_STATUS_OK", "HUD_POSITION_CENTER", "HUD_NODE_SIZE_1_0", "HUD_METADATA_SECTION"] {
            #expect(constants.contains { $0.name == name }, "\(name) is not among the constants found")
        }
        let directory = try FixturePlugins.makeScratchDirectory("rust-probe")
        try Self.cProbe(constants).write(toFile: directory + "/probe.c", atomically: true, encoding: .utf8)
        try Self.rustProbe(constants).write(toFile: directory + "/probe.rs", atomically: true, encoding: .utf8)
        try await FixturePlugins.compileCommand(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", FixturePlugins.headerDirectory,
                                           "-o", directory + "/probe-c", directory + "/probe.c"])
        try await FixturePlugins.compileCommand([rustc, "--edition", "2021", "-D", "warnings", "-o", directory + "/probe-rust", directory + "/probe.rs"])
        let c = try await FixturePlugins.run([directory + "/probe-c"])
        let rust = try await FixturePlugins.run([directory + "/probe-rust"])
        try #require(c.status == 0 && rust.status == 0, "\(c.transcript)\n\(rust.transcript)")
        let cLines = c.stdout.split(separator: "\n").map(String.init)
        let rustLines = rust.stdout.split(separator: "\n").map(String.init)
        let expected = ABIHeaderTests.pinnedLayouts.reduce(0) { $0 + 1 + $1.fields.count } + constants.count + Self.helperChecks.count
        #expect(cLines.count == expected)
        for (cLine, rustLine) in zip(cLines, rustLines) where cLine != rustLine {
            Issue.record("C says '\(cLine)', the Rust bindings say '\(rustLine)'")
        }
        #expect(cLines.count == rustLines.count)
    }

    // MARK: - A plugin in Rust

    /// Plugins/ExampleRust built the way Docs/PLUGIN_GUIDE.md says, once per
    /// test process.
    static let examplePlugin = Result { () throws -> String in
        guard let rustc = RustToolchain.rustc else { throw FixtureBuildError(command: ["rustc"], output: ProcessOutput(status: -1, stdout: "", stderr: "no rustc")) }
        let output = FixturePlugins.workDirectory + "/libexample_rust.so"
        try FixturePlugins.compileCommand([rustc, "--edition", "2021", "--crate-type", "cdylib", "-O", "-C", "panic=abort", "-D", "warnings",
                                           FixturePlugins.repositoryRoot + "/Plugins/ExampleRust/example_rust.rs", "-o", output])
        return output
    }

    @Test(Requirement.when(RustToolchain.rustc != nil, "needs rustc on PATH or in ~/.cargo/bin"))
    func aRustPluginOnTheBindingsPassesStrictValidation() async throws {
        let plugin = try Self.examplePlugin.get()
        let timeout = ["ASAN_OPTIONS", "TSAN_OPTIONS"].contains { ProcessInfo.processInfo.environment[$0] != nil } ? "60" : "30"
        let output = try await HudHost.run(["validate", plugin, "--profile", "strict", "--format", "json", "--seed", "20250101",
                                      "--fuzz-iterations", "40", "--timeout", timeout, "--layout-timeout", timeout])
        #expect(output.status == 0, "\(output.transcript)")
        let results = (try HudHost.json(output)["targets"]?.arrayValue ?? []).flatMap { $0["results"]?.arrayValue ?? [] }
        #expect(!results.isEmpty, "\(output.stdout)")
        for result in results {
            let status = result["status"]?.stringValue, check = result["check"]?.stringValue ?? "?"
            // Timing checks may warn on a loaded machine; nothing else may.
            #expect(TimingWarnings.passedOrFromLoad(check: check, status: status), "\(check): \(result["message"]?.stringValue ?? "")")
        }
    }

    @Test(Requirement.when(RustToolchain.rustc != nil, "needs rustc on PATH or in ~/.cargo/bin"))
    func aRustPluginIsListedFromTheMetadataSectionItEmits() async throws {
        let plugin = try Self.examplePlugin.get()
        let directory = try FixturePlugins.makeScratchDirectory("rust-list")
        try FileManager.default.copyItem(atPath: plugin, toPath: directory + "/libexample_rust.so")
        let output = try await HudHost.run(["list", "--json"], environment: ["HUD_RENDERER_PATH": directory])
        #expect(output.status == 0, "\(output.transcript)")
        let entry = try #require(HudHost.json(output)["renderers"]?.arrayValue?.first { $0["id"]?.stringValue == "org.hudson.example.rust" })
        #expect(entry["source"]?.stringValue == "elf-section", "listed without running it: \(output.stdout)")
        #expect(entry["name"]?.stringValue == "Rust corners" && entry["version"]?.stringValue == "1.0.0")
        #expect(entry["capabilities"]?.arrayValue?.compactMap(\.stringValue) == ["thread-safe"])
    }
}
