/* Keeps cairo-xlib's shared-memory pool between frames: see CDisplay.h. */
#include "CDisplay.h"
#include <gdk/x11/gdkx.h>
#include <cairo-xlib.h>

static cairo_surface_t *kept;
static gboolean scheduled;

gboolean dossier_keep_frame_pool(GdkDisplay *display, int width, int height) {
    if (kept != NULL) return TRUE;
    if (display == NULL || !GDK_IS_X11_DISPLAY(display) || width <= 0 || height <= 0) return FALSE;
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    int screen = DefaultScreen(xdisplay);
    cairo_surface_t *root = cairo_xlib_surface_create(xdisplay, RootWindow(xdisplay, screen), DefaultVisual(xdisplay, screen),
                                                      DisplayWidth(xdisplay, screen), DisplayHeight(xdisplay, screen));
    /* An image the size of a frame makes the pool (cairo sizes one for eight of them) and
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

typedef struct {
    GdkDisplay *display;
    int width, height;
} Request;

static gboolean keep_later(gpointer data) {
    Request *request = data;
    dossier_keep_frame_pool(request->display, request->width, request->height);
    return G_SOURCE_REMOVE;
}

static void free_request(gpointer data) {
    Request *request = data;
    g_object_unref(request->display);
    g_free(request);
}

static void after_first_paint(GdkFrameClock *clock, gpointer data) {
    Request *request = data;
    g_signal_handlers_disconnect_by_func(clock, after_first_paint, data);
    g_idle_add_full(G_PRIORITY_LOW, keep_later, request, free_request);
}

void dossier_keep_frame_pool_after_paint(GtkWidget *window) {
    if (scheduled || kept != NULL) return;
    GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
    if (clock == NULL) return;  /* not realized: the next window shown tries again */
    scheduled = TRUE;
    Request *request = g_new0(Request, 1);
    request->display = g_object_ref(gtk_widget_get_display(window));
    /* The frames of the window as it is (in device pixels); larger ones still fit the pool. */
    int scale = gtk_widget_get_scale_factor(window);
    int width = gtk_widget_get_width(window), height = gtk_widget_get_height(window);
    if (width <= 0 || height <= 0) gtk_window_get_default_size(GTK_WINDOW(window), &width, &height);
    request->width = width * scale;
    request->height = height * scale;
    g_signal_connect(clock, "after-paint", G_CALLBACK(after_first_paint), request);
}
