/// What a test file carries in its first 512 bytes to make the test decoder misbehave instead of
/// decoding it: this marker, a misbehaviour's name (`test.crash`), its options as `key=value`
/// words, and a newline. The test decoder's `Misbehaviours.marker` is the same.
public let misbehaviourMarker = "DOSSIER-TEST-MISBEHAVIOUR "
