/// `v` with exactly `digits` decimals, as C's `printf("%.*f", digits, v)` writes it: the exact binary value rounded
/// half to even (glibc, default rounding mode), a `-` for any negative value or −0. `nil` outside what it handles
/// exactly (non-finite, |v| ≥ 1e15, more than 6 digits): the caller falls back to `String(format:)`.
///
/// For the command line's tables: `String(format:)` goes through Foundation's CFString formatting on Linux, a sixth
/// of `origami inspect` on a 20 000-face solid. Below 1e15 < 2^50 a double is m·2^e with m < 2^53 and e < 0, so
/// v·10^digits = m·10^digits / 2^−e with m·10^digits < 2^73: the quotient and remainder are exact in 128 bits.
package func fixedDecimal(_ v: Double, digits: Int) -> String? {
    guard v.isFinite, abs(v) < 1e15, (0...6).contains(digits) else { return nil }
    var scale: UInt128 = 1
    for _ in 0..<digits { scale *= 10 }
    let a = abs(v)
    var q: UInt128 = 0
    if a != 0 {
        let m = UInt128(a.significandBitPattern | (a.isNormal ? 1 << 52 : 0))
        let shift = a.isNormal ? 52 - Int(a.exponent) : 1074
        let n = m * scale
        if shift < 127 {
            q = n >> shift
            let r = n & ((1 << shift) - 1), half: UInt128 = 1 << (shift - 1)
            if r > half || (r == half && q & 1 == 1) { q += 1 }
        }
    }
    var text = String(q)
    if text.count <= digits { text = String(repeating: "0", count: digits + 1 - text.count) + text }
    if digits > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -digits)) }
    return v.sign == .minus ? "-" + text : text
}
