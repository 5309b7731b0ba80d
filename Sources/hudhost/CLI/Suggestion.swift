// SPDX-License-Identifier: MIT
/// "Did you mean …?" for option names and renderer ids.
enum Suggestion {
    /// The edit distance between `a` and `b`: insertions, deletions,
    /// substitutions and swaps of two adjacent characters (`tary` is one
    /// edit from `tray`), each counting one.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, beforePrevious[j - 2] + 1) }
                current[j] = best
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// The candidate closest to `word` (ignoring case) when it is close
    /// enough to be a typo of it: at most 3 edits, and fewer edits than half
    /// the candidate's length. The first of equally close candidates wins;
    /// nil for an exact match.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = Self.distance(lowered, candidate.lowercased())
            guard distance <= 3, distance * 2 < candidate.count else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        guard let best, best.distance > 0 || best.candidate != word else { return nil }
        return best.candidate
    }
}
