/* Keeps cairo-xlib's shared-memory pool between frames: see CDisplay.h. */
#include "CDisplay.h"
#include <gdk/x11/gdkx.h>
#include <cairo-xlib.h>

static cairo_surface_t *kept;
static gboolean scheduled;

gboolean dossier_keep_frame_pool(GdkDisplay *display) {
    if (kept != NULL) return TRUE;
    if (display == NULL || !GDK_IS_X11_DISPLAY(display)) return FALSE;
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    int screen = DefaultScreen(xdisplay);
    int width = DisplayWidth(xdisplay, screen), height = DisplayHeight(xdisplay, screen);
    cairo_surface_t *root = cairo_xlib_surface_create(xdisplay, RootWindow(xdisplay, screen),
                                                      DefaultVisual(xdisplay, screen), width, height);
    /* An image as large as the screen makes the pool (cairo sizes one for eight of them) and
       touches its pages; a small image taken from the same pool then keeps it alive. Without
       shared memory both are plain images, and nothing is kept. */
    cairo_surface_t *frame = cairo_surface_create_similar_image(root, CAIRO_FORMAT_ARGB32, width, height);
    cairo_surface_t *small = cairo_surface_create_similar_image(root, CAIRO_FORMAT_ARGB32, 32, 32);
    cairo_surface_destroy(frame);
    cairo_surface_destroy(root);
    if (cairo_surface_status(small) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(small);
        return FALSE;
    }
    kept = small;
    return TRUE;
}

static gboolean keep_when_idle(gpointer display) {
    dossier_keep_frame_pool(display);
    return G_SOURCE_REMOVE;
}

static void after_first_paint(GdkFrameClock *clock, gpointer display) {
    g_signal_handlers_disconnect_by_func(clock, after_first_paint, display);
    g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, keep_when_idle, g_object_ref(display), g_object_unref);
}

void dossier_keep_frame_pool_after_paint(GtkWidget *window) {
    if (scheduled || kept != NULL) return;
    GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
    if (clock == NULL) return;  /* not realized: the next window shown tries again */
    scheduled = TRUE;
    g_signal_connect(clock, "after-paint", G_CALLBACK(after_first_paint), gtk_widget_get_display(window));
}
