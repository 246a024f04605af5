import Foundation
import Origami
import Testing

/// Hit testing reuses a frozen index of the tree between queries; every change that can move a hit must be
/// seen by the next query.
@Suite("Hit testing sees every change")
struct HitTestCacheTests {
    /// A 100×100 root holding a 20×20 child at (10, 10) (frame 10…30): a touch at (15, 15) hits the child.
    private func tree() throws -> (Layer, Layer) {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let child = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        try root.addSublayer(child)
        return (root, child)
    }

    @Test func movingTheChild() throws {
        let (root, child) = try tree()
        #expect(root.hitTest(CGPoint(x: 15, y: 15)) === child)
        child.position = CGPoint(x: 70, y: 70)          // frame now 60…80
        #expect(root.hitTest(CGPoint(x: 15, y: 15)) === root)
        #expect(root.hitTest(CGPoint(x: 65, y: 65)) === child)
        child.transform = Transform3D(scaleX: 0.1, y: 0.1, z: 1)   // 2×2 about (70, 70): 69…71
        #expect(root.hitTest(CGPoint(x: 65, y: 65)) === root)
        #expect(root.hitTest(CGPoint(x: 70, y: 70)) === child)
    }

    @Test func flagsAndHierarchy() throws {
        let (root, child) = try tree()
        let p = CGPoint(x: 15, y: 15)
        #expect(root.hitTest(p) === child)
        child.isHidden = true
        #expect(root.hitTest(p) === root)
        child.isHidden = false
        child.allowsHitTesting = false
        #expect(root.hitTest(p) === root)
        child.allowsHitTesting = true
        child.opacity = 0
        #expect(root.hitTest(p) === root)
        child.opacity = 1
        #expect(root.hitTest(p) === child)
        child.removeFromSuperlayer()
        #expect(root.hitTest(p) === root)
        let other = Layer(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        try root.addSublayer(other)
        #expect(root.hitTest(p) === other)
        root.sublayerTransform = Transform3D(translationX: 60, y: 0, z: 0)   // other now at x 60…110
        #expect(root.hitTest(p) === root)
    }

    @Test func changesBelowAnotherReceiver() throws {
        // The cache belongs to the receiver; a change deep inside its subtree still retires it.
        let (root, child) = try tree()
        let grandchild = Layer(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
        try child.addSublayer(grandchild)
        #expect(root.hitTest(CGPoint(x: 12, y: 12)) === grandchild)
        grandchild.bounds.size = CGSize(width: 1, height: 1)   // frame about its centre (2.5, 2.5): 2…3
        #expect(root.hitTest(CGPoint(x: 12, y: 12)) === grandchild)
        #expect(root.hitTest(CGPoint(x: 11, y: 11)) === child)
    }
}
