import DocumentUI
import Foundation

extension FuzzTarget {
    /// `state.ini` as Dossier reads it before its first window; what reads writes back the same.
    static let windowState = FuzzTarget("state-ini", "the window state keyfile (BrowserState(keyfile:))") { data in
        let state = BrowserState(keyfile: data)
        let again = BrowserState(keyfile: Data(state.keyfileText.utf8))
        expect(again == state, "the window state does not read back the same after writing it: \(state) → \(again)")
    }
}
