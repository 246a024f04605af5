import Foundation

/// Points on the book's cube whose hits are derived by hand, and where they show on screen. The expected screen
/// positions are computed with the matrices written out, independently of the library's chain.
public enum BookCubeProbes {
    // The container's sublayerTransform maps a point p of the cube (relative to the container's
    // centre (200, 200)) to q = p·Ry(−π/4)·Rx(−π/4), then divides by w = 1 − q.z/500.
    public static let h = 0.5.squareRoot()
    /// Ry(−π/4) as CATransform3DMakeRotation writes it (m13 = −sin, m31 = sin, sin = −h).
    public static let ry: [[Double]] = [[h, 0, h], [0, 1, 0], [-h, 0, h]]
    /// Rx(−π/4) (m23 = sin, m32 = −sin, sin = −h).
    public static let rx: [[Double]] = [[1, 0, 0], [0, h, -h], [0, h, h]]

    public static func times(_ v: [Double], _ m: [[Double]]) -> [Double] {
        (0..<3).map { j in v[0] * m[0][j] + v[1] * m[1][j] + v[2] * m[2][j] }
    }

    /// The screen (container) position of a cube point, and its depth z/w.
    public static func project(_ p: [Double]) -> (point: CGPoint, depth: Double) {
        let q = times(times(p, ry), rx)
        let w = 1 - q[2] / 500
        return (CGPoint(200 + q[0] / w, 200 + q[1] / w), q[2] / w)
    }

    // Where the eye is, in cube space: (0, 0, 500) turned back by Rx(π/4) then Ry(π/4) = (250, −353.55, 250):
    // above, right and in front — so faces 1, 2, 3 are seen and 4, 5, 6 face away.
    //
    // P1 = (0, −100, 40) on the top face (face 3's local (100, 140)). The view ray E + s(P1 − E), direction
    // (−250, 253.55, −210), meets: x = −100 at s = 1.4 → (−100, 1.4, −44), inside face 5 (left);
    // z = −100 at s = 1.67 → x = −167, outside face 6; y = 100 at s = 1.79 → x = −197, outside face 4;
    // z = 100 at s = 0.71 → y = −172, outside face 1; x = 100 at s = 0.6 → y = −201, outside face 2.
    // So under P1 lie exactly face 3 (front) and face 5 (behind it).
    public static let p1: [Double] = [0, -100, 40]
    public static let p1Local = CGPoint(100, 140)
    //
    // P2 = (60, −100, −40) (face 3's local (160, 60)), direction (−190, 253.55, −290): z = −100 at s = 1.21 →
    // (20.7, −47.6, −100), inside face 6 (back); x = −100 at s = 1.84 → y = 113, outside face 5; y = 100 at
    // s = 1.79 → z = −269, outside face 4; z = 100 at s = 0.52 → x = 152, outside face 1; x = 100 at s = 0.79
    // → y = −153, outside face 2. Under P2: face 3 and face 6.
    public static let p2: [Double] = [60, -100, -40]
    public static let p2Local = CGPoint(160, 60)
    //
    // (Face 3's centre (0, −100, 0) is a poor probe: its ray leaves the cube exactly along the edge between
    // faces 5 and 6, at (−100, 1.4, −100), where rounding decides which of the two claims it.)
}
