import Foundation

/// An sRGB colour with straight (not premultiplied) alpha, components in 0…1.
public struct Color: Hashable, Sendable {
    /// The red, green, blue and alpha components, 0…1 for a drawable colour (not clamped when set: see `clamped`).
    public var red: Double, green: Double, blue: Double, alpha: Double

    /// A colour from its components, 0…1; alpha defaults to 1 (opaque). Corresponds to `UIColor(red:green:blue:alpha:)`.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A grey. Corresponds to `UIColor(white:alpha:)`.
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// Transparent black (alpha 0). Scene files: `clear`.
    public static let clear = Color(white: 0, alpha: 0)
    /// (0, 0, 0). Scene files: `black`.
    public static let black = Color(white: 0)
    /// (1, 1, 1). Scene files: `white`.
    public static let white = Color(white: 1)
    /// (0.5, 0.5, 0.5). Scene files: `gray` or `grey`.
    public static let gray = Color(white: 0.5)
    /// (1, 0, 0). Scene files: `red`.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// (0, 1, 0). Scene files: `green`.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// (0, 0, 1). Scene files: `blue`.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// (1, 1, 0). Scene files: `yellow`.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// (0, 1, 1). Scene files: `cyan`.
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    /// (1, 0, 1). Scene files: `magenta`.
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    /// (1, 0.5, 0). Scene files: `orange`.
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    /// (0.5, 0, 0.5). Scene files: `purple`.
    public static let purple = Color(red: 0.5, green: 0, blue: 0.5)

    /// Named colours by their lowercase names, for scene files and the command line.
    public static let named: [String: Color] = [
        "clear": .clear, "black": .black, "white": .white, "gray": .gray, "grey": .gray, "red": .red,
        "green": .green, "blue": .blue, "yellow": .yellow, "cyan": .cyan, "magenta": .magenta,
        "orange": .orange, "purple": .purple,
    ]

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` or a name from `named`; `nil` otherwise.
    public init?(parsing text: String) {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let c = Color.named[s] { self = c; return }
        guard s.hasPrefix("#") else { return nil }
        var hex = String(s.dropFirst())
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6 || hex.count == 8, let v = UInt64(hex, radix: 16) else { return nil }
        let n = hex.count == 6 ? (v << 8) | 0xFF : v
        self.init(
            red: Double((n >> 24) & 0xFF) / 255, green: Double((n >> 16) & 0xFF) / 255,
            blue: Double((n >> 8) & 0xFF) / 255, alpha: Double(n & 0xFF) / 255)
    }

    /// Every component is finite (no NaN or infinity): a colour that can be drawn after `clamped`.
    public var isFinite: Bool { red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite }

    /// The same colour with every component clamped to 0…1.
    @inlinable  // (the freeze clamps two colours per face from another module)
    public var clamped: Color {
        func c(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        return Color(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }
}

extension Color: CustomStringConvertible {
    public var description: String {
        // NaN prints as 00 rather than trapping in Int(_:).
        func h(_ v: Double) -> String { String(format: "%02x", v.isNaN ? 0 : Int((min(max(v, 0), 1) * 255).rounded())) }
        return "#" + h(red) + h(green) + h(blue) + (alpha < 1 ? h(alpha) : "")
    }
}
