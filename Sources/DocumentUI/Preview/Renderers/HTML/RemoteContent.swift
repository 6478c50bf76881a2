import Foundation

/// What a page would load from the network by itself: the addresses of its images, media,
/// frames, objects, style sheets, icons, preloads and CSS `url()`s and `@import`s that are
/// remote (http, https, ftp), and a remote `<base>` (which makes relative addresses remote).
/// Links (`<a href>`, `<link rel=canonical>`) are not content: they load nothing.
///
/// The previewer shows a page with remote loads blocked (a WebKit content filter) and no
/// JavaScript, so this is read from the page's own text: it tells the renderer whether to
/// offer "Load Remote Content". Style sheets next to the page are not read, so a remote font
/// that only they import is blocked without the offer.
package enum RemoteContent {
    /// The remote addresses `html` refers to, in order, each once.
    package static func references(in html: String) -> [String] {
        var found: [String] = []
        func add(_ address: String) {
            let trimmed = address.trimmingCharacters(in: .whitespacesAndNewlines)
            if isRemote(trimmed), !found.contains(trimmed) { found.append(trimmed) }
        }
        let text = html as NSString
        let whole = NSRange(location: 0, length: text.length)
        for tag in tagPattern.matches(in: html, range: whole) {
            let name = text.substring(with: tag.range(at: 1)).lowercased()
            let attributes = Self.attributes(of: text.substring(with: tag.range(at: 2)))
            let isLink = name == "a" || name == "area"
            for (key, value) in attributes {
                switch key {
                case "href" where isLink, "xlink:href" where isLink:
                    continue  // a link, followed only when clicked
                case "href" where name == "link":
                    // A style sheet, an icon or a preload loads; canonical, alternate… do not.
                    let rel = Set((attributes.first { $0.0 == "rel" }?.1 ?? "").lowercased().split(separator: " ").map(String.init))
                    if !rel.isDisjoint(with: Self.loadingRelations) { add(value) }
                case "srcset", "imagesrcset":
                    // "a.png 1x, https://… 2x": each candidate's address is its first word.
                    for candidate in value.split(separator: ",") {
                        add(String(candidate.split(whereSeparator: \.isWhitespace).first ?? ""))
                    }
                case "src", "href", "xlink:href", "poster", "background", "data":
                    // `href` here: a remote <base> makes the page's relative addresses remote.
                    add(value)
                case "style":
                    for address in cssAddresses(in: value) { add(address) }
                default:
                    continue
                }
            }
        }
        // Style blocks (and anything else with CSS in it): url(…) and @import "…".
        for address in cssAddresses(in: html) { add(address) }
        return found
    }

    /// The `rel` values of a `<link>` that make it load its address.
    private static let loadingRelations: Set<String> = [
        "stylesheet", "icon", "apple-touch-icon", "preload", "prefetch", "preconnect", "dns-prefetch", "modulepreload",
        "manifest",
    ]

    /// A tag's attributes, names lowercased, in order.
    private static func attributes(of text: String) -> [(String, String)] {
        let attributes = text as NSString
        return attributePattern.matches(in: text, range: NSRange(location: 0, length: attributes.length)).compactMap { match in
            let valueRange = [2, 3, 4].map { match.range(at: $0) }.first { $0.location != NSNotFound }
            return valueRange.map { (attributes.substring(with: match.range(at: 1)).lowercased(), attributes.substring(with: $0)) }
        }
    }

    private static func isRemote(_ address: String) -> Bool {
        let lowered = address.lowercased()
        return ["http://", "https://", "ftp://"].contains { lowered.hasPrefix($0) }
    }

    private static func cssAddresses(in css: String) -> [String] {
        let text = css as NSString
        return cssPattern.matches(in: css, range: NSRange(location: 0, length: text.length)).compactMap { match in
            (1...4).map { match.range(at: $0) }.first { $0.location != NSNotFound }.map { text.substring(with: $0) }
        }
    }

    // A start tag: its name and the text of its attributes.
    private static let tagPattern = try! NSRegularExpression(pattern: #"<([A-Za-z][A-Za-z0-9-]*)\b([^>]*)>"#)
    // name="value", name='value' or name=value.
    private static let attributePattern =
        try! NSRegularExpression(pattern: #"([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))"#)
    // url("…"), url('…'), url(…), @import "…" or '…'.
    private static let cssPattern =
        try! NSRegularExpression(pattern: #"url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)|@import\s+["']([^"']*)["']"#,
                                 options: [.caseInsensitive])
}
