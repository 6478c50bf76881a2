import CGLib
import Foundation

/// The gettext domain of every user-visible string Dossier prints or shows.
public let gettextDomain = "dossier"

/// Translates `message` through gettext (domain "dossier"), then fills each `%s` in order
/// with `arguments`. Use string literals only: `xgettext --keyword=tr` extracts them.
public func tr(_ message: String, _ arguments: String...) -> String {
    // dgettext returns its argument when there is no translation: read it inside the call.
    let translated = message.withCString { String(cString: dgettext(gettextDomain, $0)) }
    return Localization.fill(translated, arguments)
}

/// Chooses singular or plural through gettext's plural rules, then fills `%s` and `%d`.
public func trn(_ singular: String, _ plural: String, _ count: Int, _ arguments: String...) -> String {
    let translated = singular.withCString { one in
        plural.withCString { many in String(cString: dngettext(gettextDomain, one, many, UInt(max(count, 0)))) }
    }
    return Localization.fill(translated.replacingOccurrences(of: "%d", with: String(count)), arguments)
}

/// Setting up gettext for Dossier's translations.
public enum Localization {
    nonisolated(unsafe) private static var isSetUp = false

    /// Applies the user's locale (LANG, LC_*) and binds the "dossier" domain to the first
    /// folder that holds its catalogues: `$DOSSIER_LOCALEDIR`, the installed
    /// `<prefix>/share/locale` beside the binary, or the build tree's `.build/share/locale`.
    /// Call once at start-up, before any other thread runs.
    public static func setUp() {
        guard !isSetUp else { return }
        isSetUp = true
        setlocale(LC_ALL, "")
        if let directory = localeDirectory() {
            bindtextdomain(gettextDomain, directory)
        }
        bind_textdomain_codeset(gettextDomain, "UTF-8")
    }

    /// The folder gettext reads Dossier's catalogues from, if one is found.
    public static func localeDirectory() -> String? {
        if let explicit = ProcessInfo.processInfo.environment["DOSSIER_LOCALEDIR"], !explicit.isEmpty {
            return explicit
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            executable.appendingPathComponent("../share/locale"),  // <prefix>/bin/dossier
            executable.appendingPathComponent("../../share/locale"),  // .build/<triple>/debug/dossier
        ]
        for candidate in candidates {
            // A folder with any catalogue of ours, not just any share/locale.
            let path = candidate.standardizedFileURL.path
            let languages = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            if languages.contains(where: { FileManager.default.fileExists(atPath: "\(path)/\($0)/LC_MESSAGES/\(gettextDomain).mo") }) {
                return path
            }
        }
        return nil
    }

    static func fill(_ format: String, _ arguments: [String]) -> String {
        guard !arguments.isEmpty || format.contains("%%") else { return format }
        var result = ""
        var remaining = arguments[...]
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            let next = format.index(after: index)
            if character == "%", next < format.endIndex {
                if format[next] == "s" {
                    result += remaining.popFirst() ?? ""
                    index = format.index(after: next)
                    continue
                } else if format[next] == "%" {
                    result.append("%")
                    index = format.index(after: next)
                    continue
                }
            }
            result.append(character)
            index = next
        }
        return result
    }
}
