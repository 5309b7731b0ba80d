// SPDX-License-Identifier: MIT
import Glibc
import HudRegistry
import HudSystem

/// The checks on file and directory targets named on the command line
/// (`--scene`, `--out`, `--output`), made before any work starts so a
/// long run never ends in "cannot write": each failure is exit 3.
extension Output {
    /// A file the command will read whole: a regular file, opened without
    /// blocking (a FIFO with no writer is refused, not waited on), at most
    /// `limit` bytes.
    static func readRegularFile(_ path: String, limit: Int = 16 << 20) -> Result<[UInt8], FileError> {
        let file: ReadOnlyFile
        switch ReadOnlyFile.openRegular(path) {
        case .success(let opened): file = opened
        case .failure(let error): return .failure(FileError(path: path, reason: error.description))
        }
        switch file.readToEnd(limit: limit) {
        case .success(let bytes): return .success(bytes)
        case .failure(let error) where error.code == EFBIG: return .failure(FileError(path: path, reason: "larger than \(limit) bytes"))
        case .failure(let error): return .failure(FileError(path: path, reason: error.description))
        }
    }

    /// Why `path` cannot be written as an output file, or nil: an existing
    /// path must be a regular file (a FIFO would block, a device or a
    /// symbolic link is not a file hudhost replaces) and writable; a new one
    /// needs a writable directory to be created in. The file is then
    /// replaced, never written through (`writeFile`).
    static func writeProblem(file path: String) -> FileError? {
        switch SystemCalls.status(of: path, followLinks: false) {
        case .success(let info):
            if info.isDirectory { return FileError(path: path, reason: "it is a directory; give a file name", writing: true) }
            guard info.isRegularFile else {
                return FileError(path: path, reason: "it is \(info.kindName), not a regular file; give the path of a file to create or replace", writing: true)
            }
            if let error = SystemCalls.writeAccessProblem(path) { return FileError(path: path, reason: error.description, writing: true) }
            return nil
        case .failure(let error) where error.code == ENOENT:
            let directory = PathSecurity.parent(of: path)
            switch SystemCalls.status(of: directory) {
            case .success(let info) where info.isDirectory:
                if let error = SystemCalls.writeAccessProblem(directory, search: true) {
                    return FileError(path: path, reason: "cannot create files in \(directory): \(error)", writing: true)
                }
                return nil
            case .success:
                return FileError(path: path, reason: "\(directory) is not a directory", writing: true)
            case .failure(let error):
                return FileError(path: path, reason: "\(directory): \(error)", writing: true)
            }
        case .failure(let error):
            return FileError(path: path, reason: error.description, writing: true)
        }
    }

    /// Creates the output directory `path` (and missing parents) and checks
    /// that files can be created in it; nil when they can.
    static func prepareDirectory(_ path: String) -> FileError? {
        if let error = makeDirectory(path) { return error }
        if let error = SystemCalls.writeAccessProblem(path, search: true) {
            return FileError(path: path, reason: "cannot create files in it: \(error)", writing: true)
        }
        return nil
    }
}
