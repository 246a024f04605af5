import Foundation
import Origami

// Core Animation's `-[CALayer renderInContext:]` (Swift: `render(in:)`), with Apple's contract as GNUstep
// QuartzCore's `Tests/quartzcore/CALayer/render.m` records it (every value there measured against Apple):
// - the receiver is drawn in its own bounds space: a point (x, y) of its bounds lands at (x, y) of the context.
//   Its position, transform and zPosition do not move it ("the layer asked to render is drawn at the origin of
//   the context, not where its own frame puts it"; "a bounds origin moves that drawing, a position does not";
//   "and neither does a transform on it"). A layer with bounds (10, 10, 20, 20) paints context points 10…30.
// - its sublayers are placed by their own geometry and its sublayerTransform; it is hidden → nothing; its
//   opacity applies; masksToBounds clips.
// - a `TransformLayer` receiver is drawn as an ordinary layer: background, border and masksToBounds apply, its
//   sublayers land where a plain layer's would (a GNUstep fork's `Tests/quartzcore/CATransformLayer` rendering
//   test, measured against Apple: "Apple's -renderInContext: draws a CATransformLayer as it draws a CALayer";
//   only the compositor leaves its own content out). Its sublayers still share one 3D space, sorted together.
// Apple's reference says only that it "renders in the coordinate space of the layer". Sublayers with 3D
// transforms are drawn as the compositor draws them, through the receiver's sublayerTransform (perspective
// included); the tests read do not record what Apple's software path does with them.

extension RenderTree {
    /// Freezes the tree of `root` for `renderInContext:`: the canvas is `root`'s own bounds space and `root` is
    /// drawn as an ordinary layer whatever its class (`PresentationTree.RootPlacement.renderedInOwnSpace`).
    public init(ownSpaceOf root: Layer, limits: RenderLimits = .default) throws(RenderError) {
        try limits.check(root)
        try self.init(PresentationTree(root, placement: .renderedInOwnSpace), limits: limits)
    }
}

extension Layer {
    /// Renders the layer in its own bounds space (`renderInContext:`'s contract, see above) into a new image
    /// `size` points wide and high at `options.scale` pixels per point: the image's top-left pixel is the
    /// point (0, 0) of the layer's bounds, so a layer with a bounds origin of (10, 10) starts 10 points in.
    /// Its position, transform and zPosition are ignored.
    public func render(size: CGSize, options: RenderOptions = RenderOptions()) throws(RenderError) -> RenderedImage {
        try Renderer.render(RenderTree(ownSpaceOf: self, limits: options.limits), size: size, options: options)
    }

    /// `render(in:)`: draws the layer in its own bounds space (`renderInContext:`'s contract, see above) over
    /// the caller's `bitmap`, as Core Animation draws into a caller's bitmap context: pixel (0, 0) is the point
    /// (0, 0) of the layer's bounds, `options.scale` pixels per point, and what the bitmap held stays under
    /// the drawing (source-over, premultiplied). On error the bitmap is left as it was.
    public func render(in bitmap: inout Bitmap, options: RenderOptions = RenderOptions()) throws(RenderError) {
        guard options.scale.isFinite, options.scale > 0 else {
            throw .invalidCanvas("the scale \(options.scale) must be finite and positive")
        }
        let size = CGSize(width: Double(bitmap.width) / options.scale, height: Double(bitmap.height) / options.scale)
        let image = try render(size: size, options: options)
        guard image.width == bitmap.width, image.height == bitmap.height else {
            throw .invalidCanvas("a \(bitmap.width)×\(bitmap.height)-pixel bitmap at scale \(options.scale) "
                                 + "rendered as \(image.width)×\(image.height) pixels")
        }
        let pixels = zip(image.pixels, bitmap.pixels).map(Self.over)
        guard let result = Bitmap(width: bitmap.width, height: bitmap.height, pixels: pixels) else {
            throw .invalidCanvas("the bitmap's dimensions are not valid")
        }
        bitmap = result
    }

    /// Premultiplied ARGB `source` over `destination`: each channel is s + d·(1 − αs).
    private static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let keep = 255 - (source >> 24)
        guard keep != 0 else { return source }
        var out: UInt32 = 0
        for shift: UInt32 in [24, 16, 8, 0] {
            let s = (source >> shift) & 0xFF, d = (destination >> shift) & 0xFF
            out |= min(255, s + (d * keep + 127) / 255) << shift
        }
        return out
    }
}
