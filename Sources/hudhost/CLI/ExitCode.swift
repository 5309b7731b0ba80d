// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
/// hudhost's exit codes: one table for every command, printed in every
/// command's --help (`ExitCode.documented`) and in README and Docs/JSON.md.
///
/// The rule between 2 and 3: **2** when the command line is wrong on its
/// own terms — an unknown option, a missing or extra argument, a value
/// outside the option's documented set or range (`--device nope`,
/// `--timeout 1e308`, a `--title` over 4096 bytes), options that do not go
/// together, a `--reveal` of a slot that has no modes, a point off the
/// chosen screen. **3** when the command line is well formed but a target
/// it names cannot be used: a plugin file (an argument or `--plugin`), a
/// renderer id (an argument or `--style`), a `--scene` file, an `--out` /
/// `--output` file or directory — missing, unreadable, unwritable, of the
/// wrong kind (a directory, a FIFO), refused by the path checks, failing
/// to load or to parse, unknown, or filtered out. **1** when every target
/// could be used but the work failed: a renderer failed or returned an
/// invalid layout in `layout()`, checks failed, writing to stdout failed.
enum ExitCode: Int32 {
    /// Success.
    case ok = 0
    /// The targets could be used, but the work failed.
    case failure = 1
    /// The command line itself is wrong.
    case usage = 2
    /// A target named on the command line cannot be used.
    case unusableTarget = 3

    /// The code for a registry error: 3 when the renderer or plugin file
    /// could not be loaded at all (unknown id, a load failure, also inside
    /// a renderer host that failed while starting), 1 when a loaded
    /// renderer failed in `layout()` (an error status, an invalid layout, a
    /// crash or hang there).
    init(_ error: RegistryError) {
        switch error {
        case .unknownRenderer, .invalidELF, .sandboxedLoadFailed, .insecurePath, .metadataMismatch, .notAFile, .openFailed,
             .missingEntrySymbol, .nullEntry, .incompatibleABI, .structTooSmall, .initFailed, .invalidRendererCount,
             .invalidDescriptor, .duplicateID:
            self = .unusableTarget
        case .rendererHostFailed(_, _, let code, _):
            self = Self.isLoadFailure(code) ? .unusableTarget : .failure
        case .layoutFailed, .layoutTooLarge, .invalidLayout, .actionCalledDuringLayout, .invalidComplications, .thunkAllocationFailed:
            self = .failure
        }
    }

    /// Codes a renderer host reports when it could not load the plugin
    /// (as opposed to a crash, hang or exit, which may be in `layout()`).
    static func isLoadFailure(_ code: FailureCode) -> Bool {
        switch code {
        case .io, .notELF, .truncated, .wrongClass, .wrongMachine, .notSharedObject, .executable, .corrupt, .badMetadata,
             .insecurePath, .metadataMismatch, .notAFile, .openFailed, .missingEntrySymbol, .nullEntry, .incompatibleABI,
             .structTooSmall, .initFailed, .invalidRendererCount, .invalidDescriptor, .duplicateID, .duplicateFile,
             .unknownRenderer, .noRenderers, .sandboxIncomplete, .notScanned:
            true
        case .layoutFailed, .layoutTooLarge, .invalidLayout, .actionCalledDuringLayout, .invalidComplications,
             .thunkAllocationFailed, .crashed, .timedOut, .exited, .scanFailed, .protocolError, .rendererUnavailable, .failed:
            false
        }
    }
}

extension ExitCode {
    /// The exit codes every command's help and man page lists.
    static let documented = [
        HelpEntry(names: ["0"], text: "success"),
        HelpEntry(names: ["1"], text: "failure: every target could be used but the work failed (a renderer failed or returned an invalid layout, checks failed, writing to standard output failed)"),
        HelpEntry(names: ["2"], text: "usage error: the command line is wrong on its own terms (unknown option, missing argument, a value outside its set or range, a --reveal of a slot without modes, a point off the screen)"),
        HelpEntry(names: ["3"], text: "a target named on the command line cannot be used: a plugin file, a renderer id or --style, a --scene file, an --out/--output path — missing, unreadable, unwritable, refused, not loadable, unknown or filtered out (`hudhost why ID` explains a renderer)"),
    ]
}
