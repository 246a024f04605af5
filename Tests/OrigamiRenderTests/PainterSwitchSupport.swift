import CCairo
import Foundation
import Origami
@testable import OrigamiRender

/// The bytes `Renderer.paint` leaves on a white `size`×`size` canvas at scale 1, as `Renderer.render` paints it, with
/// the painter's tests-only switches: the references the fast paths are compared against.
func paintedBytes(_ scene: Layer, size: Int, sealsEdges: Bool = true, collectsEveryFragment: Bool = false,
                  drawsFacesThroughNode: Bool = false) throws -> [UInt8] {
    let tree = try RenderTree(root: scene)
    let options = RenderOptions(scale: 1, background: .white, sealsEdges: sealsEdges)
    let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: size, height: size)
    let cr = try CairoContext(surface)
    try Renderer.paint(tree, into: cr, deviceScale: 1, size: CGSize(width: size, height: size), options: options,
                       pixel: 1, collectsEveryFragment: collectsEveryFragment, drawsFacesThroughNode: drawsFacesThroughNode)
    return try surface.withPixels { data, stride in Array(UnsafeBufferPointer(start: data, count: stride * size)) }
}
