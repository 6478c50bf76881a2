// What an app needs with DocumentUI: `Widget`, `WindowWidget` and `Icon` (the types of the public API)
// and, for an app that also calls GTK itself, the casts and signal helpers of GtkSupport.
@_exported import GtkSupport
