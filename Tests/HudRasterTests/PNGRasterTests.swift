// SPDX-License-Identifier: MIT
import Testing
import HudRaster

/// SVG drawn to PNG by librsvg and cairo, and two PNGs compared pixel by
/// pixel: what `render --format png` writes and `snapshot verify` reports.
struct PNGRasterTests {
    /// A `width` x `height` point picture: white, with `extra` SVG on top.
    static func svg(width: Int = 20, height: Int = 20, background: String = "#ffffff", _ extra: String = "") -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">"
            + "<rect width=\"\(width)\" height=\"\(height)\" fill=\"\(background)\"/>\(extra)</svg>"
    }

    static func png(_ svg: String, width: Double = 20, height: Double = 20, scale: Double = 1) throws -> [UInt8] {
        try PNGRaster.png(svg: svg, width: width, height: height, scale: scale).get()
    }

    /// The PNG signature, and the size from the IHDR chunk: the viewport
    /// times the scale.
    @Test func aPictureIsDrawnAtItsScale() throws {
        let bytes = try Self.png(Self.svg(width: 10, height: 5), width: 10, height: 5, scale: 3)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let size = PNGRaster.Difference(identicalTo: bytes)
        #expect((size.width, size.height) == (30, 15))
    }

    /// A black 4 x 3 rectangle at (5, 6) changes exactly its 12 pixels,
    /// and the box around them is the rectangle; the diff picture has the
    /// pictures' size.
    @Test func aChangedRegionIsCountedAndBoxed() throws {
        let before = try Self.png(Self.svg())
        let after = try Self.png(Self.svg("<rect x=\"5\" y=\"6\" width=\"4\" height=\"3\" fill=\"#000000\"/>"))
        let difference = try PNGRaster.compare(before, after, tolerance: 0, picture: true).get()
        #expect(difference.changedPixels == 12)
        #expect(difference.box.map { [$0.x, $0.y, $0.width, $0.height] } == [5, 6, 4, 3])
        #expect(!difference.sizeChanged)
        #expect(!difference.isEmpty)
        let picture = try #require(difference.picture)
        let size = PNGRaster.Difference(identicalTo: picture)
        #expect((size.width, size.height) == (20, 20))
        let same = try PNGRaster.compare(before, before, tolerance: 0).get()
        #expect(same.isEmpty)
        #expect(same.box == nil)
        #expect(same.picture == nil)
    }

    /// A channel off by one is a change at tolerance 0 and none at 1.
    @Test func theToleranceIsPerChannel() throws {
        let white = try Self.png(Self.svg())
        let almost = try Self.png(Self.svg(background: "#fefefe"))
        #expect(try PNGRaster.compare(white, almost, tolerance: 0).get().changedPixels == 400)
        #expect(try PNGRaster.compare(white, almost, tolerance: 1).get().changedPixels == 0)
    }

    @Test func aChangedSizeIsReportedWithoutCountingPixels() throws {
        let square = try Self.png(Self.svg())
        let wide = try Self.png(Self.svg(width: 30, height: 20), width: 30, height: 20)
        let difference = try PNGRaster.compare(square, wide, tolerance: 0).get()
        #expect(difference.sizeChanged)
        #expect((difference.width, difference.height, difference.newWidth, difference.newHeight) == (20, 20, 30, 20))
        #expect(difference.changedPixels == 0)
    }

    /// Text that is not SVG, and bytes that are not PNG, fail with a reason.
    @Test func badInputFailsWithAReason() throws {
        guard case .failure(let drawing) = PNGRaster.png(svg: "<svg", width: 10, height: 10, scale: 1) else {
            Issue.record("an unfinished SVG was drawn")
            return
        }
        #expect(!drawing.description.isEmpty)
        let good = try Self.png(Self.svg())
        guard case .failure(let comparing) = PNGRaster.compare(Array("not a picture".utf8), good, tolerance: 0) else {
            Issue.record("bytes that are not a PNG were compared")
            return
        }
        #expect(!comparing.description.isEmpty)
    }
}
