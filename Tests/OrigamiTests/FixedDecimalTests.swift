import Foundation
import Testing
import Origami

/// `fixedDecimal` is the command line's `%.Nf` without CFString: it must write what C's printf writes.
@Suite struct FixedDecimalTests {
    /// Hand-derived: the exact binary value rounded half to even.
    @Test func roundsTheExactValueHalfToEven() {
        // 0.125 = 1/8 exactly: a tie at 2 digits, to even → 0.12; 0.375 = 3/8 → 0.38.
        #expect(fixedDecimal(0.125, digits: 2) == "0.12")
        #expect(fixedDecimal(0.375, digits: 2) == "0.38")
        // 2.675 is stored as 2.67499999999999982236431605997495353221893310546875: below the tie.
        #expect(fixedDecimal(2.675, digits: 2) == "2.67")
        // 0.5 and 2.5 at 0 digits: ties to even → 0 and 2; 1.5 → 2.
        #expect(fixedDecimal(0.5, digits: 0) == "0")
        #expect(fixedDecimal(1.5, digits: 0) == "2")
        #expect(fixedDecimal(2.5, digits: 0) == "2")
        #expect(fixedDecimal(-200, digits: 2) == "-200.00")
        #expect(fixedDecimal(0.0001, digits: 4) == "0.0001")
        // A negative value that rounds to zero, and −0, keep printf's sign.
        #expect(fixedDecimal(-0.001, digits: 2) == "-0.00")
        #expect(fixedDecimal(-0.0, digits: 1) == "-0.0")
        #expect(fixedDecimal(5e-324, digits: 6) == "0.000000")
    }

    @Test func declinesWhatItCannotDoExactly() {
        #expect(fixedDecimal(.infinity, digits: 2) == nil)
        #expect(fixedDecimal(.nan, digits: 2) == nil)
        #expect(fixedDecimal(1e15, digits: 2) == nil)
        #expect(fixedDecimal(1, digits: 7) == nil)
    }

    /// Against C's printf (through `String(format:)`) on values of every magnitude the tables print, ties included.
    @Test func agreesWithPrintf() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, 1, -1, 0.005, 0.015, 0.025, 1.005, 123.455, 999.9995, 0.00005, 4503599627370495.0 / 8]
        for _ in 0..<5_000 {
            let magnitude = Double.random(in: -8...14, using: &generator)
            values.append((Bool.random(using: &generator) ? 1 : -1) * pow(10, magnitude))
            // Ties at some digit count: k / 2^j.
            values.append(Double(Int.random(in: -100_000...100_000, using: &generator)) / Double(1 << Int.random(in: 1...12, using: &generator)))
        }
        for v in values {
            for digits in 0...6 {
                let expected = String(format: "%.\(digits)f", v)
                #expect(fixedDecimal(v, digits: digits) == expected, "\(v) at \(digits) digits")
            }
        }
    }
}
