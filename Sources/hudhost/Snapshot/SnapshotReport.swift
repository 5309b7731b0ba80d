// SPDX-License-Identifier: MIT
import HudPresentation
import HudRegistry

/// The review page and the JUnit file of `snapshot verify --report DIR`.
/// The page is one self-contained HTML file (the pictures inline as data
/// URLs, no script or style from elsewhere): one row per case that changed,
/// is missing or failed, with the baseline, the new picture and the diff
/// picture side by side, the changed nodes outlined on the pictures at
/// their frames (1 px per point, as drawn) and listed with their field
/// changes, and filters by renderer, device and kind of change.
enum SnapshotReport {
    typealias Outline = (node: String, x: Double, y: Double, width: Double, height: Double)

    /// One row of the page.
    struct Row {
        var renderer: String
        var name: String
        var device: String
        /// `structure`, `pictures`, `both`, `missing`, `failed` or `crashed`.
        var kind: String
        var changes: [LayoutDiff.Change]
        var pixels: String?
        var reason: String?
        var baseline: [UInt8]?
        var new: [UInt8]?
        var diff: [UInt8]?
        /// The changed nodes' frames in points: in the baseline's layout
        /// (outlined on its picture) and in the new one (on the new picture).
        var outlines: (baseline: [Outline], new: [Outline])
        var width: Int
        var height: Int
    }

    /// One picture of the gallery.
    struct Cell {
        var renderer: String
        var name: String
        var device: String
        var state: String
        /// The picture's path relative to the page; nil when the case failed.
        var picture: String?
        var reason: String?
    }

    /// The gallery's contact sheet: every picture, filters by renderer,
    /// device and state.
    static func gallery(_ cells: [Cell], summary: String) -> String {
        var page = head(title: "Gallery", summary: summary, filters: [
            ("renderer", "Renderer", cells.map(\.renderer).uniqued()), ("device", "Device", cells.map(\.device).uniqued()),
            ("state", "State", cells.map(\.state).uniqued()),
        ])
        page += "<div class=\"sheet\">\n"
        for cell in cells {
            page += "<figure class=\"row\" id=\"\(escaped(cell.renderer + "/" + cell.name))\" data-renderer=\"\(escaped(cell.renderer))\""
                + " data-device=\"\(escaped(cell.device))\" data-state=\"\(escaped(cell.state))\">"
            if let picture = cell.picture {
                page += "<img alt=\"\(escaped(cell.name))\" loading=\"lazy\" src=\"\(escaped(picture))\">"
            } else {
                page += "<p class=\"failed\">failed: \(escaped(cell.reason ?? ""))</p>"
            }
            page += "<figcaption>\(escaped(cell.renderer))<br>\(escaped(cell.name))</figcaption></figure>\n"
        }
        return page + "</div>\n" + script(["renderer", "device", "state"])
    }

    static func html(_ rows: [Row], summary: String) -> String {
        let kinds = ["structure", "pictures", "both", "missing", "failed", "crashed"].filter { kind in rows.contains { $0.kind == kind } }
        var page = head(title: "Snapshot review", summary: summary, filters: [
            ("renderer", "Renderer", Array(Set(rows.map(\.renderer))).sorted()), ("device", "Device", Array(Set(rows.map(\.device))).sorted()),
            ("kind", "Change", kinds),
        ])
        for row in rows {
            page += "<div class=\"row\" id=\"\(escaped(row.renderer + "/" + row.name))\" data-renderer=\"\(escaped(row.renderer))\""
                + " data-device=\"\(escaped(row.device))\" data-kind=\"\(row.kind)\">\n"
            page += "<h2>\(escaped(row.renderer)) · \(escaped(row.name)) <span class=\"kind\">\(row.kind)</span></h2>\n<div class=\"pictures\">\n"
            for (label, picture) in [("baseline", row.baseline), ("new", row.new), ("diff", row.diff)] {
                guard let picture else { continue }
                page += "<figure><div class=\"frame\"><img alt=\"\(label)\" class=\"\(label)\" src=\"data:image/png;base64,\(base64(picture))\">"
                let outlines = label == "baseline" ? row.outlines.baseline : label == "new" ? row.outlines.new : []
                if !outlines.isEmpty {
                    page += "<svg viewBox=\"0 0 \(row.width) \(row.height)\" preserveAspectRatio=\"none\">"
                    for outline in outlines {
                        page += "<rect data-node=\"\(escaped(outline.node))\" x=\"\(number(outline.x))\" y=\"\(number(outline.y))\""
                            + " width=\"\(number(outline.width))\" height=\"\(number(outline.height))\"><title>\(escaped(outline.node))</title></rect>"
                    }
                    page += "</svg>"
                }
                page += "</div><figcaption>\(label)</figcaption></figure>\n"
            }
            page += "</div>\n"
            if let reason = row.reason { page += "<p>\(escaped(reason))</p>\n" }
            let lines = row.changes.map(\.description) + (row.pixels.map { [$0] } ?? [])
            if !lines.isEmpty { page += "<ul>" + lines.map { "<li>\(escaped($0))</li>" }.joined() + "</ul>\n" }
            page += "</div>\n"
        }
        return page + script(["renderer", "device", "kind"])
    }

    /// The page up to its rows: style, title, summary and one filter per
    /// `(id, label, values)`.
    private static func head(title: String, summary: String, filters: [(id: String, label: String, values: [String])]) -> String {
        let selects = filters.map { filter in
            "<label>\(filter.label) <select id=\"\(filter.id)\"><option value=\"\">all</option>"
                + filter.values.map { "<option>\(escaped($0))</option>" }.joined() + "</select></label>"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 16px; background: #f6f6f6; color: #111; }
            .row { background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 12px; margin: 12px 0; }
            .row h2 { font-size: 15px; margin: 0 0 8px; }
            .kind { font-weight: normal; color: #a00; }
            .pictures { display: flex; gap: 12px; align-items: flex-start; }
            figure { margin: 0; }
            figcaption { font-size: 12px; color: #555; }
            .frame { position: relative; display: inline-block; border: 1px solid #ccc; }
            .frame img { display: block; width: 260px; height: auto; }
            .frame svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; }
            .frame rect { fill: none; stroke: #ff00c8; stroke-width: 3; }
            ul { margin: 8px 0 0; font-family: ui-monospace, monospace; font-size: 12px; }
            .sheet { display: flex; flex-wrap: wrap; gap: 8px; }
            .sheet figure.row { margin: 0; padding: 6px; width: 200px; }
            .sheet img { width: 100%; height: auto; display: block; }
            .failed { color: #a00; }
            </style></head><body>
            <h1>\(title)</h1>
            <p id="summary">\(escaped(summary))</p>
            <p>\(selects.joined(separator: " ")) <span id="shown"></span></p>

            """
    }

    /// The filters' script: a row shows when every chosen filter matches
    /// its `data-` attribute.
    private static func script(_ ids: [String]) -> String {
        let list = ids.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            <script>
            function filter() {
              const chosen = [\(list)].map(id => [id, document.getElementById(id).value]);
              let shown = 0;
              for (const row of document.querySelectorAll(".row")) {
                const visible = chosen.every(([id, value]) => value === "" || row.dataset[id] === value);
                row.style.display = visible ? "" : "none";
                if (visible) shown++;
              }
              document.getElementById("shown").textContent = shown + " shown";
            }
            for (const id of [\(list)]) document.getElementById(id).addEventListener("change", filter);
            filter();
            </script>
            </body></html>

            """
    }

    /// One `<testcase>` per case (a changed, missing or failed case has a
    /// `<failure>`), in one `<testsuite>` per renderer.
    static func junit(_ outcomes: [SnapshotCommand.Outcome]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hudhost snapshot\">\n"
        for renderer in outcomes.map(\.renderer).uniqued() {
            let cases = outcomes.filter { $0.renderer == renderer }
            let failures = cases.filter { $0.status != .unchanged && $0.status != .recorded }.count
            xml += "  <testsuite name=\"\(escaped(renderer))\" tests=\"\(cases.count)\" failures=\"\(failures)\">\n"
            for outcome in cases {
                xml += "    <testcase classname=\"\(escaped(renderer))\" name=\"\(escaped(outcome.name))\""
                if outcome.status == .unchanged || outcome.status == .recorded {
                    xml += "/>\n"
                    continue
                }
                let detail = outcome.changes.map(\.description) + (outcome.pixels.map { [SnapshotCommand.describe($0)] } ?? []) + (outcome.reason.map { [$0] } ?? [])
                xml += ">\n      <failure message=\"\(outcome.status.rawValue)\">\(escaped(detail.joined(separator: "\n")))</failure>\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// Text safe in HTML and XML content and attribute values (the SVG
    /// presenter's escaping: control characters XML cannot hold replaced).
    static func escaped(_ text: String) -> String { SvgPresenter.escape(text) }

    private static func number(_ value: Double) -> String { JSONValue.format((value * 100).rounded() / 100) }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// RFC 4648 base64 of `bytes`, with padding.
    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for slot in 0..<4 {
                out.append(slot <= chunk.count ? alphabet[(value >> (18 - 6 * slot)) & 63] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
