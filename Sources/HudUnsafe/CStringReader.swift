package import HudModel
import Glibc

/// Reads strings a plugin handed to the host: bounded (never past
/// `limit + 1` bytes), checked for UTF-8, copied into Swift.
package enum CStringReader {
    package enum Failure: Error, Equatable {
        case null
        case tooLong(limit: Int)
        case invalidUTF8
        case empty
    }

    package static func read(_ pointer: UnsafePointer<CChar>?, limit: Int, allowEmpty: Bool = true) throws(Failure) -> String {
        guard let pointer else { throw .null }
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { throw .tooLong(limit: limit) }
        guard allowEmpty || length > 0 else { throw .empty }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        guard let string = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return string
    }

    package static func readOptional(_ pointer: UnsafePointer<CChar>?, limit: Int) throws(Failure) -> String? {
        guard pointer != nil else { return nil }
        return try read(pointer, limit: limit)
    }

    /// The failure as the tail of a sentence ("is NULL", ...).
    package static func explain(_ failure: Failure) -> String {
        switch failure {
        case .null: "is NULL"
        case .tooLong(let limit): "is longer than \(limit) bytes (or not NUL-terminated)"
        case .invalidUTF8: "is not valid UTF-8"
        case .empty: "is empty"
        }
    }
}
