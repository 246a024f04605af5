import Foundation

/// Cairo 1.16 numbers SVG elements (`surface121`, `image7`, `clip3`, …) from process-wide counters, so the same
/// drawing gives different bytes on every call. Renumbering each prefix in order of first appearance makes the
/// output depend only on the drawing.
enum SVGIdentifiers {
    static func normalized(_ data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        guard let regex = try? NSRegularExpression(pattern: "\\b(surface|image|clip|mask|pattern|source|glyph|linear|radial)([0-9]+)") else {
            return data
        }
        var numbers: [String: Int] = [:]
        var counters: [String: Int] = [:]
        var result = ""
        var last = text.startIndex
        let ns = text as NSString
        for match in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            guard let whole = Range(match.range, in: text), let prefixRange = Range(match.range(at: 1), in: text) else { continue }
            let prefix = String(text[prefixRange])
            let key = String(text[whole])
            let n: Int
            if let known = numbers[key] { n = known } else {
                n = counters[prefix, default: 0]
                counters[prefix] = n + 1
                numbers[key] = n
            }
            result += text[last..<whole.lowerBound] + prefix + String(n)
            last = whole.upperBound
        }
        result += text[last...]
        return Data(result.utf8)
    }
}
