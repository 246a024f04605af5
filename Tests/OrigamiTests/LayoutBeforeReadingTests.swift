import Foundation
import Origami
import Synchronization
import Testing
import TestSupport

/// Layout runs when something reads the tree (DESIGN §2 "Layout", §8): a presentation tree — and so every render,
/// hit test and inspect — lays out first, top-down, each layer once; a tree laid out already is not laid out again,
/// and animations never cause layout.
@Suite("Layout before the tree is read")
struct LayoutBeforeReadingTests {
    /// Listing 4-2 built in Swift and never laid out by hand.
    private func listing() throws -> (theLayer: Layer, a: Layer, b: Layer) {
        let theLayer = Layer(name: "theLayer", frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        theLayer.layoutManager = ConstraintLayoutManager()
        let a = Layer(name: "layerA")
        a.bounds = CGRect(x: 0, y: 0, width: 100, height: 25)
        a.constraints = [Constraint(attribute: .midY, relativeTo: "superlayer", attribute: .midY),
                         Constraint(attribute: .midX, relativeTo: "superlayer", attribute: .midX)]
        let b = Layer(name: "layerB")
        b.constraints = [Constraint(attribute: .width, relativeTo: "layerA", attribute: .width),
                         Constraint(attribute: .midX, relativeTo: "layerA", attribute: .midX),
                         Constraint(attribute: .maxY, relativeTo: "layerA", attribute: .minY, offset: -10),
                         Constraint(attribute: .minY, relativeTo: "superlayer", attribute: .minY, offset: 10)]
        try theLayer.addSublayer(a)
        try theLayer.addSublayer(b)
        return (theLayer, a, b)
    }

    /// A (150, 137.5, 100, 25) and B (150, 10, 100, 117.5), as derived in `AutoresizingAndConstraintTests`:
    /// a hit test at B's middle (200, 68.75) finds B without anyone calling `layoutIfNeeded()`.
    @Test func hitTestingLaysOutFirst() throws {
        let (theLayer, a, b) = try listing()
        #expect(b.frame == .zero)   // nothing laid out yet
        #expect(theLayer.hitTest(CGPoint(x: 200, y: 68.75)) === b)
        #expect(a.frame == CGRect(x: 150, y: 137.5, width: 100, height: 25))
        #expect(b.frame == CGRect(x: 150, y: 10, width: 100, height: 117.5))
    }

    /// A presentation of layerA alone lays out the whole tree from the top: A's frame is its superlayer's work.
    @Test func aSubtreeIsLaidOutFromItsRoot() throws {
        let (theLayer, a, _) = try listing()
        let tree = withExtendedLifetime(theLayer) { PresentationTree(a) }   // a superlayer lives only while held
        #expect(tree[0].geometry.position == CGPoint(x: 200, y: 150))
    }

    /// The parent's layout sizes the child, whose layout runs after it in the same pass; a second reading lays out
    /// nothing.
    @Test func topDownEachOnceThenNothing() throws {
        let parent = Layer(name: "parent", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let child = Layer(name: "child")
        let grandchild = Layer(name: "grandchild")
        try child.addSublayer(grandchild)
        try parent.addSublayer(child)
        var calls: [String] = []
        parent.layoutHandler = { p in
            calls.append("parent")
            p.sublayers[0].frame = CGRect(x: 0, y: 0, width: p.bounds.width / 2, height: 10)
        }
        child.layoutHandler = { c in
            calls.append("child \(c.bounds.width)")
            c.sublayers[0].frame = c.bounds
        }
        grandchild.layoutHandler = { _ in calls.append("grandchild") }
        _ = PresentationTree(parent)
        #expect(calls == ["parent", "child 50.0", "grandchild"])
        _ = PresentationTree(parent)
        _ = PresentationTree(child, placement: .canvas)
        #expect(calls.count == 3)
        // A change below marks its branch only: the parent is not laid out again.
        grandchild.bounds.size = CGSize(width: 7, height: 7)
        _ = PresentationTree(parent)
        #expect(calls == ["parent", "child 50.0", "grandchild", "grandchild"])
    }

    /// Core Animation does not lay out for animated bounds: the presentation at a time animates the size, and the
    /// layout handler is not called again.
    @Test func animationsDoNotLayOut() throws {
        let parent = Layer(name: "parent", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        var calls = 0
        parent.layoutHandler = { _ in calls += 1 }
        _ = PresentationTree(parent)
        #expect(calls == 1)
        let grow = BasicAnimation(keyPath: "bounds.size")
        grow.fromValue = .size(CGSize(width: 100, height: 100))
        grow.toValue = .size(CGSize(width: 300, height: 300))
        grow.duration = 2
        parent.add(grow, forKey: "grow")
        let tree = PresentationTree(parent, time: 1)
        #expect(tree[0].bounds.size == CGSize(width: 200, height: 200))   // half-way, linear
        #expect(calls == 1)
        #expect(parent.bounds.size == CGSize(width: 100, height: 100))
    }

    /// A layout error (here a cycle, which scene files refuse before this point) is kept on the layer, not thrown
    /// by the reader, and the layers in the cycle keep their frames.
    @Test func layoutErrorsAreKeptForTheCaller() throws {
        let p = Layer(name: "p", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        p.layoutManager = ConstraintLayoutManager()
        let a = Layer(name: "a", frame: CGRect(x: 1, y: 2, width: 3, height: 4))
        a.constraints = [Constraint(attribute: .minX, relativeTo: "a", attribute: .maxX)]
        try p.addSublayer(a)
        _ = PresentationTree(p)
        #expect(p.firstLayoutError()?.error == .constraintCycle(["a", "a"]))
        #expect(p.firstLayoutError()?.layer === p)
        #expect(a.frame == CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    /// Hit testing may read one tree from several threads at once: the first reader lays the tree out while the
    /// others wait, so the layout handler runs once and every thread finds B at (200, 68.75).
    @Test func readersOnSeveralThreadsLayOutOnce() async throws {
        let (theLayer, _, layerB) = try listing()
        let calls = Calls()
        nonisolated(unsafe) let root = theLayer, b = layerB
        root.layoutHandler = { layer in
            calls.count.withLock { $0 += 1 }
            layer.layoutSublayers()
        }
        let answers = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { root.hitTest(CGPoint(x: 200, y: 68.75)) === b } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers == [true, true, true, true])
        #expect(calls.count.withLock { $0 } == 1)
    }
}

private final class Calls: Sendable {
    let count = Mutex(0)
}
