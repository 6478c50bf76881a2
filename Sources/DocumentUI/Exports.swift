// What an app needs with DocumentUI: `Widget`, `WindowWidget`, `Icon` and `AppInstance` (the
// types of the public API) and, for an app that also calls GTK itself, GtkSupport's casts and
// signal helpers.
@_exported import GtkSupport
