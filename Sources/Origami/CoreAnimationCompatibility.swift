import Foundation

// Core Animation and Core Graphics names, forwarding to Origami's Swift API, so that listings from the book
// port line for line. Differences from the Swift API follow Apple: an inverse of a singular matrix returns
// the input unchanged.

public typealias CATransform3D = Transform3D
public typealias CGAffineTransform = AffineTransform2D
public typealias CALayer = Layer
public typealias CATransformLayer = TransformLayer
public typealias CATextLayer = TextLayer

public let CATransform3DIdentity = Transform3D.identity
public let CGAffineTransformIdentity = AffineTransform2D.identity

public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    Transform3D(translationX: tx, y: ty, z: tz)
}
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    Transform3D(scaleX: sx, y: sy, z: sz)
}
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    Transform3D(rotationAngle: angle, x: x, y: y, z: z)
}
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    t.translated(x: tx, y: ty, z: tz)
}
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    t.scaled(x: sx, y: sy, z: sz)
}
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    t.rotated(by: angle, x: x, y: y, z: z)
}
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D { a.concatenating(b) }
/// Apple's contract: a singular matrix is returned unchanged.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D { t.inverted() ?? t }
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t.isIdentity }
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool { t.isAffine }
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D { Transform3D(m) }
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform { t.affinePart }

public func CGAffineTransformMake(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform {
    AffineTransform2D(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
}
public func CGAffineTransformMakeTranslation(_ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform {
    AffineTransform2D(translationX: tx, y: ty)
}
public func CGAffineTransformMakeScale(_ sx: CGFloat, _ sy: CGFloat) -> CGAffineTransform {
    AffineTransform2D(scaleX: sx, y: sy)
}
public func CGAffineTransformMakeRotation(_ angle: CGFloat) -> CGAffineTransform {
    AffineTransform2D(rotationAngle: angle)
}
public func CGAffineTransformTranslate(_ t: CGAffineTransform, _ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform {
    t.translatedBy(x: tx, y: ty)
}
public func CGAffineTransformScale(_ t: CGAffineTransform, _ sx: CGFloat, _ sy: CGFloat) -> CGAffineTransform {
    t.scaledBy(x: sx, y: sy)
}
public func CGAffineTransformRotate(_ t: CGAffineTransform, _ angle: CGFloat) -> CGAffineTransform {
    t.rotated(by: angle)
}
public func CGAffineTransformConcat(_ t1: CGAffineTransform, _ t2: CGAffineTransform) -> CGAffineTransform {
    t1.concatenating(t2)
}
/// Apple's contract: a singular transform is returned unchanged.
public func CGAffineTransformInvert(_ t: CGAffineTransform) -> CGAffineTransform { t.inverted() ?? t }
public func CGAffineTransformIsIdentity(_ t: CGAffineTransform) -> Bool { t.isIdentity }
public func CGAffineTransformEqualToTransform(_ a: CGAffineTransform, _ b: CGAffineTransform) -> Bool { a == b }
public func CGPointApplyAffineTransform(_ p: CGPoint, _ t: CGAffineTransform) -> CGPoint { t.apply(p) }
public func CGSizeApplyAffineTransform(_ s: CGSize, _ t: CGAffineTransform) -> CGSize { t.apply(s) }
public func CGRectApplyAffineTransform(_ r: CGRect, _ t: CGAffineTransform) -> CGRect { t.apply(r) }
