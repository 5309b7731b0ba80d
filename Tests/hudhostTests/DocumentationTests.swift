// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudTestSupport

/// Help, man pages and shell completions are made from one source per
/// command (its option declarations and help page) and must agree; the
/// completion scripts must parse and complete; every source carries its
/// licence line.
@Suite struct DocumentationTests {
    static let commands = ["list", "probe", "render", "demo", "preview", "why", "cache", "doctor", "sdk", "validate", "snapshot", "gallery", "new", "completions"]

    /// The options the fish script completes for `command`, each spelling
    /// (`-s j -l jobs`) with the option's description.
    static func completedOptions(_ fish: String, command: String) -> [String: String] {
        var options: [String: String] = [:]
        let prefix = "complete -c hudhost -n '__fish_seen_subcommand_from \(command)' "
        for line in fish.split(separator: "\n").map(String.init) where line.hasPrefix(prefix) {
            let description = line.firstRange(of: " -d '").map { String(line[$0.upperBound...].dropLast()) } ?? ""
            let words = line.dropFirst(prefix.count).split(separator: " ").map(String.init)
            for (flag, name) in zip(words, words.dropFirst()) where flag == "-l" || flag == "-s" {
                options[(flag == "-l" ? "--" : "-") + name] = description
            }
        }
        return options
    }

    /// The option names a man page documents (`.TP` entries starting with `\fB-`).
    static func documentedOptions(_ page: String) -> Set<String> {
        var names: Set<String> = []
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() where line == ".TP" && index + 1 < lines.count {
            var entry = Substring(lines[index + 1])
            while let start = entry.firstRange(of: "\\fB\\-") {
                let rest = entry[start.upperBound...]
                guard let end = rest.firstRange(of: "\\fR") else { break }
                names.insert("-" + rest[..<end.lowerBound].replacing("\\-", with: "-"))
                entry = rest[end.upperBound...]
            }
        }
        return names
    }

    @Test func theManPagesAndTheCompletionsOfferTheSameOptionsEachDescribed() async throws {
        let fish = try await HudHost.run(["completions", "fish"])
        #expect(fish.status == 0)
        let manDirectory = try FixturePlugins.makeScratchDirectory("man")
        let man = try await HudHost.run(["_man", manDirectory])
        #expect(man.status == 0, "\(man.stderr)")
        for command in Self.commands {
            let completed = Self.completedOptions(fish.stdout, command: command)
            #expect(completed["--help"] != nil && completed["-h"] != nil, "\(command): --help is not completed")
            for (option, description) in completed {
                #expect(!description.isEmpty, "\(command) \(option) is completed without a description")
            }
            let page = try String(contentsOfFile: manDirectory + "/hudhost-\(command).1", encoding: .utf8)
            let documented = Self.documentedOptions(page)
            #expect(documented == Set(completed.keys).subtracting(["-h", "--help"]), "\(command): the man page and the completions differ")
            let help = try await HudHost.run([command, "--help"])
            for option in documented {
                #expect(help.stdout.contains(" \(option)"), "\(command) \(option) is in the man page but not in --help")
            }
        }
    }

    @Test func manPagesCoverEveryCommandAndAreCleanRoff() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("man-lint")
        let result = try await HudHost.run(["_man", directory])
        #expect(result.status == 0)
        let pages = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(pages == (["hudhost"] + Self.commands.map { "hudhost-\($0)" }).map { $0 + ".1" }.sorted())
        let tool = try String(contentsOfFile: directory + "/hudhost.1", encoding: .utf8)
        for command in Self.commands { #expect(tool.contains(".BR hudhost\\-\(command) (1)"), "hudhost.1 does not point to hudhost-\(command)(1)") }
        let render = try String(contentsOfFile: directory + "/hudhost-render.1", encoding: .utf8)
        for section in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH EXAMPLES", ".SH EXIT CODES"] {
            #expect(render.contains(section), "hudhost-render.1 lacks \(section)")
        }
        // The lint needs groff: skipped visibly without it, a failure in CI.
        guard Requirement.installed("groff") || Requirement.inCI else {
            print("skipped the groff lint of the man pages: needs groff (apt-get install groff-base)")
            return
        }
        try Requirement.require(Requirement.installed("groff"), "groff")
        for page in pages {
            let lint = try await FixturePlugins.run(["groff", "-man", "-Tutf8", "-ww", "-z", directory + "/" + page])
            #expect(lint.status == 0 && lint.stderr.isEmpty, "\(page): \(lint.stderr)")
        }
    }

    /// Every topic page the help and the man pages name (`hud-scenes(5)`…)
    /// is one `make` builds from Docs/ (Scripts/topic-man.sh), in that
    /// section, and hudhost.1 points to each of them.
    @Test func theTopicPagesHelpNamesAreTheOnesMakeBuilds() async throws {
        let list = try await FixturePlugins.run([FixturePlugins.repositoryRoot + "/Scripts/topic-man.sh", "--list"])
        #expect(list.status == 0, "\(list.stderr)")
        var built: [String: String] = [:]  // page → section
        for line in list.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            #expect(fields.count == 3 && FileManager.default.fileExists(atPath: FixturePlugins.repositoryRoot + "/" + fields[2]), "\(line)")
            if fields.count == 3 { built[fields[1]] = fields[0] }
        }
        #expect(built["hud-abi"] == "7" && built["hud-conformance"] == "7" && built["hud-scenes"] == "5", "\(built)")
        let directory = try FixturePlugins.makeScratchDirectory("man-topics")
        #expect(try await HudHost.run(["_man", directory]).status == 0)
        let tool = try String(contentsOfFile: directory + "/hudhost.1", encoding: .utf8)
        for (page, section) in built { #expect(tool.contains(".BR \(page.replacing("-", with: "\\-")) (\(section))"), "hudhost.1 does not point to \(page)(\(section))") }
        var named: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let page = try String(contentsOfFile: directory + "/" + file, encoding: .utf8).replacing("\\-", with: "-")
            for match in page.matches(of: /(hud-[a-z-]+)\s*\(([0-9])\)/) {
                named.insert(String(match.output.1))
                #expect(built[String(match.output.1)] == String(match.output.2), "\(file) names \(match.output.1)(\(match.output.2)), which make does not build")
            }
        }
        #expect(named.isSuperset(of: ["hud-conformance", "hud-scenes", "hud-events", "hud-isolation"]), "\(named)")
    }

    /// `make install` ships the documents with their links rewritten for
    /// share/doc/hud (README's `Docs/EVENTS.md` is `EVENTS.md` there, a
    /// header `../../../include/hud/…`), and every relative link of what it ships
    /// leads to a file it ships.
    @Test(Requirement.tools("make", "python3", install: "apt-get install make python3"))
    func theInstalledDocumentsLinkOnlyToInstalledFiles() async throws {
        let generated = try FixturePlugins.makeScratchDirectory("installed-docs")
        let make = try await FixturePlugins.run(["make", "-s", "-C", FixturePlugins.repositoryRoot, "docs", "generated=\(generated)"])
        #expect(make.status == 0, "\(make.stderr)")
        let check = try await FixturePlugins.run(["python3", FixturePlugins.repositoryRoot + "/Scripts/install-docs.py", "--check", generated + "/doc"])
        #expect(check.status == 0, "\(check.stderr)")
        let readme = try String(contentsOfFile: generated + "/doc/README.md", encoding: .utf8)
        #expect(readme.contains("](EVENTS.md#the-control-deck)") && !readme.contains("](Docs/"), "README's links were not rewritten for the installed layout")
        // A document named in prose by its checkout path reads as the installed name.
        let guide = try String(contentsOfFile: generated + "/doc/PLUGIN_GUIDE.md", encoding: .utf8)
        #expect(guide.contains("is fine: COMPATIBILITY.md)") && !guide.contains("Docs/COMPATIBILITY.md"), "a prose mention kept its checkout path")
        for file in ["JSON.md", "DISCOVERY.md", "examples/home.json", "schemas/render-v1.schema.json"] {
            #expect(FileManager.default.fileExists(atPath: generated + "/doc/" + file), "\(file) is not shipped")
        }
    }

    /// A shipped document that links to a file the install does not ship
    /// stops `make`, naming the document, the link and the file.
    @Test(Requirement.tools("python3", install: "apt-get install python3"))
    func aLinkToAnUnshippedFileStopsTheBuild() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("unshipped-link")
        try "See [the design](DESIGN.md#rules).\n".write(toFile: directory + "/GUIDE.md", atomically: true, encoding: .utf8)
        try "design\n".write(toFile: directory + "/DESIGN.md", atomically: true, encoding: .utf8)
        let made = try await FixturePlugins.run(["python3", FixturePlugins.repositoryRoot + "/Scripts/install-docs.py", directory + "/out", "--in", ".", directory + "/GUIDE.md"])
        #expect(made.status == 1)
        #expect(made.stderr.contains("GUIDE.md: the link (DESIGN.md#rules) points to \(directory)/DESIGN.md, which make install does not ship"), "\(made.stderr)")
        let shipped = try await FixturePlugins.run(["python3", FixturePlugins.repositoryRoot + "/Scripts/install-docs.py", directory + "/out", "--in", ".", directory + "/GUIDE.md", directory + "/DESIGN.md"])
        #expect(shipped.status == 0, "\(shipped.stderr)")
    }

    @Test func bashCompletesCommandsOptionsAndValues() async throws {
        let script = try FixturePlugins.makeScratchDirectory("completion") + "/hudhost.bash"
        let generated = try await HudHost.run(["completions", "bash"])
        try generated.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) async throws -> [String] {
            let array = words.map { "'\($0)'" }.joined(separator: " ")
            let program = "source '\(script)'; COMP_WORDS=(hudhost \(array)); COMP_CWORD=\(words.count); _hudhost; printf '%s\\n' \"${COMPREPLY[@]}\""
            let result = try await FixturePlugins.run(["bash", "-c", program])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        await #expect(try complete(["ren"]) == ["render"])
        await #expect(try complete(["--vers"]) == ["--version"])
        await #expect(try complete(["--verb"]) == ["--verbose"])
        await #expect(try complete(["render", "--format", ""]) == ["ascii", "svg", "png", "json"])
        await #expect(try complete(["validate", "--profile", "st"]) == ["standard", "strict"])
        await #expect(try complete(["render", "--device", "iphone-16-pro"]).contains("iphone-16-pro-max"))
        await #expect(try complete(["demo", "--no-"]).sorted() == ["--no-cache", "--no-svg"])
        await #expect(try complete(["completions", "z"]) == ["zsh"])
    }

    @Test(Requirement.tools("zsh", "fish", install: "apt-get install zsh fish; .ci/run installs them"))
    func zshAndFishScriptsParseAndComplete() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("completion-shells")
        for shell in ["zsh", "fish"] {
            let generated = try await HudHost.run(["completions", shell])
            try generated.stdout.write(toFile: directory + "/hudhost." + shell, atomically: true, encoding: .utf8)
        }
        let zsh = try await FixturePlugins.run(["zsh", "-n", directory + "/hudhost.zsh"])
        #expect(zsh.status == 0, "\(zsh.stderr)")
        let fish = try await FixturePlugins.run(["fish", "--no-execute", directory + "/hudhost.fish"])
        #expect(fish.status == 0, "\(fish.stderr)")
        let completion = try await FixturePlugins.run(["fish", "-c", "source \(directory)/hudhost.fish; complete -C 'hudhost validate --format '"])
        #expect(completion.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) } == ["json", "junit", "tap", "text"])
    }

    @Test func versionNamesTheReleaseAndTheABI() async throws {
        let version = try await HudHost.run(["--version"])
        #expect(version.status == 0)
        let abi = try await HudHost.run(["sdk", "--abi-version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.stdout.wholeMatch(of: /hudhost [0-9]+\.[0-9]+\.[0-9]+ \(renderer ABI [0-9]+\.[0-9]+\)\n/) != nil, "\(version.stdout)")
        #expect(version.stdout.contains("(renderer ABI \(abi))"))
    }

    /// The plugin guide's field-offset table, compiled against the header:
    /// every size and offset it gives is a `_Static_assert`, and every
    /// structure of the header has a row.
    /// The guide's table of contents lists every numbered section, with
    /// the anchor its heading gets.
    @Test func thePluginGuidesContentsListEverySection() throws {
        let guide = try String(contentsOfFile: FixturePlugins.repositoryRoot + "/Docs/PLUGIN_GUIDE.md", encoding: .utf8)
        let lines = guide.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sections = lines.filter { $0.hasPrefix("## ") && $0.dropFirst(3).first?.isNumber == true }.map { String($0.dropFirst(3)) }
        #expect(sections.count >= 12)
        for title in sections {
            let anchor = title.lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }.replacingOccurrences(of: " ", with: "-")
            #expect(lines.contains("- [\(title)](#\(anchor))"), "the contents do not list '\(title)' as #\(anchor)")
        }
    }

    @Test func thePluginGuidesFieldOffsetsAreTheHeaders() async throws {
        let guide = try String(contentsOfFile: FixturePlugins.repositoryRoot + "/Docs/PLUGIN_GUIDE.md", encoding: .utf8)
        var asserts: [String] = []
        var structures: Set<String> = []
        for line in guide.split(separator: "\n").map(String.init) where line.hasPrefix("| `hud_") {
            let cells = line.split(separator: "|").map { String($0).trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, let size = Int(cells[1]) else { continue }
            let type = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            structures.insert(type)
            asserts.append("_Static_assert(sizeof(\(type)) == \(size), \"\(type) size\");")
            var fields: [String] = []
            for field in cells[2].split(separator: ",") {
                let parts = field.split(separator: " ").map(String.init)
                try #require(parts.count == 2 && Int(parts[1]) != nil, "cannot read '\(field)' in the row of \(type)")
                asserts.append("_Static_assert(offsetof(\(type), \(parts[0])) == \(parts[1]), \"\(type).\(parts[0])\");")
                fields.append(parts[0])
            }
            // Every field is listed: the first at 0, each next one after no
            // more than padding, and nothing but padding after the last.
            func member(_ name: String) -> String { "((\(type) *)0)->\(name)" }
            func end(_ name: String) -> String { "(offsetof(\(type), \(name)) + sizeof(\(member(name))))" }
            if let first = fields.first, let last = fields.last {
                asserts.append("_Static_assert(offsetof(\(type), \(first)) == 0, \"\(type): a field before \(first) is not listed\");")
                for (a, b) in zip(fields, fields.dropFirst()) {
                    asserts.append("_Static_assert(offsetof(\(type), \(b)) - \(end(a)) < __alignof__(\(member(b))), \"\(type): a field between \(a) and \(b) is not listed\");")
                }
                asserts.append("_Static_assert(sizeof(\(type)) - \(end(last)) < __alignof__(\(type)), \"\(type): a field after \(last) is not listed\");")
            }
        }
        let header = try String(contentsOfFile: FixturePlugins.headerDirectory + "/hud_abi.h", encoding: .utf8)
            + String(contentsOfFile: FixturePlugins.headerDirectory + "/hud_metadata.h", encoding: .utf8)
        let declared = Set(header.matches(of: /\} (hud_[a-z_]+_t);/).map { String($0.output.1) } + ["hud_renderer_descriptor_t"])
        #expect(structures == declared, "the table's structures differ from the header's")
        let directory = try FixturePlugins.makeScratchDirectory("offsets")
        let source = "#include <stddef.h>\n#include \"hud_renderer.h\"\n" + asserts.joined(separator: "\n") + "\nint main(void) { return 0; }\n"
        try source.write(toFile: directory + "/offsets.c", atomically: true, encoding: .utf8)
        let compile = try await FixturePlugins.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", FixturePlugins.headerDirectory,
                                              "-o", directory + "/offsets", directory + "/offsets.c"])
        #expect(compile.status == 0, "Docs/PLUGIN_GUIDE.md section 12 disagrees with the header:\n\(compile.stderr)")
        #expect(asserts.count > 240)
    }

    /// Every target of this package a source file imports is one of its
    /// own target's declared dependencies in Package.swift, not one it
    /// reaches only through another (SwiftPM's
    /// --explicit-target-dependency-import-check accepts those).
    @Test func everyImportOfATargetIsADeclaredDependency() async throws {
        // A scratch path of its own: `swift test` holds the lock on .build.
        let scratch = try FixturePlugins.makeScratchDirectory("dump-package")
        let dump = try await FixturePlugins.run(["swift", "package", "--package-path", FixturePlugins.repositoryRoot, "--scratch-path", scratch, "dump-package"])
        try #require(dump.status == 0, "swift package dump-package: \(dump.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        let names = Set(targets.compactMap { $0["name"] as? String })
        var checked = 0
        for target in targets {
            guard let name = target["name"] as? String, let path = target["path"] as? String else { continue }
            let declared = Set((target["dependencies"] as? [[String: Any]] ?? []).compactMap { ($0["byName"] as? [Any])?.first as? String })
            let directory = FixturePlugins.repositoryRoot + "/" + path
            guard let files = FileManager.default.enumerator(atPath: directory) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
                for match in text.matches(of: /(?m)^(?:@[A-Za-z_]+(?:\([^)\n]*\))? )*(?:public |package |internal |fileprivate |private )?import (?:(?:struct|class|enum|protocol|typealias|func|var|let) )?([A-Za-z_][A-Za-z0-9_]*)/) {
                    let module = String(match.output.1)
                    guard names.contains(module), module != name else { continue }
                    checked += 1
                    #expect(declared.contains(module), "\(path)/\(file) imports \(module), which is not among \(name)'s dependencies in Package.swift")
                }
            }
        }
        #expect(checked > 100)
    }

    /// Every target is compiled with strict memory safety checking, so an
    /// unsafe construct must be marked `unsafe` to build without a warning.
    /// Only the targets that hold unsafe code (ARCHITECTURE.md) may mark
    /// one: anywhere else the mark would silence the check.
    @Test func unsafeCodeStaysInTheUnsafeTargets() throws {
        let unsafeTargets: Set<String> = ["HudSystem", "HudPluginBoundary", "HudHarness", "HudHTTPServer", "HudRaster", "BuiltinRenderers"]
        let sources = FixturePlugins.repositoryRoot + "/Sources"
        let marked = /(?:^|[^A-Za-z0-9_."])(?:unsafe [A-Za-z_(&\[]|@unsafe\b|@safe\b|for unsafe )/
        var scanned = 0
        var seen: [String: Int] = [:]
        for target in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
            guard let files = FileManager.default.enumerator(atPath: sources + "/" + target) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: sources + "/" + target + "/" + file, encoding: .utf8)
                var inLiteral = false
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    // Code only: not comments, not multi-line string literals (the scaffolds' Rust).
                    let delimiters = line.matches(of: /"""/).count
                    defer { if delimiters % 2 == 1 { inLiteral.toggle() } }
                    guard !inLiteral, delimiters == 0 else { continue }
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    guard code.contains(marked) else { continue }
                    seen[target, default: 0] += 1
                    #expect(unsafeTargets.contains(target), "Sources/\(target)/\(file):\(number + 1) marks unsafe code outside the unsafe targets: \(line)")
                }
                scanned += 1
            }
        }
        #expect(scanned > 100)
        // The rule sees the marks where they belong.
        for target in unsafeTargets { #expect(seen[target, default: 0] > 10, "no unsafe marks found in \(target)") }
    }

    /// HudRegistry's folders are layered, each using only those below it:
    /// Shell → Registry → Sandbox → Loading, and any of them Marshaling
    /// (ARCHITECTURE.md). A file that names a type defined in a folder
    /// above its own is a cycle in the making.
    @Test func hudRegistryFoldersUseOnlyTheFoldersBelowThem() throws {
        let rank = ["Exports": 0, "Loading": 1, "Marshaling": 1, "Sandbox": 2, "Registry": 3, "Shell": 4]
        let root = FixturePlugins.repositoryRoot + "/Sources/HudRegistry"
        let folders = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }.sorted()
        #expect(Set(folders) == Set(rank.keys), "a new folder needs its place in the layering")
        var code: [(folder: String, file: String, text: String)] = []
        var definedIn: [String: String] = [:]
        for folder in folders {
            for file in try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder) where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + folder + "/" + file, encoding: .utf8)
                    .split(separator: "\n").map { $0.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
                    .joined(separator: "\n")
                code.append((folder, file, text))
                for match in text.matches(of: /(?m)^(?:(?:public|package|private|fileprivate|internal|final) )*(?:struct|class|enum|protocol) ([A-Z][A-Za-z0-9]*)/) {
                    definedIn[String(match.output.1)] = folder
                }
            }
        }
        #expect(definedIn.count > 30)
        let names = try definedIn.map { type, home in (type, home, try Regex("\\b\(type)\\b")) }
        for (folder, file, text) in code {
            for (type, home, name) in names where rank[home, default: 0] > rank[folder, default: 0] {
                #expect(text.firstRange(of: name) == nil,
                        "Sources/HudRegistry/\(folder)/\(file) uses \(type) from \(home)/, a folder above it")
            }
        }
    }

    @Test func everySourceCarriesItsLicenceLine() async throws {
        let listing = try await FixturePlugins.run(["git", "-C", FixturePlugins.repositoryRoot, "ls-files"])
        try #require(listing.status == 0, "git ls-files: \(listing.stderr)")
        let suffixes = [".swift", ".c", ".h", ".sh", ".py", ".modulemap", ".rs"]
        let named: Set<String> = [".ci/run", "Makefile"]
        let paths: [String] = listing.stdout.split(separator: "\n").map(String.init)
        let sources = paths.filter { path in named.contains(path) || suffixes.contains { path.hasSuffix($0) } }
        #expect(sources.count > 100)
        #expect(FileManager.default.fileExists(atPath: FixturePlugins.repositoryRoot + "/LICENSE"))
        for path in sources {
            let text = try String(contentsOfFile: FixturePlugins.repositoryRoot + "/" + path, encoding: .utf8)
            #expect(text.prefix(400).contains("SPDX-License-Identifier: MIT"), "\(path) has no SPDX-License-Identifier line")
        }
    }
}
