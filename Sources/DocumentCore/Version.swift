/// Dossier's version, as `dossier --version` prints it and the thumbnail fail folder names it.
public let dossierVersion = "0.1.0"

/// The application ID, also the D-Bus name and the desktop file's base name.
public let dossierApplicationID = "io.github.dossier.Dossier"
