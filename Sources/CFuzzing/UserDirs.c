#include "CFuzzing.h"

#include <glib.h>

/* GLib 2.60 and later export this for their tests (gutilsprivate.h); it takes pairs of a
   variable name and a value, NULL-terminated, a string list for the *_DIRS variables. */
extern void g_set_user_dirs(const gchar *first_dir_type, ...);

/* LeakSanitizer's interface, present when the program is linked with -sanitize=address. */
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));

void dossier_fuzz_set_user_dir(const char *variable, const char *path) {
    /* g_set_user_dirs keeps the value it replaces (a caller may still hold it): not a leak of
       the code under test, and one per input here. */
    if (__lsan_disable) __lsan_disable();
    if (g_str_has_suffix(variable, "_DIRS")) {
        const gchar *const list[] = {path, NULL};
        g_set_user_dirs(variable, list, NULL);
    } else {
        g_set_user_dirs(variable, path, NULL);
    }
    if (__lsan_enable) __lsan_enable();
}
