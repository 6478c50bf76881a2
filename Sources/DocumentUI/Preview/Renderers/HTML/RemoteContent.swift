import Foundation

/// What a page would load from the network by itself: the addresses of its images, media,
/// frames, objects, style sheets, icons and CSS `url()`s and `@import`s that are remote
/// (http, https, ftp). Links (`<a href>`) are not content: they load nothing until clicked.
///
/// The previewer shows a page with remote loads blocked (a WebKit content filter) and no
/// JavaScript, so this is read from the page's own text: it tells the renderer whether to
/// offer "Load Remote Content". Style sheets next to the page are not read, so a remote font
/// that only they import is blocked without the offer.
enum RemoteContent {
    /// The remote addresses `html` refers to, in order, each once.
    static func references(in html: String) -> [String] {
        var found: [String] = []
        func add(_ address: String) {
            let trimmed = address.trimmingCharacters(in: .whitespacesAndNewlines)
            if isRemote(trimmed), !found.contains(trimmed) { found.append(trimmed) }
        }
        let text = html as NSString
        let whole = NSRange(location: 0, length: text.length)
        for tag in tagPattern.matches(in: html, range: whole) {
            let name = text.substring(with: tag.range(at: 1)).lowercased()
            let attributes = text.substring(with: tag.range(at: 2)) as NSString
            for attribute in attributePattern.matches(in: attributes as String, range: NSRange(location: 0, length: attributes.length)) {
                let key = attributes.substring(with: attribute.range(at: 1)).lowercased()
                let valueRange = [2, 3, 4].map { attribute.range(at: $0) }.first { $0.location != NSNotFound }
                guard let valueRange else { continue }
                let value = attributes.substring(with: valueRange)
                switch key {
                case "href" where name == "a" || name == "area" || name == "base":
                    continue  // a link, followed only when clicked
                case "srcset", "imagesrcset":
                    // "a.png 1x, https://… 2x": each candidate's address is its first word.
                    for candidate in value.split(separator: ",") {
                        add(String(candidate.split(whereSeparator: \.isWhitespace).first ?? ""))
                    }
                case "src", "href", "poster", "background", "data":
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
