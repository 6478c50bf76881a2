/* The floor of the previewer bench (DossierBench's `floor`): the least a libadwaita program
   does before its first frame on this stack. An AdwApplication with one AdwApplicationWindow
   holding a label, nothing else. The bench builds it with the stack's gcc and libadwaita, starts
   it and reads the screen until the label is there, as it times a previewer's cold showing.

   With no argument, GL (and from GTK 4.16 Vulkan) is turned off the way Dossier's previewer
   service turns it off (CGtk's compat.h): GDK_DISABLE=gl,vulkan from GTK 4.16, GDK_DEBUG=gl-disable
   before. With `--gtk-defaults`, GDK probes what it probes by default.

   gcc -O2 -o bench-floor bench-floor.c $(pkg-config --cflags --libs libadwaita-1) */
#include <adwaita.h>
#include <stdlib.h>
#include <string.h>

static void activate(GApplication *application, gpointer data) {
    (void)data;
    GtkWidget *window = adw_application_window_new(GTK_APPLICATION(application));
    /* The size of a previewer's window, and text large enough to tell from a flat colour. */
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    GtkWidget *label = gtk_label_new(NULL);
    gtk_label_set_markup(GTK_LABEL(label), "<span size='xx-large'>A bare libadwaita window</span>");
    adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), label);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--gtk-defaults") != 0) {
#if GTK_CHECK_VERSION(4, 16, 0)
        setenv("GDK_DISABLE", "gl,vulkan", 0);
#else
        setenv("GDK_DEBUG", "gl-disable", 0);
#endif
    }
    /* No unique name: every start is a new process with a window of its own, never a remote
       call to one left running. */
    AdwApplication *application = adw_application_new(NULL, G_APPLICATION_NON_UNIQUE);
    g_signal_connect(application, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(application), 1, argv);
    g_object_unref(application);
    return status;
}
