import Foundation
@testable import Origami
import Testing

/// `FaceShade` keeps its flat colours as numbers with a bit each and its vertex arrays in one box: it must still
/// read, write, compare and hash as the five optionals it stands for, with value semantics.
@Suite("FaceShade: flat storage")
struct FaceShadeStorageTests {
    static let colours = [Color(red: 0.25, green: 0.5, blue: 0.75), Color(white: 0, alpha: 0.4),
                          Color(red: 0, green: 0, blue: 0, alpha: 0)]  // the last: what an unset colour stores
    static let corners = [Color(white: 0.2), Color(white: 0.4), Color(white: 0.6), Color(white: 0.8)]

    /// Every combination of set and unset fields, made by the initializer and by writing the fields one at a time.
    static var shades: [(FaceShade, [Any?])] {
        var out: [(FaceShade, [Any?])] = []
        for mask in 0..<32 {
            for colour in colours {
                let m: Color? = mask & 1 != 0 ? colour : nil, a: Color? = mask & 4 != 0 ? colour : nil
                let o: Color? = mask & 16 != 0 ? colour : nil
                let vm: [Color]? = mask & 2 != 0 ? corners : nil, va: [Color]? = mask & 8 != 0 ? corners.reversed() : nil
                out.append((FaceShade(multiply: m, vertexMultiply: vm, add: a, vertexAdd: va, overlay: o), [m, vm, a, va, o]))
                var written = FaceShade()
                written.overlay = o; written.vertexAdd = va; written.add = a; written.vertexMultiply = vm; written.multiply = m
                out.append((written, [m, vm, a, va, o]))
            }
        }
        return out
    }

    @Test func fieldsReadBackAsSet() {
        for (shade, fields) in Self.shades {
            #expect(shade.multiply == fields[0] as? Color)
            #expect(shade.vertexMultiply == fields[1] as? [Color])
            #expect(shade.add == fields[2] as? Color)
            #expect(shade.vertexAdd == fields[3] as? [Color])
            #expect(shade.overlay == fields[4] as? Color)
        }
    }

    /// Equal exactly when the five fields are; equal shades hash alike (an unset colour's stored value does not count).
    @Test func equalityAndHashAreTheFields() {
        let shades = Self.shades
        for (a, fa) in shades {
            for (b, fb) in shades {
                let same = (fa[0] as? Color) == (fb[0] as? Color) && (fa[1] as? [Color]) == (fb[1] as? [Color])
                    && (fa[2] as? Color) == (fb[2] as? Color) && (fa[3] as? [Color]) == (fb[3] as? [Color])
                    && (fa[4] as? Color) == (fb[4] as? Color)
                #expect((a == b) == same)
                if same { #expect(a.hashValue == b.hashValue) }
            }
        }
        // Set, then cleared: equal to one never set.
        var cleared = FaceShade(multiply: Self.colours[0], vertexMultiply: Self.corners, add: Self.colours[1],
                                vertexAdd: Self.corners, overlay: Self.colours[0])
        cleared.multiply = nil; cleared.vertexMultiply = nil; cleared.add = nil; cleared.vertexAdd = nil; cleared.overlay = nil
        #expect(cleared == FaceShade())
        #expect(cleared.hashValue == FaceShade().hashValue)
    }

    /// A copy does not see a later write to the original (the vertex box is replaced, never changed).
    @Test func copiesAreIndependent() {
        var a = FaceShade(multiply: Self.colours[0], vertexMultiply: Self.corners, vertexAdd: Self.corners)
        let b = a
        a.vertexMultiply = [Color.white, .white, .white, .white]
        a.multiply = nil
        a.vertexAdd = nil
        #expect(b.vertexMultiply == Self.corners && b.vertexAdd == Self.corners && b.multiply == Self.colours[0])
        #expect(a.vertexMultiply == [Color.white, .white, .white, .white] && a.vertexAdd == nil && a.multiply == nil)
    }
}
