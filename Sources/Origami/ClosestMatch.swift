/// The closest candidate to `word` (case-insensitive edit distance ≤ max(2, a third of its length)), for the
/// "did you mean" hints of every module: scene keys, names, animation key paths.
package func closestMatch(to word: String, in candidates: [String]) -> String? {
    let w = Array(word.lowercased())
    var best: (String, Int)?
    for c in candidates {
        let d = editDistance(w, Array(c.lowercased()))
        if d <= max(2, w.count / 3), d < (best?.1 ?? .max) { best = (c, d) }
    }
    return best?.0
}

/// Levenshtein distance, two rows at a time.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
