import Foundation
import Origami

/// Reading a scene's layout keys (seed 002, DESIGN §2 "Layout"): `autoresizingMask`, `constraints`,
/// `layoutManager` and `resize`. Constraints are checked where they are written — their attributes, the siblings
/// they name and cycles among siblings — so a scene that reads without error lays out without error.
extension SceneBuilder {
    static let layoutManagers = ["constraints", "none"]
    static let constraintKeys = ["attribute", "relativeTo", "sourceAttribute", "scale", "offset"]
    static let attributeNames = ConstraintAttribute.allCases.map(\.rawValue)
    /// The OS X names, `kCALayerWidthSizable` written `widthSizable` (the prefixed name is accepted too).
    static let autoresizingNames: [(String, AutoresizingMask)] = [
        ("minXMargin", .minXMargin), ("widthSizable", .widthSizable), ("maxXMargin", .maxXMargin),
        ("minYMargin", .minYMargin), ("heightSizable", .heightSizable), ("maxYMargin", .maxYMargin),
    ]

    /// `autoresizingMask: [widthSizable, maxYMargin]` (a list of flag names, or one name; `[]` for none).
    func readAutoresizingMask(_ value: SceneValue) -> AutoresizingMask? {
        let items: [SceneValue]
        if case .scalar = value.node { items = [value] } else if let l = value.list() { items = l } else { return nil }
        var mask: AutoresizingMask = []
        let names = Self.autoresizingNames.map(\.0)
        for item in items {
            guard var name = item.string() else { return nil }
            if name.hasPrefix("kCALayer"), let first = name.dropFirst(8).first {
                name = first.lowercased() + name.dropFirst(9)
            }
            guard let flag = Self.autoresizingNames.first(where: { $0.0 == name })?.1 else {
                let hint = closestMatch(to: name, in: names).map { "did you mean `\($0)`?" }
                    ?? "the flags: \(names.joined(separator: ", "))"
                return item.fail("unknown autoresizing flag `\(name)`", hint: hint)
            }
            mask.insert(flag)
        }
        return mask
    }

    /// `constraints:` a list of `{attribute, relativeTo, sourceAttribute, scale, offset}` — `CAConstraint`'s
    /// `attribute = relativeTo.sourceAttribute · scale + offset`, `sourceAttribute` defaulting to `attribute`,
    /// `scale` to 1 and `offset` to 0; `relativeTo` is `superlayer` or a sibling's name (checked once the
    /// siblings are read, see `checkConstraints`).
    func readConstraints(_ value: SceneValue) -> [(Constraint, SceneValue)]? {
        guard let items = value.list() else { return nil }
        var result: [(Constraint, SceneValue)] = []
        for item in items {
            guard let o = item.object(allowed: Self.constraintKeys) else { continue }
            let example = "e.g. `{attribute: midX, relativeTo: superlayer}`"
            guard let a = o.required("attribute", hint: example).flatMap(readAttribute),
                  let sourceValue = o.required("relativeTo", hint: "`superlayer` or a sibling's name; \(example)"),
                  let source = sourceValue.string() else { continue }
            let sourceAttribute = o["sourceAttribute"].map(readAttribute) ?? a
            guard let sourceAttribute else { continue }
            let scale = o["scale"].map { $0.number() } ?? 1, offset = o["offset"].map { $0.number() } ?? 0
            guard let scale, let offset else { continue }
            result.append((Constraint(attribute: a, relativeTo: source, attribute: sourceAttribute, scale: scale, offset: offset),
                           sourceValue))
        }
        return result
    }

    private func readAttribute(_ value: SceneValue) -> ConstraintAttribute? {
        guard let s = value.string() else { return nil }
        if let a = ConstraintAttribute(rawValue: s) { return a }
        let hint = closestMatch(to: s, in: Self.attributeNames).map { "did you mean `\($0)`?" }
            ?? "the attributes: \(Self.attributeNames.joined(separator: ", "))"
        return value.fail("unknown constraint attribute `\(s)`", hint: hint)
    }

    /// Checks the constraints of `siblings` (the sublayers of one layer, or the canvas's layers): the superlayer
    /// must lay them out with `layoutManager: constraints`, each `relativeTo` must name `superlayer` or a sibling,
    /// and the sibling references must not form a cycle (reported once, at the first constraint in it).
    func checkConstraints(of siblings: [LayerDescription], superlayerHasManager: Bool, superlayerPath: String?) {
        let constrained = siblings.filter { !(constraintSources[$0.keyPath] ?? []).isEmpty }
        guard !constrained.isEmpty else { return }
        guard superlayerHasManager else {
            for s in constrained {
                let hint = superlayerPath.map { "add `layoutManager: constraints` to the superlayer at \($0), as listing 4-2 sets `theLayer.layoutManager`" }
                    ?? "put these layers in a container layer with `layoutManager: constraints`"
                reader.report(constraintLists[s.keyPath], "constraints are applied by the superlayer's layout manager, and it has none",
                              hint: hint)
            }
            return
        }
        let names = siblings.compactMap(\.name)
        let nameSet = Set(names)
        var edges: [String: [(String, SceneValue)]] = [:]   // name → the siblings its constraints read
        for s in constrained {
            for (c, at) in constraintSources[s.keyPath] ?? [] where c.sourceName != "superlayer" {
                guard nameSet.contains(c.sourceName) else {
                    let hint = closestMatch(to: c.sourceName, in: names + ["superlayer"]).map { "did you mean `\($0)`?" }
                        ?? (names.isEmpty ? "no sibling has a name: use `superlayer`, or name the sibling"
                                          : "`superlayer` or a sibling: \(names.joined(separator: ", "))")
                    reader.report(at, "no sibling is named `\(c.sourceName)`", hint: hint)
                    continue
                }
                // An unnamed layer can be in no cycle: no sibling can refer to it.
                if let name = s.name { edges[name, default: []].append((c.sourceName, at)) }
            }
        }
        // Depth-first search for a cycle, iterative so a long chain of siblings is no stack overflow.
        var state: [String: Int] = [:]   // 1 on the path, 2 done
        for start in names where state[start] == nil {
            var path: [(name: String, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = path.last {
                let out = edges[top.name] ?? []
                guard top.next < out.count else { state[top.name] = 2; path.removeLast(); continue }
                path[path.count - 1].next += 1
                let (target, at) = out[top.next]
                switch state[target] {
                case 2: continue
                case 1:
                    let cycle = path[(path.firstIndex { $0.name == target } ?? 0)...].map(\.name) + [target]
                    reader.report(at, "constraints form a cycle: \(cycle.joined(separator: " → "))",
                                  hint: "Core Animation leaves a cycle's layout undefined: make one of them relative to `superlayer`")
                    return
                default:
                    state[target] = 1
                    path.append((target, 0))
                }
            }
        }
    }
}
