import Foundation

// Reading and writing one key path of a layer's drawing properties.
extension AnimatedProperties {
    /// The value at `keyPath`; `nil` when the layer has nothing there (a lighting path on a layer without a
    /// `Lighting`, a light it does not have, a direction of a point light).
    subscript(keyPath: AnimationKeyPath) -> AnimationValue? {
        let g = geometry
        switch keyPath.property {
        case .position: return .point(g.position)
        case .positionX: return .number(Double(g.position.x))
        case .positionY: return .number(Double(g.position.y))
        case .bounds: return .rect(g.bounds)
        case .boundsOrigin: return .point(g.bounds.origin)
        case .boundsSize: return .size(g.bounds.size)
        case .boundsWidth: return .number(Double(g.bounds.size.width))
        case .boundsHeight: return .number(Double(g.bounds.size.height))
        case .anchorPoint: return .point(g.anchorPoint)
        case .anchorPointZ: return .number(g.anchorPointZ)
        case .zPosition: return .number(g.zPosition)
        case .opacity: return .number(opacity)
        // No background reads as clear, as Core Animation interpolates from a nil colour.
        case .backgroundColor: return .color(backgroundColor ?? .clear)
        case .borderWidth: return .number(borderWidth)
        case .borderColor: return .color(borderColor)
        case .cornerRadius: return .number(cornerRadius)
        case let .transform(part): return Self.read(part, of: g.transform)
        case let .sublayerTransform(part): return Self.read(part, of: g.sublayerTransform)
        case .ambient: return (lighting as? Lighting).map { .number($0.ambient) }
        case .shininess: return (lighting as? Lighting).map { .number($0.shininess) }
        case .specular: return (lighting as? Lighting).map { .color($0.specular) }
        case let .light(i, field):
            guard let l = lighting as? Lighting, l.lights.indices.contains(i) else { return nil }
            let light = l.lights[i]
            switch field {
            case .direction: return light.direction.map { .vector($0) }
            case .position: return light.position.map { .vector($0) }
            case .color: return .color(light.color)
            case .intensity: return .number(light.intensity)
            }
        }
    }

    /// Sets `keyPath` to `value` (of the path's kind); `additive` adds it to the value there (a transform
    /// sub-path's matrix is concatenated, applied first).
    mutating func set(_ keyPath: AnimationKeyPath, to value: AnimationValue, additive: Bool) {
        guard value.kind == keyPath.valueKind else { return }
        switch keyPath.property {
        case let .transform(part) where part != .whole:
            geometry.transform = Self.compose(part, value, onto: geometry.transform, additive: additive)
            return
        case let .sublayerTransform(part) where part != .whole:
            geometry.sublayerTransform = Self.compose(part, value, onto: geometry.sublayerTransform, additive: additive)
            return
        default: break
        }
        var value = value
        if additive {
            guard let current = self[keyPath], let sum = current.adding(value) else { return }
            value = sum
        }
        switch (keyPath.property, value) {
        case let (.position, .point(p)): geometry.position = p
        case let (.positionX, .number(x)): geometry.position.x = x
        case let (.positionY, .number(y)): geometry.position.y = y
        case let (.bounds, .rect(r)): geometry.bounds = r
        case let (.boundsOrigin, .point(p)): geometry.bounds.origin = p
        case let (.boundsSize, .size(s)): geometry.bounds.size = s
        case let (.boundsWidth, .number(w)): geometry.bounds.size.width = w
        case let (.boundsHeight, .number(h)): geometry.bounds.size.height = h
        case let (.anchorPoint, .point(p)): geometry.anchorPoint = p
        case let (.anchorPointZ, .number(z)): geometry.anchorPointZ = z
        case let (.zPosition, .number(z)): geometry.zPosition = z
        case let (.opacity, .number(o)): opacity = o
        case let (.backgroundColor, .color(c)): backgroundColor = c
        case let (.borderWidth, .number(w)): borderWidth = w
        case let (.borderColor, .color(c)): borderColor = c
        case let (.cornerRadius, .number(r)): cornerRadius = r
        case let (.transform, .transform(t)): geometry.transform = t
        case let (.sublayerTransform, .transform(t)): geometry.sublayerTransform = t
        case let (.ambient, .number(a)): updateLighting { $0.ambient = a }
        case let (.shininess, .number(s)): updateLighting { $0.shininess = s }
        case let (.specular, .color(c)): updateLighting { $0.specular = c }
        case let (.light(i, field), value):
            updateLighting { l in
                guard l.lights.indices.contains(i) else { return }
                switch (field, value) {
                // As a sweep sets them: a direction makes the light directional, a position a point light.
                case let (.direction, .vector(d)): l.lights[i].direction = d; l.lights[i].position = nil
                case let (.position, .vector(p)): l.lights[i].position = p; l.lights[i].direction = nil
                case let (.color, .color(c)): l.lights[i].color = c
                case let (.intensity, .number(x)): l.lights[i].intensity = x
                default: break
                }
            }
        default: break
        }
    }

    private mutating func updateLighting(_ change: (inout Lighting) -> Void) {
        guard var l = lighting as? Lighting else { return }
        change(&l)
        lighting = l
    }

    /// A sub-path's value read from a matrix, as Core Animation's `valueForKeyPath:` reads it: the translation
    /// row; the scale as each row's length (uniform `scale`: their mean); the rotation about one axis from the
    /// two entries it alone sets (exact for a rotation about that axis; for a compound one an Euler-style reading).
    static func read(_ part: AnimationKeyPath.TransformPart, of t: Transform3D) -> AnimationValue {
        let sx = (t.m11 * t.m11 + t.m12 * t.m12 + t.m13 * t.m13).squareRoot()
        let sy = (t.m21 * t.m21 + t.m22 * t.m22 + t.m23 * t.m23).squareRoot()
        let sz = (t.m31 * t.m31 + t.m32 * t.m32 + t.m33 * t.m33).squareRoot()
        switch part {
        case .whole: return .transform(t)
        case .rotation(.x): return .number(atan2(t.m23, t.m33))
        case .rotation(.y): return .number(atan2(t.m31, t.m33))
        case .rotation(.z): return .number(atan2(t.m12, t.m11))
        case .scale: return .number((sx + sy + sz) / 3)
        case .scaleAxis(.x): return .number(sx)
        case .scaleAxis(.y): return .number(sy)
        case .scaleAxis(.z): return .number(sz)
        case .translation: return .size(CGSize(width: t.m41, height: t.m42))
        case .translationAxis(.x): return .number(t.m41)
        case .translationAxis(.y): return .number(t.m42)
        case .translationAxis(.z): return .number(t.m43)
        }
    }

    /// A sub-path's value as a matrix (`CAValueFunction`), replacing `base` or, additive, applied before it.
    static func compose(_ part: AnimationKeyPath.TransformPart, _ value: AnimationValue, onto base: Transform3D,
                        additive: Bool) -> Transform3D {
        let m: Transform3D
        switch (part, value) {
        case let (.rotation(axis), .number(a)):
            m = Transform3D(rotationAngle: a, x: axis == .x ? 1 : 0, y: axis == .y ? 1 : 0, z: axis == .z ? 1 : 0)
        case let (.scale, .number(s)): m = Transform3D(scaleX: s, y: s, z: s)
        case let (.scaleAxis(axis), .number(s)):
            m = Transform3D(scaleX: axis == .x ? s : 1, y: axis == .y ? s : 1, z: axis == .z ? s : 1)
        case let (.translation, .size(s)): m = Transform3D(translationX: Double(s.width), y: Double(s.height), z: 0)
        case let (.translationAxis(axis), .number(d)):
            m = Transform3D(translationX: axis == .x ? d : 0, y: axis == .y ? d : 0, z: axis == .z ? d : 0)
        case let (.whole, .transform(t)): m = t
        default: return base
        }
        return additive ? m.concatenating(base) : m
    }
}
