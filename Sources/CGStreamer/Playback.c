#include "CGStreamer.h"

#include "CLoader.h"

/* GStreamer for GtkMediaFile's playback, in the previewer's process: GTK 4.8's media module
   links libgstplayer-1.0 (with libgstpbutils, libgstvideo, libgstaudio… under it); loading that
   here, off the main thread, leaves GTK little to load when the page makes its stream. GTK 4.14
   and later drive playbin without it, and Debian 13 and testing do not install it: there
   libgstpbutils (gst-plugins-base, which playback needs anyway) brings GStreamer's core. Nothing
   of the discoverer is called here: what a file holds is found in the decoder worker. */
static struct {
    gboolean (*init_check)(int *, char ***, GError **);
} core;

static const char *const core_symbols[] = {"init_check"};
G_STATIC_ASSERT(sizeof core == G_N_ELEMENTS(core_symbols) * sizeof(void (*)(void)));

static char *core_error;
static gint core_loaded;

static gpointer core_open(gpointer unused) {
    (void)unused;
    /* Only probed: a library named by the override (the tests' missing one) is what counts. */
    gboolean player = g_getenv("DOSSIER_GSTREAMER_LIBRARY") == NULL && dossier_library_exists("libgstplayer-1.0.so.0");
    void *library = dossier_library_open("DOSSIER_GSTREAMER_LIBRARY", player ? "libgstplayer-1.0.so.0" : "libgstpbutils-1.0.so.0", "gst_", core_symbols,
                                         G_N_ELEMENTS(core_symbols), (void (**)(void))&core, &core_error);
    if (library == NULL) return NULL;
    GError *error = NULL;
    if (!core.init_check(NULL, NULL, &error)) {
        core_error = g_strdup(error ? error->message : "gst_init_check failed");
        g_clear_error(&error);
        return NULL;
    }
    g_atomic_int_set(&core_loaded, 1);
    return library;
}

gboolean dossier_gstreamer_load(char **error) {
    static GOnce once = G_ONCE_INIT;
    if (g_once(&once, core_open, NULL) != NULL) return TRUE;
    if (error) *error = g_strdup(core_error);
    return FALSE;
}

gboolean dossier_gstreamer_is_loaded(void) {
    return g_atomic_int_get(&core_loaded);
}
