import Foundation
import Origami
import Fixtures
import Testing
@testable import OrigamiRender

/// Issue 20: a plan applies a shade's uniform part to its face's colour without making the inner filter
/// (`ColorFilter.apply(_:innerMultiply:add:)`, an array per face less): the same channels, to the bit, as
/// `inner(multiply:add:).apply(_:)`.
@Suite struct ColorFilterTests {
    @Test func innerColourIsTheInnerFiltersColour() {
        var g = SplitMix(31)
        func colour() -> Color {
            // Now and then a channel outside 0…1 or not a number: both paths clamp the shade's colours alike.
            func channel() -> Double { g.next(0, 1) < 0.05 ? [.nan, -0.5, 1.7][Int(g.next(0, 3))] : g.next(0, 1) }
            return Color(red: channel(), green: channel(), blue: channel(), alpha: channel())
        }
        func bits(_ c: Color) -> [UInt64] { [c.red, c.green, c.blue, c.alpha].map(\.bitPattern) }
        var shaded = 0
        for k in 0 ..< 3000 {
            var filter = ColorFilter.identity
            for _ in 0 ..< k % 3 { filter = filter.inner(multiply: colour(), add: g.next(0, 1) < 0.5 ? colour() : nil) }
            let multiply = g.next(0, 1) < 0.7 ? colour() : nil, add = g.next(0, 1) < 0.5 ? colour() : nil
            let c = colour()
            #expect(bits(filter.apply(c, innerMultiply: multiply, add: add))
                    == bits(filter.inner(multiply: multiply, add: add).apply(c)))
            if multiply != nil || add != nil { shaded += 1 }
        }
        #expect(shaded > 1000)
    }
}
