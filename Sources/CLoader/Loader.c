/* Libraries opened on first use: see CLoader.h. */
#define _GNU_SOURCE /* dladdr */
#include "CLoader.h"

#include <dlfcn.h>
#include <gmodule.h>
#include <string.h>

/* `name` in the folder of the GLib this process runs with, when it is there (a library of the
   system: WebKitGTK, GStreamer… sit beside GLib); otherwise NULL. */
static char *beside_glib(const char *name) {
    Dl_info info;
    if (strchr(name, G_DIR_SEPARATOR) != NULL || dladdr((void *)g_module_open, &info) == 0 || info.dli_fname == NULL) {
        return NULL;
    }
    char *folder = g_path_get_dirname(info.dli_fname);
    char *path = g_build_filename(folder, name, NULL);
    g_free(folder);
    if (g_path_is_absolute(path) && g_file_test(path, G_FILE_TEST_IS_REGULAR)) return path;
    g_free(path);
    return NULL;
}

/* Loads `path` through GModule, whose lock it takes before the dynamic loader's, as every
   GModule lookup does. A plain dlopen() on another thread takes them the other way round and
   can deadlock: WebKitGTK brings libsoup, whose constructor opens a GModule while dlopen()
   holds the loader's lock, while the main thread looks up a symbol for GtkBuilder (holding
   GModule's lock, waiting for the loader's). The path is absolute: GModule would otherwise
   look in the current folder first. The library stays loaded. */
static gboolean load_module(const char *path, char **error) {
    GModule *module = g_module_open(path, G_MODULE_BIND_LOCAL);
    if (module == NULL) {
        *error = g_strdup(g_module_error());
        return FALSE;
    }
    g_module_make_resident(module);
    return TRUE;
}

gboolean dossier_library_exists(const char *name) {
    char *path = beside_glib(name);
    gboolean found = path != NULL;
    g_free(path);
    return found;
}

void *dossier_library_open(const char *override, const char *name, const char *prefix, const char *const *symbols,
                           gsize count, void (**slots)(void), char **error) {
    const char *chosen = g_getenv(override);
    if (chosen == NULL || *chosen == '\0') chosen = name;
    char *path = g_path_is_absolute(chosen) ? g_strdup(chosen) : beside_glib(chosen);
    if (path != NULL && !load_module(path, error)) {
        g_free(path);
        return NULL;
    }
    /* Once loaded, a handle of its own for dlsym (callers look up more symbols later); nothing
       of the library runs again. */
    void *library = dlopen(path != NULL ? path : chosen, RTLD_NOW | RTLD_LOCAL);
    g_free(path);
    if (library == NULL) {
        const char *reason = dlerror();
        *error = g_strdup(reason ? reason : chosen);
        return NULL;
    }
    for (gsize i = 0; i < count; i++) {
        char *symbol = g_strconcat(prefix, symbols[i], NULL);
        void *address = dlsym(library, symbol);
        if (address == NULL) {
            *error = g_strdup_printf("%s has no %s", chosen, symbol);
            g_free(symbol);
            return NULL;
        }
        memcpy(&slots[i], &address, sizeof address);
        g_free(symbol);
    }
    return library;
}
