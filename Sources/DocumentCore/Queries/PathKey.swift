import Foundation

/// A path relative to a query's folder, compared byte for byte. Swift strings are equal when
/// canonically equivalent, but file names are bytes: "é" and "e\u{301}" can be two files in
/// one folder, and a dictionary keyed by `String` would make them one.
struct PathKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    let string: String

    init(_ string: String) {
        self.string = string
    }

    init(stringLiteral value: String) {
        string = value
    }

    var description: String { string }

    /// The last component: the name of the item.
    var name: PathKey {
        guard let slash = string.utf8.lastIndex(of: UInt8(ascii: "/")) else { return self }
        return PathKey(String(string[string.utf8.index(after: slash)...]))
    }

    /// The folder part, "" for an item of the query's own folder.
    var parent: PathKey {
        guard let slash = string.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return PathKey(String(string[..<slash]))
    }

    /// True for this path and every path under it.
    func contains(_ other: PathKey) -> Bool {
        if string.isEmpty { return true }
        let own = string.utf8
        let theirs = other.string.utf8
        guard theirs.starts(with: own) else { return false }
        let rest = theirs.dropFirst(own.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }

    static func == (lhs: PathKey, rhs: PathKey) -> Bool {
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension QueryItem {
    /// The item's key among a query's items: its relative path. A name that is not UTF-8 is
    /// keyed by its bytes, in hex after a NUL, which no name can hold: it cannot pass for the
    /// name its U+FFFD text spells, which another file may have.
    var key: PathKey {
        guard let nameBytes else { return PathKey(relativePath) }
        let hex = nameBytes.map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        return PathKey(parent.childRelativePath("\u{0}" + hex))
    }
}
