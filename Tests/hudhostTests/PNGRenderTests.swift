// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudModel
import HudTestSupport

/// `render --format png`: the SVG picture drawn by librsvg and cairo
/// (loaded with dlopen on first use), real files read back by a small PNG
/// decoder in Python (zlib and the five PNG row filters).
struct PNGRenderTests {
    static let librsvgInstalled = ["/usr/lib/x86_64-linux-gnu/librsvg-2.so.2", "/usr/lib/aarch64-linux-gnu/librsvg-2.so.2",
                                   "/usr/lib64/librsvg-2.so.2", "/usr/lib/librsvg-2.so.2"].contains(where: FileManager.default.fileExists)

    /// Prints "WIDTH HEIGHT", then (when pixels x,y are given) the number
    /// of colours and "R G B A" of each (8-bit RGBA, or RGB, which cairo
    /// writes for an opaque picture).
    static let decoder = #"""
        import sys, zlib, struct
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR':
                width, height, depth, colour = struct.unpack('>IIBB', body[:10])
                assert depth == 8 and colour in (2, 6), 'not 8-bit RGB or RGBA'
                n = 4 if colour == 6 else 3
            elif kind == b'IDAT':
                idat += body
            pos += 12 + length
        print(width, height)
        if len(sys.argv) == 2: sys.exit(0)
        raw, stride, rows, prev, i = zlib.decompress(idat), width * n, [], bytearray(width * n), 0
        for _ in range(height):
            kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
            for x in range(stride):
                a = line[x - n] if x >= n else 0; b = prev[x]; c = prev[x - n] if x >= n else 0
                if kind == 1: line[x] = (line[x] + a) & 255
                elif kind == 2: line[x] = (line[x] + b) & 255
                elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line); prev = line
        print(len({bytes(r[x:x + n]) for r in rows for x in range(0, stride, n)}))
        for point in sys.argv[2:]:
            x, y = map(int, point.split(','))
            print(*(list(rows[y][x * n:x * n + n]) + [255] * (4 - n)))
        """#

    @Test(Requirement.when(librsvgInstalled && Requirement.installed("python3"), "needs librsvg2-2 and python3"))
    func aPNGIsTheSVGPictureAtTheScaleAskedForAndTheSameBytesTwice() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("render-png")
        let arguments = ["render", "--reveal", "center", "--device", "iphone-se"]
        let first = try await HudHost.run(arguments + ["--format", "png", "--scale", "2", "--out", directory + "/a.png"])
        #expect(first.status == 0 && first.stderr.contains("wrote "), "\(first.transcript)")
        let second = try await HudHost.run(arguments + ["--format", "png", "--scale", "2", "--out", directory + "/b.png"])
        #expect(second.status == 0, "\(second.transcript)")
        let a = try Data(contentsOf: URL(fileURLWithPath: directory + "/a.png")), b = try Data(contentsOf: URL(fileURLWithPath: directory + "/b.png"))
        #expect(a == b, "the same input drew different bytes")
        // Where the center slot is, and its fill, from the same layout as JSON.
        let json = try HudHost.json(try await HudHost.run(arguments + ["--json"]))
        let nodes = json["layout"]?["nodes"]?.arrayValue ?? []
        let slot = try #require(nodes.first { $0["kind"]?.stringValue == "slot" && $0["position"]?.stringValue == "center" })
        let frame = try #require(slot["frame"]), fill = try #require(slot["fill"]?.stringValue)
        let x = try #require(frame["x"]?.numberValue), y = try #require(frame["y"]?.numberValue), height = try #require(frame["height"]?.numberValue)
        let screen = try #require(json["environment"]?["screen"])
        // The picture: the screen and the 28 pt caption strip, two pixels a point.
        let size = try await FixturePlugins.run(["python3", "-c", Self.decoder, directory + "/a.png"])
        let width = try #require(screen["width"]?.numberValue), screenHeight = try #require(screen["height"]?.numberValue)
        #expect(size.status == 0 && size.stdout == "\(Int(width * 2)) \(Int((screenHeight + 28) * 2))\n", "\(size.transcript)")
        // Drawn at one pixel a point (quicker to decode), 4 pt inside the
        // slot's leading edge on its middle row (clear of the glyph, inside
        // the circle) is the slot's fill (#rrggbbaa).
        let small = try await HudHost.run(arguments + ["--format", "png", "--scale", "1", "--out", directory + "/c.png"])
        #expect(small.status == 0, "\(small.transcript)")
        let point = "\(Int(x + 4)),\(Int(y + height / 2))"
        let decoded = try await FixturePlugins.run(["python3", "-c", Self.decoder, directory + "/c.png", point])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let lines = decoded.stdout.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        #expect(lines.count == 3 && lines[0] == [Int(width), Int(screenHeight + 28)], "\(decoded.stdout)")
        #expect((lines.dropFirst().first?.first ?? 0) > 50, "a picture of a screen has more than a few colours: \(decoded.stdout)")
        let hex = fill.dropFirst()
        let expected = stride(from: 0, to: 6, by: 2).map { Int(hex.dropFirst($0).prefix(2), radix: 16) ?? -1 }
        #expect(lines.count == 3 && Array(lines[2].prefix(3)) == expected && lines[2].last == 255, "pixel \(point): \(lines.dropFirst()) against \(fill)")
    }

    /// `demo --png` writes each step's picture as PNG beside its SVG, at
    /// 2 pixels per point (iphone-se: 375 × 667 pt and the 28 pt caption).
    @Test(Requirement.when(librsvgInstalled && Requirement.installed("python3"), "needs librsvg2-2 and python3"))
    func theDemoWritesAPNGBesideEverySVG() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("demo-png")
        let demo = try await HudHost.run(["demo", "--builtin-only", "--quiet", "--png", "--device", "iphone-se", "--out", directory])
        #expect(demo.status == 0 && demo.stdout.contains("Wrote 9 SVG files and 9 PNG files to \(directory)"), "\(demo.transcript)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        let svgs = files.filter { $0.hasSuffix(".svg") }
        #expect(svgs.count == 9)
        let script = directory + "/decode.py"
        try Self.decoder.write(toFile: script, atomically: true, encoding: .utf8)
        for svg in svgs {
            let png = directory + "/" + svg.dropLast(4) + ".png"
            let size = try await FixturePlugins.run(["python3", script, png])
            #expect(size.status == 0 && size.stdout == "750 1390\n", "\(png): \(size.transcript)")
        }
        let refused = try await HudHost.run(["demo", "--png", "--no-svg"])
        #expect(refused.status == 2 && refused.stderr.contains("--png writes pictures"), "\(refused.transcript)")
    }

    @Test func aScaleWithoutPNGOrOutOfRangeIsAUsageError() async throws {
        for arguments in [["--scale", "2"], ["--format", "png", "--scale", "0.5", "--out", "/tmp/never.png"], ["--format", "png", "--scale", "x", "--out", "/tmp/never.png"]] {
            let output = try await HudHost.run(["render"] + arguments)
            #expect(output.status == 2 && output.stderr.contains("--scale"), "\(arguments): \(output.transcript)")
        }
    }
}
