/* GTK's media modules registered without being loaded at gtk_init: see CDisplay.h. */
#define _GNU_SOURCE  /* dladdr */
#include "CDisplay.h"
#include <dlfcn.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

/* GTK's own media module folder, beside the libgtk-4 this process runs with. */
static char *system_media_folder(void) {
    Dl_info info;
    if (dladdr((void *)gtk_init, &info) == 0 || info.dli_fname == NULL) return NULL;
    char *library_folder = g_path_get_dirname(info.dli_fname);
    char *folder = g_build_filename(library_folder, "gtk-4.0", "4.0.0", "media", NULL);
    g_free(library_folder);
    return folder;
}

/* Whether `folder` holds a link to each of `modules` (in `system`) and a cache that lists
   them, no older than any of them. */
static gboolean is_current(const char *folder, const char *system, GPtrArray *modules, const char *cache_text) {
    char *cache = g_build_filename(folder, "giomodule.cache", NULL);
    GStatBuf cache_stat;
    char *text = NULL;
    gboolean current = g_stat(cache, &cache_stat) == 0 && g_file_get_contents(cache, &text, NULL, NULL) &&
                       strcmp(text, cache_text) == 0;
    for (guint i = 0; current && i < modules->len; i++) {
        char *real = g_build_filename(system, modules->pdata[i], NULL);
        char *link = g_build_filename(folder, modules->pdata[i], NULL);
        char *target = g_file_read_link(link, NULL);
        GStatBuf module_stat;
        current = target != NULL && strcmp(target, real) == 0 && g_stat(real, &module_stat) == 0 &&
                  module_stat.st_ctime <= cache_stat.st_ctime;
        g_free(target);
        g_free(link);
        g_free(real);
    }
    g_free(text);
    g_free(cache);
    return current;
}

char *dossier_lazy_media_modules_path(const char *cache_folder) {
    char *system = system_media_folder();
    GDir *dir = system ? g_dir_open(system, 0, NULL) : NULL;
    if (dir == NULL) {
        g_free(system);
        return NULL;
    }
    GPtrArray *modules = g_ptr_array_new_with_free_func(g_free);
    GString *cache_text = g_string_new(NULL);
    const char *name;
    while ((name = g_dir_read_name(dir)) != NULL) {
        if (!g_str_has_suffix(name, ".so")) continue;
        g_ptr_array_add(modules, g_strdup(name));
        g_string_append_printf(cache_text, "%s: gtk-media-file\n", name);
    }
    g_dir_close(dir);

    char *root = g_build_filename(cache_folder, "gtk-modules", NULL);
    char *folder = g_build_filename(root, "media", NULL);
    gboolean ready = modules->len > 0 && is_current(folder, system, modules, cache_text->str);
    if (!ready && modules->len > 0 && g_mkdir_with_parents(folder, 0700) == 0) {
        ready = TRUE;
        for (guint i = 0; ready && i < modules->len; i++) {
            char *real = g_build_filename(system, modules->pdata[i], NULL);
            char *link = g_build_filename(folder, modules->pdata[i], NULL);
            g_unlink(link);
            ready = symlink(real, link) == 0;
            g_free(link);
            g_free(real);
        }
        /* Written after the links, and replaced whole: a cache older than a module, or half
           written, would make GIO load that module at once, as without any of this. */
        char *cache = g_build_filename(folder, "giomodule.cache", NULL);
        ready = ready && g_file_set_contents(cache, cache_text->str, -1, NULL);
        g_free(cache);
    }
    g_string_free(cache_text, TRUE);
    g_ptr_array_unref(modules);
    g_free(folder);
    g_free(system);
    if (!ready) {
        g_free(root);
        return NULL;
    }
    return root;
}
