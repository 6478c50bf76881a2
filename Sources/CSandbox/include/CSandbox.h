#ifndef DOSSIER_CSANDBOX_H
#define DOSSIER_CSANDBOX_H

/* The decoder worker's confinement and its wire (see DocumentCore/Formats/Worker).

   A worker locks itself down after it has loaded what it needs and before it reads any input:
   resource limits, then a seccomp filter (libseccomp) on every thread. The filter cannot be
   given to bubblewrap: it denies execve, which bubblewrap needs to start the worker. The
   same lock-down is all the confinement a worker has where bubblewrap cannot run. */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Sets RLIMIT_AS to address_space bytes, RLIMIT_CPU's hard limit to cpu_seconds, RLIMIT_FSIZE
   to largest_file bytes (memfds count: never 0) and RLIMIT_CORE to 0; then loads a filter that
   lets everything through but: sockets other than AF_UNIX, connect, bind, listen, accept;
   open and openat for writing, creating or truncating, openat2 and creat; changing files by
   name or through an fd (unlink, rename, mkdir, link, symlink, chmod, chown, truncate,
   utimes, xattrs); execve and execveat; ptrace and reading or writing other processes'
   memory; signals to other processes; new namespaces, mounts and the kernel interfaces
   Flatpak and glycin deny (keyrings, perf, bpf, TIOCSTI...). Returns 0, or -1 with errno set
   (nothing is half loaded: limits may be set, the filter is all or nothing). */
int dossier_worker_lock_down(uint64_t address_space, uint32_t cpu_seconds, uint64_t largest_file);

/* Sets the soft CPU limit to the CPU time used so far plus budget_seconds (a request's budget),
   within the hard limit. Returns 0, or -1 when the worker's lifetime budget is spent. */
int dossier_worker_cpu_budget(uint32_t budget_seconds);

/* Lowers the worker's CPU priority to `nice` (1-19) where the kernel decides it: its threads'
   nice value, and its scheduling group's. A worker has a session of its own, and where the
   kernel groups processes by session (autogroup) the groups share the CPU by their own nice
   values, whatever their threads' are. The group's is changed through /proc/self/autogroup, and
   the kernel takes one such change a tenth of a second machine-wide (EAGAIN otherwise): the
   return is then the file, open, for dossier_worker_retry_group_priority; else -1 (done, or
   nothing to do: no autogroup). Before the lock-down, which denies opening a file to write. */
int dossier_worker_lower_priority(int nice);

/* Tries the group's priority again on `group` (from dossier_worker_lower_priority). Returns
   -1 once it is done or cannot be (the file is closed then), else `group` to try later. */
int dossier_worker_retry_group_priority(int group, int nice);

/* The calling process's nice value and its scheduling group's (-100 where there is none).
   Returns 0, or -1 with errno set. */
int dossier_worker_priority(int *nice, int *group_nice);

/* Spawns argv (argv[0] a path) with envp in a new session: socket_fd becomes its fd 3, every
   other fd from 3 up is closed in the child. Returns the pid, or -1 with errno set. */
pid_t dossier_worker_spawn(char *const argv[], char *const envp[], int socket_fd);

/* The path of the loaded object (the program or a shared library) that defines `symbol`, as
   the loader found it; NULL when no object exports it. */
const char *dossier_object_defining(const char *symbol);

/* One packet on a SOCK_SEQPACKET socket, with at most one fd attached (fd < 0: none).
   Returns the bytes sent, or -1 with errno set. Retries on EINTR. */
ssize_t dossier_packet_send(int socket_fd, const void *bytes, size_t length, int fd);

/* Receives one packet of at most capacity bytes and the fd attached to it (*fd = -1 when
   none; received fds are close-on-exec). Returns its length, 0 at the end of the stream, or
   -1 with errno set (EMSGSIZE when the packet was longer than capacity). Retries on EINTR. */
ssize_t dossier_packet_receive(int socket_fd, void *bytes, size_t capacity, int *fd);

/* Waits until socket_fd has a packet or its peer is gone, at most timeout_ms. Returns 1 when
   it can be read, 0 at the timeout, -1 on an error. */
int dossier_packet_wait(int socket_fd, int timeout_ms);

/* A memfd that can be sealed, of length bytes. Returns the fd or -1. */
int dossier_memfd_create(const char *name, uint64_t length);

/* Seals a memfd against any change (shrink, grow, write, more seals). Returns 0 or -1. */
int dossier_memfd_seal(int fd);

/* True when fd is a memfd sealed against shrinking, growing and writing. */
int dossier_memfd_is_sealed(int fd);

#endif
