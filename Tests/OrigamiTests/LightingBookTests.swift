import Foundation
import Origami
import Testing
import TestSupport

/// The book's lighting (ch. 5, listing 5.10): `LIGHT_DIRECTION 0, 1, -0.5`, `AMBIENT_LIGHT 0.5`, a black overlay
/// of alpha `1 + L·N − AMBIENT_LIGHT` on each face.
///
/// Hand derivation. L = (0, 1, −0.5)/√1.25; write k = 1/√1.25 ≈ 0.894427. The object-space normals are the
/// third rows of the book's rotations: 1 front (0,0,1), 2 right (1,0,0), 3 top (0,−1,0), 4 bottom (0,1,0),
/// 5 left (−1,0,0), 6 back (0,0,−1). So L·N = −k/2, 0, −k, k, 0, k/2 and the unclamped alphas are
/// 0.5 − k/2 ≈ 0.0528, 0.5, 0.5 − k ≈ −0.394 (→ 0), 0.5 + k ≈ 1.394 (→ 1), 0.5, 0.5 + k/2 ≈ 0.947.
enum BookFigures {
    static let k = 1 / 1.25.squareRoot()
    static let lDotN = [-k / 2, 0, -k, k, 0, k / 2]
    static let unclamped = [0.5 - k / 2, 0.5, 0.5 - k, 0.5 + k, 0.5, 0.5 + k / 2]
    static let alpha = [0.5 - k / 2, 0.5, 0, 1, 0.5, 0.5 + k / 2]
    static let normals = [Vector3(0, 0, 1), Vector3(1, 0, 0), Vector3(0, -1, 0),
                          Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, -1)]
}

@Suite("Lighting: the book's cube")
struct LightingBookTests {
    @Test("the figures round to the book's: 0.0528, 0.5, 0, 1, 0.5, 0.947")
    func figures() {
        expectApprox(BookFigures.alpha[0], 0.0528, tolerance: 1e-4)
        expectApprox(BookFigures.unclamped[2], -0.394, tolerance: 1e-3)
        expectApprox(BookFigures.unclamped[3], 1.394, tolerance: 1e-3)
        expectApprox(BookFigures.alpha[5], 0.947, tolerance: 1e-3)
    }

    @Test("the book's cube as six sublayers of the container: overlay alpha per face")
    func sixSublayers() throws {
        let cube = try BookCube(lighting: Lighting.book)
        let container = cube.container
        let members = container.sublayerScene()
        #expect(members.map(\.layer) == cube.faces)
        for (i, member) in members.enumerated() {
            let shade = try #require(Lighting.book.shade(container.faceTransforms(for: member), bounds: member.layer.bounds))
            let overlay = try #require(shade.overlay, "face \(i + 1)")
            #expect(overlay.red == 0 && overlay.green == 0 && overlay.blue == 0)
            expectApprox(overlay.alpha, BookFigures.alpha[i], tolerance: 1e-9, "face \(i + 1): \(overlay.alpha)")
            #expect(shade.multiply == nil && shade.add == nil && shade.vertexMultiply == nil)
        }
    }

    @Test("the same numbers as data, unclamped values included")
    func data() throws {
        let container = try BookCube().container
        container.lighting = Lighting.book
        let report = try container.lightingReport()
        #expect(report.count == 6)
        for (i, row) in report.enumerated() {
            let normal = try #require(row.objectNormal)
            #expect(near(Vector3(normal[0], normal[1], normal[2]), BookFigures.normals[i]), "face \(i + 1)")
            expectApprox(row.lights[0].lDotN, BookFigures.lDotN[i], tolerance: 1e-9, "face \(i + 1)")
            expectApprox(row.unclampedOverlay, BookFigures.unclamped[i], tolerance: 1e-9, "face \(i + 1)")
            expectApprox(row.overlayAlpha, BookFigures.alpha[i], tolerance: 1e-9, "face \(i + 1)")
            #expect(row.layerName == "face \(i + 1)" && row.treeIndex == i)
        }
    }

    @Test("the book's cube built as a Solid inside the container gives the same alphas")
    func solid() throws {
        let cube = try Solid.cube(size: 200)
        cube.name = "cube"
        let container = try BookCube.container(holding: cube)
        container.lighting = Lighting.book
        let members = container.sublayerScene()
        #expect(members.map(\.layer) == cube.faces)
        for (i, member) in members.enumerated() {
            let shade = try #require(Lighting.book.shade(container.faceTransforms(for: member), bounds: member.layer.bounds))
            expectApprox(shade.overlay?.alpha, BookFigures.alpha[i], tolerance: 1e-9, "face \(i + 1)")
        }
        let report = try container.lightingReport()
        #expect(report.map(\.faceNumber) == [1, 2, 3, 4, 5, 6])
        #expect(report.map(\.faceKind) == ["front", "right", "top", "bottom", "left", "back"])
        #expect(report.allSatisfy { $0.solidName == "cube" })
        for (i, row) in report.enumerated() {
            expectApprox(row.unclampedOverlay, BookFigures.unclamped[i], tolerance: 1e-9, "face \(i + 1)")
        }
    }

    @Test("object-space lighting turns with the solid: turning the cube leaves the book's alphas alone")
    func turnedSolid() throws {
        let cube = try Solid.cube(size: 200)
        let container = try BookCube.container(holding: cube)
        cube.transform = CATransform3DMakeRotation(0.7, 1, 2, 3)
        let report = try Lighting.book.lightingReport(for: container)
        for (i, row) in report.enumerated() {
            expectApprox(row.overlayAlpha, BookFigures.alpha[i], tolerance: 1e-9, "face \(i + 1)")
        }
    }

    @Test("lighting never changes the layers")
    func pure() throws {
        let cube = try BookCube()
        let (container, faces) = (cube.container, cube.faces)
        let before = faces.map(\.geometry)
        container.lighting = Lighting.book
        _ = try container.lightingReport()
        for member in container.sublayerScene() {
            _ = Lighting.book.shade(container.faceTransforms(for: member), bounds: member.layer.bounds)
        }
        #expect(faces.map(\.geometry) == before)
        #expect(faces.allSatisfy { $0.sublayers.isEmpty && $0.backgroundColor == nil })
    }

    @Test("the report encodes to JSON and back, and has a flat CSV row form")
    func codable() throws {
        let container = try BookCube().container
        let report = try Lighting.book.lightingReport(for: container)
        let data = try JSONEncoder().encode(report)
        let decoded = try JSONDecoder().decode([FaceLightingData].self, from: data)
        #expect(decoded == report)
        let header = FaceLightingData.csvHeader(lightCount: 1).split(separator: ",", omittingEmptySubsequences: false)
        for row in report {
            #expect(row.csvRow.split(separator: ",", omittingEmptySubsequences: false).count == header.count)
        }
        #expect(header.contains("light1_lDotN") && header.contains("overlayAlpha"))
    }
}
