/// A layer that draws nothing itself and keeps its sublayers in its superlayer's 3D space instead of
/// flattening them. Corresponds to `CATransformLayer`.
///
/// Its background, contents, border, `masksToBounds` and group opacity are ignored when composing (its
/// opacity multiplies into each sublayer). Its `transform`, `position` and `sublayerTransform` still apply
/// to the sublayers, which is what lets a cube built from six faces turn as one. Hit testing passes through it
/// and never returns it.
open class TransformLayer: Layer {}
