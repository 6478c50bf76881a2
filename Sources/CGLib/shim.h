#ifndef DOSSIER_CGLIB_SHIM_H
#define DOSSIER_CGLIB_SHIM_H

#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include <libintl.h>
#include <locale.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <malloc.h>

/* Macros and variadic functions Clang does not import, as small prefixed helpers. */

static inline GType dossier_g_type_object(void) { return G_TYPE_OBJECT; }

static inline GObject *dossier_g_object(gpointer instance) { return G_OBJECT(instance); }

static inline gboolean dossier_g_is_object(gpointer instance) { return G_IS_OBJECT(instance); }

static inline gulong dossier_g_signal_connect_data(gpointer instance, const gchar *signal,
                                                   GCallback handler, gpointer data,
                                                   GClosureNotify destroy, GConnectFlags flags) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, flags);
}

/* Emits a signal that takes no arguments and returns nothing (e.g. "clicked"). */
static inline void dossier_g_signal_emit_by_name(gpointer instance, const gchar *signal) {
    g_signal_emit_by_name(instance, signal);
}

static inline void dossier_g_object_add_weak_pointer(gpointer object, gpointer *location) {
    g_object_add_weak_pointer(G_OBJECT(object), location);
}

static inline void dossier_g_object_remove_weak_pointer(gpointer object, gpointer *location) {
    g_object_remove_weak_pointer(G_OBJECT(object), location);
}

static inline GAppInfo *dossier_g_app_info(gpointer object) { return G_APP_INFO(object); }

static inline GDesktopAppInfo *dossier_g_desktop_app_info(gpointer object) {
    return G_IS_DESKTOP_APP_INFO(object) ? G_DESKTOP_APP_INFO(object) : NULL;
}

static inline GThemedIcon *dossier_g_themed_icon(gpointer object) {
    return G_IS_THEMED_ICON(object) ? G_THEMED_ICON(object) : NULL;
}

/* libdispatch's main-queue hooks (the ones CoreFoundation uses): the main queue is an
   eventfd that becomes readable when work is queued for the main thread. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

#endif
