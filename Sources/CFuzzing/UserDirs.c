#define _GNU_SOURCE
#include "CFuzzing.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>

/* GLib 2.60 to 2.8x export g_set_user_dirs for their own tests (gutilsprivate.h); it takes
   pairs of a variable name and a value, NULL-terminated, a string list for the *_DIRS
   variables. Newer GLib (Debian testing's 2.90) no longer exports it, so it is looked up when
   first needed: the package links on every suite, and a fuzz target that needs it says so
   where it is missing (make fuzz runs on Debian 12). */
typedef void (*SetUserDirs)(const gchar *first_dir_type, ...);

static SetUserDirs set_user_dirs(void) {
    static SetUserDirs function;
    if (!function) function = (SetUserDirs)dlsym(RTLD_DEFAULT, "g_set_user_dirs");
    if (!function) {
        fprintf(stderr, "DossierFuzz: this GLib (%u.%u) does not export g_set_user_dirs, which the "
                        "targets reading XDG folders need\n", glib_major_version, glib_minor_version);
        abort();
    }
    return function;
}

/* LeakSanitizer's interface, present when the program is linked with -sanitize=address. */
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));

void dossier_fuzz_set_user_dir(const char *variable, const char *path) {
    SetUserDirs set = set_user_dirs();
    /* g_set_user_dirs keeps the value it replaces (a caller may still hold it): not a leak of
       the code under test, and one per input here. */
    if (__lsan_disable) __lsan_disable();
    if (g_str_has_suffix(variable, "_DIRS")) {
        const gchar *const list[] = {path, NULL};
        set(variable, list, NULL);
    } else {
        set(variable, path, NULL);
    }
    if (__lsan_enable) __lsan_enable();
}
