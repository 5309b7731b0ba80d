// SPDX-License-Identifier: MIT
// Every librsvg/cairo call of the project, through CRaster, in one file
// (Docs/ARCHITECTURE.md, "Where unsafe code lives"): SVG text in, PNG bytes
// out.
//
// Pointers and owners. `svg`: the Swift string's UTF-8, valid during the
// call only, read by librsvg. `png`: malloc'd by hud_raster_png, copied into
// a Swift array at once and freed with hud_raster_free before returning.
// `error`: a stack buffer the C side writes a NUL-terminated reason into.
// Thread: the caller's; one call at a time (the CLI draws once).
import CRaster

/// SVG to PNG with librsvg and cairo (Debian's librsvg2-2), loaded on first
/// use: `hudhost render --format png`.
package enum PNGRaster {
    /// Why a picture could not be drawn.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The largest width or height in pixels.
    package static let maxPixels = Int(HUD_RASTER_MAX_PIXELS)

    /// `svg` (its viewport `width` x `height` points) drawn at `scale`
    /// pixels per point and encoded as PNG.
    package static func png(svg: String, width: Double, height: Double, scale: Double) -> Result<[UInt8], Failure> {
        var svg = svg
        var reason = [CChar](repeating: 0, count: 512)
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = svg.withUTF8 { text in
            reason.withUnsafeMutableBufferPointer { buffer in
                text.withMemoryRebound(to: CChar.self) { characters in
                    hud_raster_png(characters.baseAddress, characters.count, width, height, scale, &bytes, &size,
                                          buffer.baseAddress, buffer.count)
                }
            }
        }
        guard status == 0, let bytes = bytes else {
            let text = reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .failure(Failure(description: text))
        }
        defer { hud_raster_free(bytes) }
        return .success(Array(UnsafeBufferPointer(start: bytes, count: size)))
    }
}
