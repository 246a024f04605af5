/// Per index (a member, a fragment), a value worked out at most once: `nil` not yet, `.some(nil)` worked out to
/// none. Kept as an `Int32` per index into the values made, not as an array of optionals: an array of optionals of
/// a type holding an array is freed element by element through the runtime's witnesses (a lattice's 6 000 members,
/// every render), an array of `Int32` in one go. The index is made on the first value kept: a render that never asks
/// (a lattice's whole faces) pays nothing. Set each index once: a value set again is kept beside the first.
struct MemoTable<Value> {
    /// Per index: -1 not yet, -2 none, else the value's place in `values`.
    private var index: [Int32] = []
    private var values: [Value] = []
    let count: Int

    init(count: Int) { self.count = count }

    subscript(i: Int) -> Value?? {
        get {
            guard !index.isEmpty else { return nil }
            switch index[i] {
            case -1: return nil
            case -2: return .some(nil)
            case let k: return values[Int(k)]
            }
        }
        set {
            if index.isEmpty { index = Array(repeating: -1, count: count) }
            switch newValue {
            case .none: index[i] = -1
            case .some(.none): index[i] = -2
            case let .some(.some(value)):
                index[i] = Int32(values.count)
                values.append(value)
            }
        }
    }
}
