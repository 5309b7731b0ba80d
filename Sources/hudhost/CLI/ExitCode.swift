// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe
/// hudhost's exit codes (documented in every command's --help).
enum ExitCode: Int32 {
    /// Success.
    case ok = 0
    /// The command ran and something failed (a layout error, checks failed).
    case failure = 1
    /// The command line was wrong (unknown option, bad value, missing file).
    case usage = 2
    /// A plugin named on the command line could not be loaded.
    case loadFailure = 3
}

let exitCodeHelp = """
    EXIT CODES
      0  success
      1  failure (e.g. the renderer failed or returned an invalid layout)
      2  usage error (unknown option, bad value, unreadable scene file)
      3  a plugin named on the command line could not be loaded
    """
