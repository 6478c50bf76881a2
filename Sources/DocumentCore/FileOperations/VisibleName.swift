/// A name as Dossier shows it: characters that would change how the rest of the name reads,
/// while showing nothing themselves, are written out as `<U+XXXX>`.
///
/// `invoice` + U+202E (right-to-left override) + `fdp.exe` reads "invoiceexe.pdf" when drawn as
/// it is: the override hides the real extension. Shown here as "invoice<U+202E>fdp.exe". The
/// characters made visible are the bidirectional embeddings, overrides, isolates and marks, the
/// zero-width space and invisible operators, the byte-order mark, and control characters (a
/// newline or a tab in a name). Joiners (U+200C, U+200D) stay: scripts and emoji need them.
///
/// Only what is shown goes through this: a rename starts from the real name, and files are
/// reached by their real names.
package enum VisibleName {
    /// `name` with its invisible controls written out.
    package static func of(_ name: String) -> String {
        // Most names are printable ASCII: nothing to do.
        if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return name }
        guard name.unicodeScalars.contains(where: isHidden) else { return name }
        var shown = ""
        for scalar in name.unicodeScalars {
            if isHidden(scalar) {
                shown += "<U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + ">"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// True for a character that shows nothing and changes how the rest reads.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // control characters
        case 0x061C, 0x200E, 0x200F: true  // Arabic letter mark, left-to-right and right-to-left marks
        case 0x202A...0x202E: true  // embeddings, pop, overrides
        case 0x2066...0x2069: true  // isolates
        case 0x200B, 0x2060...0x2064, 0xFEFF: true  // zero-width space, word joiner, invisible operators, BOM
        default: false
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
