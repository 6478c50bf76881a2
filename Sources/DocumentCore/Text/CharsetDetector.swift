import CUchardet
import Foundation

/// Guesses the charset of bytes that are neither marked nor UTF-8, with uchardet.
///
/// Why uchardet and not ICU's `ucsdet`: uchardet is what GNOME-era applications and Mozilla
/// use (it is Mozilla's universal charset detector, as a library), it is small and has a plain
/// C API that has not changed since 0.0.7 (Debian 12). ICU's C API is not a stable ABI on
/// Debian: every symbol carries the ICU version (`ucsdet_open_72`), so a module map over it
/// would have to follow each suite's ICU.
enum CharsetDetector {
    /// The most bytes the detector looks at: enough for any sure guess, and a bound on the
    /// time a hostile or huge file can take.
    static let limit = 64 << 10

    /// uchardet's answer for the first `limit` bytes ("GB18030", "SHIFT_JIS", "WINDOWS-1252"…),
    /// or nil when it has none.
    static func guess(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard let detector = uchardet_new() else { return nil }
        defer { uchardet_delete(detector) }
        let count = min(bytes.count, limit)
        guard count > 0, let start = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
        guard uchardet_handle_data(detector, start, count) == 0 else { return nil }
        uchardet_data_end(detector)
        guard let answer = uchardet_get_charset(detector) else { return nil }
        let charset = String(cString: answer)
        return charset.isEmpty ? nil : charset
    }
}
