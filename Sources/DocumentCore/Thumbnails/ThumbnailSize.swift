/// The sizes of the shared thumbnail cache (Thumbnail Managing Standard): a thumbnail of a
/// size fits in a square of that many pixels.
public enum ThumbnailSize: String, Sendable, CaseIterable, Codable, Comparable {
    /// 128 pixels.
    case normal
    /// 256 pixels.
    case large
    /// 512 pixels.
    case xLarge = "x-large"
    /// 1024 pixels.
    case xxLarge = "xx-large"

    /// The edge of the square, in pixels.
    public var pixels: Int {
        switch self {
        case .normal: 128
        case .large: 256
        case .xLarge: 512
        case .xxLarge: 1024
        }
    }

    /// The cache folder's name.
    public var folderName: String { rawValue }

    /// The smallest size whose square holds `pixels` (logical size × scale).
    public init(fitting pixels: Int) {
        self = Self.allCases.first { $0.pixels >= pixels } ?? .xxLarge
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.pixels < rhs.pixels }
}
