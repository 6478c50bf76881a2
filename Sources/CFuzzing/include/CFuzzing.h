#ifndef DOSSIER_CFUZZING_H
#define DOSSIER_CFUZZING_H

/* What the fuzz targets (Sources/DossierFuzz) need from C: libFuzzer's driver, and a way to
   point GLib's per-user folders elsewhere while the process runs. */

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry point for a program with a main of its own (LLVM 12 and later): parses
   libFuzzer's options from argv and runs `callback` on every input. Linked only with
   `-sanitize=fuzzer`; a plain build must not call it. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/* Points one of GLib's user folders (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`, …) at `path`, or
   the system data or config folders (`XDG_DATA_DIRS`, `XDG_CONFIG_DIRS`) at `path` alone.
   GLib reads these once per process; this is g_set_user_dirs(), which GLib exports for its
   own tests (GIO's desktop app info reloads everything when the config folder changes). */
void dossier_fuzz_set_user_dir(const char *variable, const char *path);

#endif
