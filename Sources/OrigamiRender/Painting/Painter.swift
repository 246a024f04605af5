import CCairo
import Foundation
import Origami

/// Paints render nodes into a Cairo context (DESIGN §3): each ordinary layer draws background → contents →
/// its depth-sorted sublayer scene → its face shade → border, as one group when its opacity is below 1.
/// All geometry is mapped into device units (points × scale × supersampling) before it reaches Cairo.
final class Painter {
    let cr: CairoContext
    /// The device area that can be seen: image tiles are never sampled outside it.
    let visible: PlaneRect
    /// Twice the distance (device units) by which opaque 3D faces are dilated so shared edges leave no
    /// crack; 0 disables it.
    let dilation: Double

    init(_ cr: CairoContext, visible: PlaneRect, dilation: Double) {
        self.cr = cr; self.visible = visible; self.dilation = dilation
    }

    private func source(_ c: Color, _ filter: ColorFilter) {
        let f = filter.apply(c.clamped)
        cr.setColor((f.red, f.green, f.blue, f.alpha))
    }

    /// Draws one 3D context: `members` live in the owner's bounds space, which `chain` maps to the device.
    func drawScene(_ members: [RenderMember], chain: PlaneChain, filter: ColorFilter) throws {
        let fragments = Painter.depthOrder(members)
        var pieces: [Int: Int] = [:]
        for f in fragments { pieces[f.member, default: 0] += 1 }
        for f in fragments {
            let m = members[f.member]
            let plane = Homography(m.transform)
            let memberChain = chain.prepending(plane)
            // Only faces turned toward the viewer are sealed: the seams to close are between visible faces, and a
            // dilated back face would show as a coloured hairline around a solid's silhouette.
            let seal = dilation > 0 && !m.transform.isAffine && plane.matrix.determinant > 0
            if pieces[f.member] == 1 {
                try drawNode(m.node, chain: memberChain, inheritedOpacity: m.inheritedOpacity, shade: m.shade,
                             filter: filter, seal: seal)
            } else {
                try cr.withSavedState {
                    // A hard-edged clip: the fragments of one plane tile it without seams.
                    try cr.clip(chain.map([f.flattened]), antialias: false)
                    try drawNode(m.node, chain: memberChain, inheritedOpacity: m.inheritedOpacity, shade: m.shade,
                                 filter: filter, seal: seal)
                }
            }
        }
    }

    /// The planes of one 3D context back to front, split where they intersect: the painter's order.
    /// Members that draw nothing (zero opacity, nothing in front of the eye, culled back faces) are left out.
    static func depthOrder(_ members: [RenderMember]) -> [ScenePolygon] {
        var polygons: [ScenePolygon] = []
        polygons.reserveCapacity(members.count)
        for (i, m) in members.enumerated() {
            let h = Homography(m.transform)
            // Back faces: the plane's winding in the owner's plane is reversed (det < 0).
            if !m.node.isDoubleSided && h.matrix.determinant < 0 { continue }
            guard m.node.opacity * m.inheritedOpacity > 0,
                  let p = ScenePolygon(extent: m.node.extent, transform: m.transform, member: i) else { continue }
            polygons.append(p)
        }
        guard polygons.count > 1 else { return polygons }
        return BSPTree(polygons) { (members[$0].zPosition, members[$0].treeIndex) }.backToFront()
    }

    /// How one node is painted, decided once from its properties and its shade.
    struct Plan {
        /// How the background is filled.
        enum Background {
            case none
            /// A plain colour (with the overlay composited in when `overlay` was folded into it).
            case color(Color)
            /// An opaque colour under Gouraud shading with nothing drawn over it: the corner-coloured mesh is the
            /// fill itself, so an edge pixel gets coverage × shaded colour exactly.
            case shadedColor(Color, FaceShade)
        }
        let background: Background
        /// Group opacity: the node's drawing is composited with this alpha (a group when below 1).
        let alpha: Double
        /// Gouraud shading of the whole drawing (a group shaded by MULTIPLY and ADD), when the mesh fill cannot
        /// serve: contents, text or sublayers are drawn over the background.
        let shadesGroup: FaceShade?
        /// The shade's overlay still to draw over the drawing (`nil` when folded into the background's colour).
        let overlay: Color?
        /// The background, mesh and overlay cover the outline dilated by half the sealing width.
        let isSealed: Bool

        init(_ node: RenderNode, inheritedOpacity: Double, shade: FaceShade?, filter: ColorFilter, seal: Bool) {
            alpha = node.opacity * inheritedOpacity
            let opaque = (node.backgroundColor?.alpha ?? 0) >= 1
            let bare = node.contents == nil && node.textRings.isEmpty && node.members.isEmpty
            let vertexShade = shade.map { $0.vertexMultiply?.count == 4 || $0.vertexAdd?.count == 4 } ?? false
            isSealed = seal && opaque
            var overlay = shade?.overlay.flatMap { $0.alpha > 0 ? $0.clamped : nil }
            let inner = filter.inner(shade)
            if vertexShade, opaque, bare, let bg = node.backgroundColor, let shade {
                background = .shadedColor(inner.apply(bg.clamped), shade)
                shadesGroup = nil
            } else if let bg = node.backgroundColor, bg.alpha > 0, !node.planeBounds.isEmpty {
                var fill = inner.apply(bg.clamped)
                if let o = overlay, opaque, bare, !vertexShade {
                    // An opaque background with nothing drawn over it but the overlay: composited here, so the face
                    // is filled once (the same interior pixels, one coverage at the edges).
                    fill = Painter.opaque(fill, under: filter.apply(o))
                    overlay = nil
                }
                background = .color(fill)
                shadesGroup = vertexShade ? shade : nil
            } else {
                background = .none
                shadesGroup = vertexShade ? shade : nil
            }
            self.overlay = overlay
        }
    }

    /// Draws one ordinary layer whose bounds space `chain` maps to the device.
    func drawNode(_ node: RenderNode, chain: PlaneChain, inheritedOpacity: Double, shade: FaceShade?,
                  filter: ColorFilter, seal: Bool) throws {
        let plan = Plan(node, inheritedOpacity: inheritedOpacity, shade: shade, filter: filter, seal: seal)
        guard plan.alpha > 0 else { return }
        let bounds = node.planeBounds
        let inner = filter.inner(shade)
        let outline = chain.map(node.outline)
        // A sealed face is filled half a pixel wider so shared edges show no background; its outline mask, Gouraud
        // shading and overlay cover that same wider outline, so no unshaded fringe remains.
        let filled = plan.isSealed ? outline.map { $0.dilated(by: dilation / 2) } : outline
        try cr.withSavedState {
            if node.masksToBounds { try cr.clip(outline) }
            // A face's outline masks all it draws.
            if node.shape != nil, !node.masksToBounds { try cr.clip(filled) }
            if plan.alpha < 1 { try cr.pushGroup() }
            if plan.shadesGroup != nil { try cr.pushGroup() }

            var overlay = plan.overlay
            switch plan.background {
            case .none:
                break
            case let .color(fill):
                cr.setColor((fill.red, fill.green, fill.blue, fill.alpha))
                try cr.fill(filled)
            case let .shadedColor(color, shade):
                // The mesh reaches past the outline (by half a pixel at least): a partly covered edge pixel whose
                // centre lies outside the patch would otherwise take no colour at all.
                if try fillShadedColor(color, shade: shade, overlay: overlay.map(filter.apply), bounds: bounds,
                                       outline: filled, chain: chain, grow: plan.isSealed ? max(dilation / 2, 0.5) : 0.5) {
                    overlay = nil
                }
            }
            if let image = node.contents,
               let rect = RenderNode.contentsRect(image, gravity: node.contentsGravity, scale: node.contentsScale, in: bounds) {
                try drawImage(image, in: rect, chain: chain, filter: inner)
            }
            if let text = node.text, !node.textRings.isEmpty {
                source(text.foregroundColor, inner)
                try cr.fill(chain.map(node.textRings))
            }
            if !node.members.isEmpty { try drawScene(node.members, chain: chain, filter: inner) }

            if let shade = plan.shadesGroup {
                try applyVertexShade(shade, bounds: bounds, clip: filled, chain: chain, grow: plan.isSealed ? dilation / 2 : 0)
            }
            if let overlay {
                source(overlay, filter)
                try cr.fill(filled)
            }
            if node.borderWidth > 0, node.borderColor.alpha > 0 {
                source(node.borderColor, filter)
                try cr.fill(chain.map(Outlines.border(bounds, radius: node.cornerRadius, width: node.borderWidth)),
                            evenOdd: true)
            }
            if plan.alpha < 1 { try cr.popGroup(alpha: plan.alpha) }
        }
    }

    /// The opaque colour `c` with `overlay` composited over it (source-over): what a face filled with `c` and then
    /// covered by the overlay shows, so the two can be one fill.
    static func opaque(_ c: Color, under overlay: Color) -> Color {
        let keep = 1 - overlay.alpha
        return Color(red: c.red * keep + overlay.red * overlay.alpha, green: c.green * keep + overlay.green * overlay.alpha,
                     blue: c.blue * keep + overlay.blue * overlay.alpha, alpha: 1)
    }

    /// Fills `outline` with an opaque colour under Gouraud shading, exactly: a mesh whose corner colours are
    /// `color` × the corner multiply (with `overlay`, already filtered, composited onto each corner when there
    /// is no add term: compositing a constant is linear, so per corner is per pixel), then the corner add term
    /// by ADD, which is linear in coverage too. Returns whether the overlay was composited here (false when
    /// the add term comes between: the caller draws it after).
    private func fillShadedColor(_ color: Color, shade: FaceShade, overlay: Color?, bounds: PlaneRect,
                                 outline: [Ring], chain: PlaneChain, grow: Double) throws -> Bool {
        let multiply = shade.vertexMultiply.flatMap { $0.count == 4 ? $0 : nil } ?? Array(repeating: .white, count: 4)
        let add = shade.vertexAdd.flatMap { $0.count == 4 ? $0 : nil }
        let corners = multiply.map { m -> Color in
            let k = m.clamped
            var c = Color(red: color.red * k.red, green: color.green * k.green, blue: color.blue * k.blue, alpha: 1)
            if add == nil, let o = overlay { c = Painter.opaque(c, under: o) }
            return c
        }
        guard let shaded = try cornerMesh(corners, bounds: bounds, chain: chain, grow: grow) else {
            // A corner does not project (behind the viewer): unshaded, as the grouped path leaves it.
            cr.setColor((color.red, color.green, color.blue, 1))
            try cr.fill(outline)
            return false
        }
        try cr.fill(outline, with: shaded)
        if let add, let mesh = try cornerMesh(add, bounds: bounds, chain: chain, grow: grow) {
            try cr.fill(outline, with: mesh, operator: CAIRO_OPERATOR_ADD)
        }
        return add == nil
    }

    /// Gouraud shading of the plane's own drawing (the open group): corner colours interpolated by a Cairo mesh
    /// patch over the projected corners, composited with MULTIPLY (then ADD) and masked by the drawing's own
    /// alpha, clipped to the rounded bounds. Exact on opaque pixels; the interpolation is linear in device
    /// space (not perspective-correct), and partially covered edge pixels are approximated (a plain colour
    /// face takes `fillShadedColor` instead, exact there too).
    private func applyVertexShade(_ shade: FaceShade, bounds: PlaneRect, clip: [Ring], chain: PlaneChain,
                                  grow: Double) throws {
        let content = try cr.popGroupPattern()
        try cr.paint(content)
        for (colors, op) in [(shade.vertexMultiply, CAIRO_OPERATOR_MULTIPLY), (shade.vertexAdd, CAIRO_OPERATOR_ADD)] {
            guard let colors, colors.count == 4,
                  let mesh = try cornerMesh(colors, bounds: bounds, chain: chain, grow: grow) else { continue }
            try cr.withSavedState {
                try cr.clip(clip)
                try cr.mask(mesh, with: content, operator: op)
            }
        }
    }

    /// A Cairo mesh over the plane's projected bounds with one colour per corner of `bounds` (clamped), or nil
    /// when a corner does not project. The colours blend bilinearly **in the plane**, as Gouraud shading does
    /// with perspective-correct interpolation: a single patch would blend them linearly in device space, so under
    /// perspective the colour at the face's projected centre would not be the mean of its corners. The plane is
    /// cut into `meshDivisions`² patches, each with the plane-bilinear colours at its corners; within a patch the
    /// projective map is close to affine. `grow` (device pixels) pushes the outer ring of the grid out to cover a
    /// sealed face's dilated fringe; the colours there extend unchanged.
    private func cornerMesh(_ colors: [Color], bounds: PlaneRect, chain: PlaneChain, grow: Double) throws -> CairoPattern? {
        guard colors.count == 4 else { return nil }
        let n = Self.meshDivisions
        var device: [PlanePoint] = []
        device.reserveCapacity((n + 1) * (n + 1))
        for j in 0...n {
            for i in 0...n {
                let u = Double(i) / Double(n), v = Double(j) / Double(n)
                guard let p = chain.map(point: PlanePoint(bounds.minX + u * bounds.width, bounds.minY + v * bounds.height))
                else { return nil }
                device.append(p)
            }
        }
        if grow > 0 {
            // Each outer point moves 4·grow away from the centre: every edge moves out by at least `grow` for the
            // quads a face projects to (corner angles are never sharper than ~15° there).
            let outer = [device[0], device[n], device[n * (n + 1) + n], device[n * (n + 1)]]
            let cx = outer.map(\.x).reduce(0, +) / 4, cy = outer.map(\.y).reduce(0, +) / 4
            for j in 0...n {
                for i in 0...n where i == 0 || i == n || j == 0 || j == n {
                    let p = device[j * (n + 1) + i], dx = p.x - cx, dy = p.y - cy, d = (dx * dx + dy * dy).squareRoot()
                    if d > 0 { device[j * (n + 1) + i] = PlanePoint(p.x + dx / d * 4 * grow, p.y + dy / d * 4 * grow) }
                }
            }
        }
        let k = colors.map(\.clamped)
        func color(_ i: Int, _ j: Int) -> (Double, Double, Double) {
            let u = Double(i) / Double(n), v = Double(j) / Double(n)
            let w = [(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v]  // corners in `bounds.corners` order
            return (zip(w, k).reduce(0) { $0 + $1.0 * $1.1.red }, zip(w, k).reduce(0) { $0 + $1.0 * $1.1.green },
                    zip(w, k).reduce(0) { $0 + $1.0 * $1.1.blue })
        }
        var patches: [CairoPattern.Patch] = []
        for j in 0..<n {
            for i in 0..<n {
                let cell = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
                patches.append(CairoPattern.Patch(corners: cell.map { device[$0.1 * (n + 1) + $0.0] },
                                                  colors: cell.map { color($0.0, $0.1) }))
            }
        }
        return try CairoPattern.mesh(patches)
    }

    /// Patches per side of a Gouraud mesh (see `cornerMesh`).
    static let meshDivisions = 4
}
