import CGLib
import Foundation
import GObjectSupport

/// A favorite place: a line `URI[ label]` of GTK's bookmarks file, the list GNOME Files and
/// every GTK file chooser show in their sidebar.
public struct Favorite: Sendable, Hashable, Codable {
    /// The location, a URI (`file:///home/ann/Projects`, `sftp://host/srv`).
    public var uri: String
    /// The name the user gave it, if any.
    public var label: String?

    /// A favorite for `uri`; an empty label counts as none.
    public init(uri: String, label: String? = nil) {
        self.uri = uri
        self.label = label.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The local folder, for a `file://` URI.
    public var path: String? {
        guard uri.hasPrefix("file:") else { return nil }
        return takeString(g_filename_from_uri(uri, nil, nil))
    }

    /// The label, else the last part of the location.
    public var displayName: String {
        if let label { return label }
        if let path { return path == "/" ? path : (path as NSString).lastPathComponent }
        let unescaped = takeString(g_uri_unescape_string(uri, nil)) ?? uri
        return (unescaped as NSString).lastPathComponent
    }
}

/// The bookmarks file as lines: favorites, and whatever else it holds (blank lines, lines a
/// newer GTK or another program understands), kept as they were.
package struct BookmarksFileContents: Equatable {
    package enum Line: Equatable {
        case favorite(Favorite)
        case other(String)
    }

    package var lines: [Line]

    package init(text: String) {
        // Every "\n" ends a line, as GTK splits the file's bytes: "\r\n" is one Character,
        // which a split on Characters would not see.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        self.lines = lines.map(Self.parse)
    }

    package var text: String {
        lines.map { line in
            switch line {
            case .favorite(let favorite): favorite.label.map { favorite.uri + " " + $0 } ?? favorite.uri
            case .other(let text): text
            }
        }.map { $0 + "\n" }.joined()
    }

    var favorites: [Favorite] {
        lines.compactMap { if case .favorite(let favorite) = $0 { favorite } else { nil } }
    }

    /// The line of the favorite for `uri`.
    func lineIndex(of uri: String) -> Int? {
        lines.firstIndex { if case .favorite(let favorite) = $0 { favorite.uri == uri } else { false } }
    }

    /// GTK's rule: the URI runs to the first space, the label is the rest. A line whose first
    /// word is not a URI with a scheme is not a favorite. The "\r"s at the end of the line (a
    /// file saved with Windows line ends, perhaps twice over) or of the URI are no part of the
    /// favorite: a favorite ending in "\r" would lose it when the file is written back.
    private static func parse(_ line: String) -> Line {
        var scalars = line.unicodeScalars[...]
        while scalars.last == "\r" { scalars = scalars.dropLast() }
        let space = scalars.firstIndex(of: " ")
        var uriScalars = scalars[..<(space ?? scalars.endIndex)]
        while uriScalars.last == "\r" { uriScalars = uriScalars.dropLast() }
        let uri = String(uriScalars)
        let label = space.map { String(scalars[scalars.index(after: $0)...]) }
        guard !uri.isEmpty, takeString(g_uri_parse_scheme(uri)) != nil else { return .other(line) }
        return .favorite(Favorite(uri: uri, label: label))
    }
}
