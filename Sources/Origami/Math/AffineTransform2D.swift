import Foundation

/// A 2D affine transform `[a b c d tx ty]` with Core Graphics' conventions. Corresponds to
/// `CGAffineTransform` (which swift-corelibs-foundation does not provide):
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
///
/// As with `Transform3D`, `t1.concatenating(t2)` applies `t1` first, and `translatedBy`, `scaledBy`,
/// `rotated(by:)` prepend their operation (`CGAffineTransformTranslate(t, …)` and friends).
public struct AffineTransform2D: Hashable, Sendable {
    /// The six elements: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (Core Graphics' names and meaning).
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// A transform from its six elements. Corresponds to `CGAffineTransformMake`.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// Corresponds to `CGAffineTransformIdentity`.
    public static let identity = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
}

extension AffineTransform2D {
    /// Corresponds to `CGAffineTransformMakeTranslation`.
    public init(translationX tx: Double, y ty: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }

    /// Corresponds to `CGAffineTransformMakeScale`.
    public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

    /// Rotation by `angle` radians; with y down a positive angle is clockwise on screen.
    /// Corresponds to `CGAffineTransformMakeRotation`.
    public init(rotationAngle angle: Double) {
        let c = cos(angle), s = sin(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// `self` applied first, then `t2`. Corresponds to `CGAffineTransformConcat(self, t2)`.
    public func concatenating(_ t2: AffineTransform2D) -> AffineTransform2D {
        AffineTransform2D(
            a: a * t2.a + b * t2.c,
            b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c,
            d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx,
            ty: tx * t2.b + ty * t2.d + t2.ty)
    }

    /// `lhs` applied first, then `rhs`: `lhs.concatenating(rhs)`. Not commutative.
    public static func * (lhs: AffineTransform2D, rhs: AffineTransform2D) -> AffineTransform2D { lhs.concatenating(rhs) }

    /// Translation applied before `self`. Corresponds to `CGAffineTransformTranslate`.
    public func translatedBy(x tx: Double, y ty: Double) -> AffineTransform2D {
        AffineTransform2D(translationX: tx, y: ty).concatenating(self)
    }

    /// Scale applied before `self`. Corresponds to `CGAffineTransformScale`.
    public func scaledBy(x sx: Double, y sy: Double) -> AffineTransform2D {
        AffineTransform2D(scaleX: sx, y: sy).concatenating(self)
    }

    /// Rotation applied before `self`. Corresponds to `CGAffineTransformRotate`.
    public func rotated(by angle: Double) -> AffineTransform2D {
        AffineTransform2D(rotationAngle: angle).concatenating(self)
    }

    /// Corresponds to `CGAffineTransformIsIdentity`.
    public var isIdentity: Bool { self == .identity }

    /// `a·d − b·c`: the factor areas are scaled by; negative when the transform mirrors, 0 when singular.
    public var determinant: Double { a * d - b * c }

    /// Every element is finite (no NaN or infinity).
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }

    /// The inverse, or `nil` when singular or not finite. `CGAffineTransformInvert`, which returns its input
    /// unchanged in that case, is in the compatibility names.
    public func inverted() -> AffineTransform2D? {
        let det = determinant
        let bound = (a * a + b * b).squareRoot() * (c * c + d * d).squareRoot()
        guard isFinite, det.isFinite, det != 0, abs(det) > 1e-14 * bound else { return nil }
        let r = AffineTransform2D(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
        return r.isFinite ? r : nil
    }

    /// Corresponds to `CGPointApplyAffineTransform`.
    public func apply(_ p: CGPoint) -> CGPoint {
        let x = Double(p.x), y = Double(p.y)
        return CGPoint(x: a * x + c * y + tx, y: b * x + d * y + ty)
    }

    /// The linear part applied to a size (no translation). Corresponds to `CGSizeApplyAffineTransform`.
    public func apply(_ s: CGSize) -> CGSize {
        let w = Double(s.width), h = Double(s.height)
        return CGSize(width: a * w + c * h, height: b * w + d * h)
    }

    /// The axis-aligned bounding box of the transformed rect. Corresponds to `CGRectApplyAffineTransform`
    /// (a null rect stays null).
    public func apply(_ r: CGRect) -> CGRect {
        if r.isNull { return r }
        let s = r.standardized
        return CGRect.affineBounds(x0: Double(s.minX), y0: Double(s.minY), x1: Double(s.maxX), y1: Double(s.maxY),
                                   a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }
}

extension CGRect {
    /// The axis-aligned bounding box of the rect (x0, y0)–(x1, y1) under x' = a·x + c·y + tx, y' = b·x + d·y + ty;
    /// `CGRect.null` when anything is not finite. The four corners without an array, in plain doubles (no CGRect
    /// methods, which are calls into Foundation): the frame getter and `CGRectApplyAffineTransform` share it.
    @inlinable static func affineBounds(x0: Double, y0: Double, x1: Double, y1: Double,
                                        a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) -> CGRect {
        let ax0 = a * x0, ax1 = a * x1, cy0 = c * y0, cy1 = c * y1
        let bx0 = b * x0, bx1 = b * x1, dy0 = d * y0, dy1 = d * y1
        let xs = (ax0 + cy0, ax1 + cy0, ax0 + cy1, ax1 + cy1), ys = (bx0 + dy0, bx1 + dy0, bx0 + dy1, bx1 + dy1)
        // One test for all eight: a NaN anywhere makes the sum NaN (and so does ∞ − ∞, which is null anyway).
        guard !(xs.0 + xs.1 + xs.2 + xs.3 + ys.0 + ys.1 + ys.2 + ys.3).isNaN else { return .null }
        let minX = Swift.min(Swift.min(xs.0, xs.1), Swift.min(xs.2, xs.3)) + tx
        let maxX = Swift.max(Swift.max(xs.0, xs.1), Swift.max(xs.2, xs.3)) + tx
        let minY = Swift.min(Swift.min(ys.0, ys.1), Swift.min(ys.2, ys.3)) + ty
        let maxY = Swift.max(Swift.max(ys.0, ys.1), Swift.max(ys.2, ys.3)) + ty
        let width = maxX - minX, height = maxY - minY
        guard minX.isFinite, minY.isFinite, width.isFinite, height.isFinite else { return .null }
        return CGRect(x: minX, y: minY, width: width, height: height)
    }
}

extension AffineTransform2D: ApproximatelyEquatable {
    public func isApproximatelyEqual(to o: AffineTransform2D, absoluteTolerance t: Double) -> Bool {
        abs(a - o.a) <= t && abs(b - o.b) <= t && abs(c - o.c) <= t && abs(d - o.d) <= t
            && abs(tx - o.tx) <= t && abs(ty - o.ty) <= t
    }
}

extension CGRect {
    /// The smallest rect containing all `points`, or `nil` for none or any non-finite point.
    public static func boundingBox(of points: [CGPoint]) -> CGRect? {
        guard let first = points.first else { return nil }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points {
            guard p.x.isFinite, p.y.isFinite else { return nil }
            minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
