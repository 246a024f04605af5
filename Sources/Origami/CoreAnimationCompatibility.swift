import Foundation

// Core Animation and Core Graphics names, forwarding to Origami's Swift API, so that listings from the book
// port line for line. Differences from the Swift API follow Apple: an inverse of a singular matrix returns
// the input unchanged.

/// Core Animation's name for `Transform3D`, so that book listings port unchanged.
public typealias CATransform3D = Transform3D
/// Core Graphics' name for `AffineTransform2D` (Foundation on Linux has none).
public typealias CGAffineTransform = AffineTransform2D
/// Core Animation's name for `Layer`.
public typealias CALayer = Layer
/// Core Animation's name for `TransformLayer`.
public typealias CATransformLayer = TransformLayer
/// Core Animation's name for `TextLayer`.
public typealias CATextLayer = TextLayer

/// The identity transform: `Transform3D.identity`.
public let CATransform3DIdentity = Transform3D.identity
/// The identity affine transform: `AffineTransform2D.identity`.
public let CGAffineTransformIdentity = AffineTransform2D.identity

/// A translation by (tx, ty, tz) points: `Transform3D(translationX:y:z:)`.
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    Transform3D(translationX: tx, y: ty, z: tz)
}
/// A scale by (sx, sy, sz): `Transform3D(scaleX:y:z:)`.
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    Transform3D(scaleX: sx, y: sy, z: sz)
}
/// A rotation by `angle` radians about the axis (x, y, z) (need not be unit length; a zero axis gives the
/// identity): `Transform3D(rotationAngle:x:y:z:)`.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    Transform3D(rotationAngle: angle, x: x, y: y, z: z)
}
/// `t` with a translation prepended (applied first, in `t`'s local space): `Transform3D.translated(x:y:z:)`.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    t.translated(x: tx, y: ty, z: tz)
}
/// `t` with a scale prepended (applied first): `Transform3D.scaled(x:y:z:)`.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    t.scaled(x: sx, y: sy, z: sz)
}
/// `t` with a rotation of `angle` radians about (x, y, z) prepended (applied first, in `t`'s local space), as
/// the book's `t = CATransform3DRotate(t, M_PI_4, 0, 1, 0)`: `Transform3D.rotated(by:x:y:z:)`.
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    t.rotated(by: angle, x: x, y: y, z: z)
}
/// `a` applied first, then `b` (the row-vector product `a · b`): `Transform3D.concatenating(_:)`.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D { a.concatenating(b) }
/// Apple's contract: a singular matrix is returned unchanged.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D { t.inverted() ?? t }
/// Whether `t` is exactly the identity: `Transform3D.isIdentity`.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t.isIdentity }
/// Whether `t` maps the plane z = 0 onto itself as a 2D affine transform: `Transform3D.isAffine`.
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool { t.isAffine }
/// Exact element-by-element equality: `==`.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }
/// The 3D form of a 2D affine transform: `Transform3D.init(_:)`.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D { Transform3D(m) }
/// The six affine elements of `t`, whatever the rest is: `Transform3D.affinePart`.
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform { t.affinePart }

/// An affine transform from its six elements: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
public func CGAffineTransformMake(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform {
    AffineTransform2D(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
}
/// A translation by (tx, ty) points.
public func CGAffineTransformMakeTranslation(_ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform {
    AffineTransform2D(translationX: tx, y: ty)
}
/// A scale by (sx, sy).
public func CGAffineTransformMakeScale(_ sx: CGFloat, _ sy: CGFloat) -> CGAffineTransform {
    AffineTransform2D(scaleX: sx, y: sy)
}
/// A rotation by `angle` radians; with y down, positive angles turn clockwise on screen.
public func CGAffineTransformMakeRotation(_ angle: CGFloat) -> CGAffineTransform {
    AffineTransform2D(rotationAngle: angle)
}
/// `t` with a translation prepended (applied first): `AffineTransform2D.translatedBy(x:y:)`.
public func CGAffineTransformTranslate(_ t: CGAffineTransform, _ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform {
    t.translatedBy(x: tx, y: ty)
}
/// `t` with a scale prepended (applied first): `AffineTransform2D.scaledBy(x:y:)`.
public func CGAffineTransformScale(_ t: CGAffineTransform, _ sx: CGFloat, _ sy: CGFloat) -> CGAffineTransform {
    t.scaledBy(x: sx, y: sy)
}
/// `t` with a rotation prepended (applied first): `AffineTransform2D.rotated(by:)`.
public func CGAffineTransformRotate(_ t: CGAffineTransform, _ angle: CGFloat) -> CGAffineTransform {
    t.rotated(by: angle)
}
/// `t1` applied first, then `t2`: `AffineTransform2D.concatenating(_:)`.
public func CGAffineTransformConcat(_ t1: CGAffineTransform, _ t2: CGAffineTransform) -> CGAffineTransform {
    t1.concatenating(t2)
}
/// Apple's contract: a singular transform is returned unchanged.
public func CGAffineTransformInvert(_ t: CGAffineTransform) -> CGAffineTransform { t.inverted() ?? t }
/// Whether `t` is exactly the identity.
public func CGAffineTransformIsIdentity(_ t: CGAffineTransform) -> Bool { t.isIdentity }
/// Exact element-by-element equality.
public func CGAffineTransformEqualToTransform(_ a: CGAffineTransform, _ b: CGAffineTransform) -> Bool { a == b }
/// The point mapped by `t` (translation included).
public func CGPointApplyAffineTransform(_ p: CGPoint, _ t: CGAffineTransform) -> CGPoint { t.apply(p) }
/// The size mapped by the linear part of `t` (no translation; components may turn negative).
public func CGSizeApplyAffineTransform(_ s: CGSize, _ t: CGAffineTransform) -> CGSize { t.apply(s) }
/// The bounding box of the rectangle's four mapped corners.
public func CGRectApplyAffineTransform(_ r: CGRect, _ t: CGAffineTransform) -> CGRect { t.apply(r) }
