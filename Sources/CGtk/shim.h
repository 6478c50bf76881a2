#ifndef DOSSIER_CGTK_SHIM_H
#define DOSSIER_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <gtk/gtkunixprint.h>
#include <adwaita.h>
#include <gdk/x11/gdkx.h>
#include <gdk/wayland/gdkwayland.h>
#include <gtksourceview/gtksource.h>
#include "compat.h"

static inline GtkWidget *dossier_gtk_widget(gpointer instance) { return GTK_WIDGET(instance); }
static inline GtkWindow *dossier_gtk_window(gpointer instance) { return GTK_WINDOW(instance); }

/* gtk_accessible_update_property is variadic: one helper per property used. */
static inline void dossier_gtk_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void dossier_gtk_accessible_set_description(GtkWidget *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

/* g_object_set for one property of each kind (g_object_set is variadic). */
static inline void dossier_set_bool(gpointer object, const char *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}
static inline void dossier_set_string(gpointer object, const char *name, const char *value) {
    g_object_set(object, name, value, NULL);
}

/* Puts a file on the clipboard the way file managers exchange them (a GdkFileList). */
static inline void dossier_clipboard_set_file(GdkClipboard *clipboard, GFile *file) {
    GSList *files = g_slist_prepend(NULL, file);
    GdkFileList *list = gdk_file_list_new_from_list(files);
    g_slist_free(files);
    gdk_clipboard_set(clipboard, GDK_TYPE_FILE_LIST, list);
    g_boxed_free(GDK_TYPE_FILE_LIST, list);
}

/* A status page that screen readers see as a named group (its default role is generic,
   which AT-SPI does not name). */
static inline GtkWidget *dossier_status_page_new(void) {
    return GTK_WIDGET(g_object_new(ADW_TYPE_STATUS_PAGE, "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP, NULL));
}

/* True when OpenGL could only be drawn in software here (Mesa's llvmpipe): the machine has no
   GPU render node, or the X server has no direct rendering (Xvfb, Xvnc: no DRI2, DRI3 or
   NVIDIA's GLX), so GLX falls back to software. Asked before GTK opens its display: one short
   extra X connection. Wayland with a render node counts as hardware. */
static inline gboolean dossier_gl_is_software(void) {
    gboolean render_node = FALSE;
    GDir *devices = g_dir_open("/dev/dri", 0, NULL);
    if (devices != NULL) {
        const char *name;
        while (!render_node && (name = g_dir_read_name(devices)) != NULL) render_node = g_str_has_prefix(name, "renderD");
        g_dir_close(devices);
    }
    if (!render_node) return TRUE;
    const char *backend = g_getenv("GDK_BACKEND");
    gboolean x11 = backend != NULL ? g_str_has_prefix(backend, "x11") : g_getenv("WAYLAND_DISPLAY") == NULL;
    if (!x11 || g_getenv("DISPLAY") == NULL) return FALSE;
    Display *display = XOpenDisplay(NULL);
    if (display == NULL) return FALSE;
    int opcode, event, error;
    gboolean direct = XQueryExtension(display, "DRI3", &opcode, &event, &error)
        || XQueryExtension(display, "DRI2", &opcode, &event, &error)
        || XQueryExtension(display, "NV-GLX", &opcode, &event, &error);
    XCloseDisplay(display);
    return !direct;
}

/* Makes a toplevel transient for another program's window, named by a window handle as
   xdg-desktop-portal writes them ("x11:<hex XID>" or "wayland:<exported handle>"), so the
   window manager keeps it above that window. Returns FALSE for an unknown or empty handle. */
static inline gboolean dossier_set_transient_for_handle(GtkWidget *window, const char *handle) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || handle == NULL) return FALSE;
    if (g_str_has_prefix(handle, "x11:") && GDK_IS_X11_SURFACE(surface)) {
        unsigned long parent = strtoul(handle + 4, NULL, 16);
        if (parent == 0) return FALSE;
        Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
        XSetTransientForHint(display, gdk_x11_surface_get_xid(surface), parent);
        return TRUE;
    }
    if (g_str_has_prefix(handle, "wayland:") && GDK_IS_WAYLAND_TOPLEVEL(surface)) {
        return gdk_wayland_toplevel_set_transient_for_exported(GDK_TOPLEVEL(surface), (char *)handle + 8);
    }
    return FALSE;
}

/* Where a widget is on the screen, in logical pixels: its bounds in its window plus the
   window's position (X11 only: XTranslateCoordinates on the window's surface; Wayland does
   not tell a client where its windows are). Returns FALSE when unknown. */
static inline gboolean dossier_widget_screen_bounds(GtkWidget *widget, double *x, double *y, double *width,
                                                    double *height) {
    GtkNative *native = gtk_widget_get_native(widget);
    if (native == NULL || !gtk_widget_get_mapped(widget)) return FALSE;
    graphene_rect_t bounds;
    if (!gtk_widget_compute_bounds(widget, GTK_WIDGET(native), &bounds)) return FALSE;
    GdkSurface *surface = gtk_native_get_surface(native);
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface)) return FALSE;
    double offsetX = 0, offsetY = 0;
    gtk_native_get_surface_transform(native, &offsetX, &offsetY);
    Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    Window child;
    int screenX = 0, screenY = 0;
    if (!XTranslateCoordinates(display, gdk_x11_surface_get_xid(surface), DefaultRootWindow(display), 0, 0,
                               &screenX, &screenY, &child)) return FALSE;
    int scale = gdk_surface_get_scale_factor(surface);
    *x = screenX / (double)scale + offsetX + bounds.origin.x;
    *y = screenY / (double)scale + offsetY + bounds.origin.y;
    *width = bounds.size.width;
    *height = bounds.size.height;
    return TRUE;
}

/* A widget's bounds relative to another widget (gtk_widget_compute_bounds without graphene
   in Swift). */
static inline gboolean dossier_widget_bounds(GtkWidget *widget, GtkWidget *target, double *x, double *y,
                                             double *width, double *height) {
    graphene_rect_t bounds;
    if (!gtk_widget_compute_bounds(widget, target, &bounds)) return FALSE;
    *x = bounds.origin.x; *y = bounds.origin.y; *width = bounds.size.width; *height = bounds.size.height;
    return TRUE;
}

/* Places a child of a GtkFixed at (x, y) scaled by (scaleX, scaleY), without a relayout. */
static inline void dossier_fixed_place(GtkFixed *fixed, GtkWidget *child, double x, double y, double scaleX,
                                       double scaleY) {
    graphene_point_t point = GRAPHENE_POINT_INIT((float)x, (float)y);
    GskTransform *transform = gsk_transform_translate(NULL, &point);
    transform = gsk_transform_scale(transform, (float)scaleX, (float)scaleY);
    gtk_fixed_set_child_transform(fixed, child, transform);
    gsk_transform_unref(transform);
}

/* The user's "animations" setting (off in GNOME Settings > Accessibility > Reduce Animation). */
static inline gboolean dossier_animations_enabled(GtkWidget *widget) {
    gboolean enabled = TRUE;
    g_object_get(gtk_widget_get_settings(widget), "gtk-enable-animations", &enabled, NULL);
    return enabled;
}

/* Turns the "animations" setting on or off for this process (tests of the reduced-motion path). */
static inline void dossier_set_animations_enabled(gboolean enabled) {
    g_object_set(gtk_settings_get_default(), "gtk-enable-animations", enabled, NULL);
}

/* A GVariant holding a string, for action targets (g_variant_new is variadic). */
static inline GVariant *dossier_variant_string(const char *text) { return g_variant_new_string(text); }

/* Type macros Clang does not import. */
static inline GType dossier_gtk_type_object(void) { return G_TYPE_OBJECT; }
static inline GType dossier_gtk_type_list_model(void) { return G_TYPE_LIST_MODEL; }

/* A box that screen readers see as a named group (a plain box is generic, which AT-SPI does
   not name): the top widget of a renderer made of several parts. */
static inline GtkWidget *dossier_group_box_new(GtkOrientation orientation, int spacing) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_BOX, "orientation", orientation, "spacing", spacing,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP, NULL));
}

/* Adds style sheet rules for the whole display (the renderers' few custom classes). */
static inline void dossier_add_css(const char *css) {
    GtkCssProvider *provider = gtk_css_provider_new();
    gtk_css_provider_load_from_data(provider, css, -1);
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(provider),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(provider);
}

/* Pops up a GtkPopoverMenu and sizes it again once GTK 4.8 has put in its section separators.
   GtkMenuSectionBox adds them from a G_PRIORITY_DEFAULT idle (gtk_menu_section_box_schedule_
   separator_sync), so gtk_popover_popup right after gtk_popover_menu_new_from_model measures the
   menu without them (13 px each) and the popup surface keeps that size: the grown menu then
   scrolls inside it. A G_PRIORITY_HIGH_IDLE source runs after that idle and before the first
   frame is drawn (GDK_PRIORITY_REDRAW), so presenting again there shows the whole menu at once. */
static inline gboolean dossier_popover_menu_represent(gpointer popover) {
    if (gtk_widget_get_visible(GTK_WIDGET(popover))) gtk_popover_present(GTK_POPOVER(popover));
    return G_SOURCE_REMOVE;
}
static inline void dossier_popover_menu_popup(GtkPopover *popover) {
    gtk_popover_popup(popover);
    g_idle_add_full(G_PRIORITY_HIGH_IDLE, dossier_popover_menu_represent, g_object_ref(popover), g_object_unref);
}

/* Lets go of a GtkSourceView that may have shown line numbers; takes over the caller's
   reference, and takes the view out of its parent if it still has one. The view's gutter
   keeps, from one drawing to the next, a GtkSourceGutterLines that holds a reference to the
   view, so a view that drew its gutter once is never finalized when its parent lets it go:
   every text preview would stay, with its buffer and laid-out lines. That holds in
   GtkSourceView 5.6 (Debian 12) to 5.20 (upstream clears the lines at the gutter's dispose
   from 5.21, which still needs a dispose). Removing the gutters' renderers first (as
   gtk_source_gutter_remove does, unparented) and then disposing the view breaks the cycle
   with no warning about children left. */
static inline void dossier_source_view_release(GtkWidget *view) {
    GtkWidget *parent = gtk_widget_get_parent(view);
    if (GTK_IS_SCROLLED_WINDOW(parent)) {
        gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(parent), NULL);
    } else if (parent != NULL) {
        gtk_widget_unparent(view);
    }
    /* Only the left gutter has renderers in Dossier (asking for the right one would make one). */
    GtkSourceGutter *gutter = gtk_source_view_get_gutter(GTK_SOURCE_VIEW(view), GTK_TEXT_WINDOW_LEFT);
    GtkWidget *renderer;
    while ((renderer = gtk_widget_get_first_child(GTK_WIDGET(gutter))) != NULL && GTK_SOURCE_IS_GUTTER_RENDERER(renderer)) {
        gtk_source_gutter_remove(gutter, GTK_SOURCE_GUTTER_RENDERER(renderer));
    }
    g_object_run_dispose(G_OBJECT(view));
    g_object_unref(view);
}

#endif