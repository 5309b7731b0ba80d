// SPDX-License-Identifier: MIT
// Every librsvg/cairo call of the project, through CRaster, in one file
// (Docs/ARCHITECTURE.md, "Where unsafe code lives"): SVG text in, PNG bytes
// out.
//
// Pointers and owners. `svg`: the Swift string's UTF-8, valid during the
// call only, read by librsvg. `png`: malloc'd by hud_raster_png, copied into
// a Swift array at once and freed with hud_raster_free before returning.
// `error`: a stack buffer the C side writes a NUL-terminated reason into.
// `a`, `b` of `compare`: the arrays' bytes, valid during the call only,
// read by cairo. Thread: the caller's; one call at a time.
import CRaster

/// SVG to PNG with librsvg and cairo (Debian's librsvg2-2), loaded on first
/// use: `hudhost render --format png`.
package enum PNGRaster {
    /// Why a picture could not be drawn.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// `svg` (its viewport `width` x `height` points) drawn at `scale`
    /// pixels per point and encoded as PNG.
    package static func png(svg: String, width: Double, height: Double, scale: Double) -> Result<[UInt8], Failure> {
        var svg = svg
        var reason = [CChar](repeating: 0, count: 512)
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = svg.withUTF8 { text in
            unsafe reason.withUnsafeMutableBufferPointer { buffer in
                unsafe text.withMemoryRebound(to: CChar.self) { characters in
                    unsafe hud_raster_png(characters.baseAddress, characters.count, width, height, scale, &bytes, &size,
                                          buffer.baseAddress, buffer.count)
                }
            }
        }
        guard status == 0, let bytes = unsafe bytes else {
            let text = unsafe reason.withUnsafeBufferPointer { unsafe String(cString: $0.baseAddress!) }
            return .failure(Failure(description: text))
        }
        defer { unsafe hud_raster_free(bytes) }
        return unsafe .success(Array(UnsafeBufferPointer(start: bytes, count: size)))
    }

    /// How two pictures differ, pixel by pixel.
    package struct Difference: Sendable {
        package var width: Int, height: Int
        package var newWidth: Int, newHeight: Int
        /// Pixels where a channel differs by more than the tolerance
        /// (0 when the sizes differ: see `sizeChanged`).
        package var changedPixels: Int
        /// The box around the changed pixels, nil when none changed.
        package var box: (x: Int, y: Int, width: Int, height: Int)?
        /// The diff picture (PNG: changed pixels red over a faint baseline),
        /// when asked for and the sizes are equal.
        package var picture: [UInt8]?

        package var sizeChanged: Bool { width != newWidth || height != newHeight }

        /// No difference: two byte-identical PNGs (whose size is read from
        /// the IHDR chunk, bytes 16...23).
        package init(identicalTo png: [UInt8]) {
            func word(_ at: Int) -> Int { png.count >= at + 4 ? png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } : 0 }
            (width, height, newWidth, newHeight, changedPixels, box, picture) = (word(16), word(20), word(16), word(20), 0, nil, nil)
        }

        package init(width: Int, height: Int, newWidth: Int, newHeight: Int, changedPixels: Int, box: (x: Int, y: Int, width: Int, height: Int)?,
                     picture: [UInt8]?) {
            (self.width, self.height, self.newWidth, self.newHeight) = (width, height, newWidth, newHeight)
            (self.changedPixels, self.box, self.picture) = (changedPixels, box, picture)
        }

        package var isEmpty: Bool { !sizeChanged && changedPixels == 0 }

    }

    /// The PNGs `baseline` and `new` decoded by cairo and compared: a pixel
    /// counts as changed when a channel differs by more than `tolerance`.
    /// With `picture`, the diff picture too.
    package static func compare(_ baseline: [UInt8], _ new: [UInt8], tolerance: Int, picture: Bool = false) -> Result<Difference, Failure> {
        var reason = [CChar](repeating: 0, count: 512)
        var raw = hud_raster_difference_t()
        var diff: UnsafeMutablePointer<UInt8>?
        var diffSize = 0
        let status = unsafe baseline.withUnsafeBufferPointer { a in
            unsafe new.withUnsafeBufferPointer { b in
                unsafe reason.withUnsafeMutableBufferPointer { buffer in
                    unsafe picture
                        ? hud_raster_compare(a.baseAddress, a.count, b.baseAddress, b.count, Int32(tolerance), &raw, &diff, &diffSize,
                                             buffer.baseAddress, buffer.count)
                        : hud_raster_compare(a.baseAddress, a.count, b.baseAddress, b.count, Int32(tolerance), &raw, nil, nil,
                                             buffer.baseAddress, buffer.count)
                }
            }
        }
        defer { if let diff = unsafe diff { unsafe hud_raster_free(diff) } }
        guard status == 0 else {
            return unsafe .failure(Failure(description: reason.withUnsafeBufferPointer { unsafe String(cString: $0.baseAddress!) }))
        }
        let box = raw.max_x >= raw.min_x && raw.max_y >= raw.min_y
            ? (x: Int(raw.min_x), y: Int(raw.min_y), width: Int(raw.max_x - raw.min_x + 1), height: Int(raw.max_y - raw.min_y + 1)) : nil
        return unsafe .success(Difference(width: Int(raw.width), height: Int(raw.height), newWidth: Int(raw.new_width), newHeight: Int(raw.new_height),
                                   changedPixels: raw.changed_pixels, box: box,
                                   picture: diff.map { unsafe Array(UnsafeBufferPointer(start: $0, count: diffSize)) }))
    }
}
