import Foundation
import Origami
import Testing
import TestSupport

@Suite("Layout: autoresizing and constraints")
struct AutoresizingAndConstraintTests {
    private func parent(_ size: CGSize) -> Layer {
        Layer(name: "parent", frame: CGRect(origin: .zero, size: size))
    }

    @Test func fixedByDefault() throws {
        let p = parent(CGSize(width: 100, height: 100))
        let c = Layer(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        try p.addSublayer(c)
        p.bounds.size = CGSize(width: 200, height: 300)
        #expect(c.frame == CGRect(x: 10, y: 20, width: 30, height: 40))
    }

    /// Width flexible alone takes the whole change: 30 + (200 − 100) = 130; margins kept.
    @Test func widthSizable() throws {
        let p = parent(CGSize(width: 100, height: 100))
        let c = Layer(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        c.autoresizingMask = [.widthSizable, .heightSizable]
        try p.addSublayer(c)
        p.bounds.size = CGSize(width: 200, height: 150)
        #expect(c.frame == CGRect(x: 10, y: 20, width: 130, height: 90))
    }

    /// Both margins flexible: left 10 and right 60 share +100 in proportion 10:60 → left 10 + 100·10/70.
    @Test func flexibleMarginsShareInProportion() throws {
        let p = parent(CGSize(width: 100, height: 100))
        let c = Layer(frame: CGRect(x: 10, y: 0, width: 30, height: 10))
        c.autoresizingMask = [.minXMargin, .maxXMargin]
        try p.addSublayer(c)
        p.bounds.size = CGSize(width: 200, height: 100)
        expectApprox(Double(c.frame.minX), 10 + 100.0 * 10 / 70, tolerance: 1e-9)
        #expect(c.frame.width == 30)
    }

    /// A right-pinned layer (only the left margin flexible) keeps its distance to the right edge.
    @Test func maxEdgePinned() throws {
        let p = parent(CGSize(width: 100, height: 100))
        let c = Layer(frame: CGRect(x: 60, y: 0, width: 30, height: 10))
        c.autoresizingMask = [.minXMargin]
        try p.addSublayer(c)
        p.bounds.size = CGSize(width: 50, height: 100)
        #expect(c.frame.minX == 10)
    }

    /// The seed's listing 4-2 (Core Animation Programming Guide, "Building a Layer Hierarchy"), in a 400×300
    /// superlayer: layerA (100×25) centred → frame (150, 137.5, 100, 25); layerB as wide as A and centred on
    /// it, its maxY 10 above A's minY (127.5) and its minY 10 from the superlayer's minY (10) → (150, 10, 100, 117.5).
    @Test func seedConstraintExample() throws {
        let theLayer = Layer(name: "theLayer", frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        theLayer.layoutManager = ConstraintLayoutManager()
        let layerA = Layer(name: "layerA")
        layerA.bounds = CGRect(x: 0, y: 0, width: 100, height: 25)
        layerA.constraints = [
            Constraint(attribute: .midY, relativeTo: "superlayer", attribute: .midY),
            Constraint(attribute: .midX, relativeTo: "superlayer", attribute: .midX),
        ]
        let layerB = Layer(name: "layerB")
        layerB.constraints = [
            Constraint(attribute: .width, relativeTo: "layerA", attribute: .width),
            Constraint(attribute: .midX, relativeTo: "layerA", attribute: .midX),
            Constraint(attribute: .maxY, relativeTo: "layerA", attribute: .minY, offset: -10),
            Constraint(attribute: .minY, relativeTo: "superlayer", attribute: .minY, offset: 10),
        ]
        // B is added first so that the manager has to order by reference, not by array order.
        try theLayer.addSublayer(layerB)
        try theLayer.addSublayer(layerA)
        theLayer.layoutIfNeeded()
        #expect(theLayer.layoutError == nil)
        #expect(layerA.frame == CGRect(x: 150, y: 137.5, width: 100, height: 25))
        #expect(layerB.frame == CGRect(x: 150, y: 10, width: 100, height: 117.5))
    }

    @Test func constraintCycleIsReportedNotLooped() throws {
        let p = Layer(name: "p", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        p.layoutManager = ConstraintLayoutManager()
        let a = Layer(name: "a", frame: CGRect(x: 1, y: 2, width: 3, height: 4))
        let b = Layer(name: "b", frame: CGRect(x: 5, y: 6, width: 7, height: 8))
        a.constraints = [Constraint(attribute: .minX, relativeTo: "b", attribute: .maxX)]
        b.constraints = [Constraint(attribute: .minX, relativeTo: "a", attribute: .maxX)]
        try p.addSublayer(a)
        try p.addSublayer(b)
        p.layoutIfNeeded()
        #expect(p.layoutError == .constraintCycle(["a", "b", "a"]))
        #expect(a.frame == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(b.frame == CGRect(x: 5, y: 6, width: 7, height: 8))
    }

    @Test func unknownSiblingIsReported() throws {
        let p = Layer(name: "p", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        p.layoutManager = ConstraintLayoutManager()
        let a = Layer(name: "a")
        a.constraints = [Constraint(attribute: .minX, relativeTo: "ghost", attribute: .maxX)]
        try p.addSublayer(a)
        p.layoutIfNeeded()
        #expect(p.layoutError == .unknownSource(layer: "Layer \"a\"", source: "ghost"))
    }

    @Test func layoutRunsWhenNeededOnly() throws {
        let p = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        var calls = 0
        p.layoutHandler = { _ in calls += 1 }
        p.layoutIfNeeded()          // needed after init's frame set
        p.layoutIfNeeded()          // not needed any more
        p.bounds.size = CGSize(width: 20, height: 20)
        p.layoutIfNeeded()
        p.position = CGPoint(x: 5, y: 5)   // position changes do not need layout
        p.layoutIfNeeded()
        #expect(calls == 2)
    }
}
