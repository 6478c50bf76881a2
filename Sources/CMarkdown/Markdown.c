/* The cmark_* functions the decoder worker calls, forwarded to cmark-gfm opened with dlopen().
   They are hidden: Dossier's own calls reach them, and no library in the process can mistake
   them for cmark-gfm's. */
#include <dlfcn.h>
#include <glib.h>

#pragma GCC visibility push(hidden)
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#pragma GCC visibility pop
#include <cmark-gfm_version.h>

#include "CMarkdown.h"
#include "CLoader.h"

static void *markdown_library;
static char *markdown_error;

/* The library's file is named after its version, which the headers built against give: the
   same source builds against each suite's cmark-gfm. The extensions' library brings the core
   library in (it links it), and dlsym on it finds both libraries' functions. */
static gpointer markdown_open(gpointer unused) {
    (void)unused;
    markdown_library = dossier_library_open("DOSSIER_MARKDOWN_LIBRARY", "libcmark-gfm-extensions.so." CMARK_GFM_VERSION_STRING,
                                            "", NULL, 0, NULL, &markdown_error);
    return markdown_library;
}

gboolean dossier_markdown_load(char **error) {
    static GOnce once = G_ONCE_INIT;
    gboolean ready = g_once(&once, markdown_open, NULL) != NULL;
    if (!ready && error != NULL) *error = g_strdup(markdown_error);
    return ready;
}

/* The library's function `name`, found once. Only called after dossier_markdown_load()
   succeeded; a symbol missing from it ends the process with a message rather than jumping to
   NULL. */
static void *markdown_symbol(const char *name) {
    void *address = markdown_library ? dlsym(markdown_library, name) : NULL;
    if (address == NULL) g_error("cmark-gfm has no %s (dossier_markdown_load() first)", name);
    return address;
}

#define FORWARD(result, name, parameters, arguments)                          \
    result name parameters {                                                  \
        static __typeof__(&name) function;                                    \
        __typeof__(&name) found = __atomic_load_n(&function, __ATOMIC_ACQUIRE); \
        if (found == NULL) {                                                  \
            found = (__typeof__(&name))markdown_symbol(#name);                \
            __atomic_store_n(&function, found, __ATOMIC_RELEASE);             \
        }                                                                     \
        return found arguments;                                               \
    }

FORWARD(void, cmark_gfm_core_extensions_ensure_registered, (void), ())
FORWARD(cmark_syntax_extension *, cmark_find_syntax_extension, (const char *name), (name))
FORWARD(cmark_parser *, cmark_parser_new, (int options), (options))
FORWARD(int, cmark_parser_attach_syntax_extension, (cmark_parser *parser, cmark_syntax_extension *extension),
        (parser, extension))
FORWARD(void, cmark_parser_feed, (cmark_parser *parser, const char *buffer, size_t length), (parser, buffer, length))
FORWARD(cmark_node *, cmark_parser_finish, (cmark_parser *parser), (parser))
FORWARD(void, cmark_parser_free, (cmark_parser *parser), (parser))
FORWARD(void, cmark_node_free, (cmark_node *node), (node))
FORWARD(cmark_node *, cmark_node_first_child, (cmark_node *node), (node))
FORWARD(cmark_node *, cmark_node_next, (cmark_node *node), (node))
FORWARD(cmark_node_type, cmark_node_get_type, (cmark_node *node), (node))
FORWARD(const char *, cmark_node_get_type_string, (cmark_node *node), (node))
FORWARD(const char *, cmark_node_get_literal, (cmark_node *node), (node))
FORWARD(int, cmark_node_get_heading_level, (cmark_node *node), (node))
FORWARD(cmark_list_type, cmark_node_get_list_type, (cmark_node *node), (node))
FORWARD(int, cmark_node_get_list_start, (cmark_node *node), (node))
FORWARD(int, cmark_node_get_list_tight, (cmark_node *node), (node))
FORWARD(const char *, cmark_node_get_fence_info, (cmark_node *node), (node))
FORWARD(const char *, cmark_node_get_url, (cmark_node *node), (node))
FORWARD(const char *, cmark_node_get_title, (cmark_node *node), (node))
FORWARD(cmark_iter *, cmark_iter_new, (cmark_node *root), (root))
FORWARD(cmark_event_type, cmark_iter_next, (cmark_iter *iter), (iter))
FORWARD(cmark_node *, cmark_iter_get_node, (cmark_iter *iter), (iter))
FORWARD(void, cmark_iter_free, (cmark_iter *iter), (iter))
FORWARD(uint16_t, cmark_gfm_extensions_get_table_columns, (cmark_node *node), (node))
FORWARD(uint8_t *, cmark_gfm_extensions_get_table_alignments, (cmark_node *node), (node))
FORWARD(int, cmark_gfm_extensions_get_table_row_is_header, (cmark_node *node), (node))
FORWARD(bool, cmark_gfm_extensions_get_tasklist_item_checked, (cmark_node *node), (node))
