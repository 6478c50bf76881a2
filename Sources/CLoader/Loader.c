/* Libraries opened on first use: see CLoader.h. */
#include "CLoader.h"

#include <dlfcn.h>
#include <string.h>

void *dossier_library_open(const char *override, const char *name, const char *prefix, const char *const *symbols,
                           gsize count, void (**slots)(void), char **error) {
    const char *chosen = g_getenv(override);
    if (chosen == NULL || *chosen == '\0') chosen = name;
    void *library = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
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
