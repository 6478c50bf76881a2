#define _GNU_SOURCE
#include "CSandbox.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

extern char **environ;

static int set_limit(int resource, rlim_t soft, rlim_t hard) {
    struct rlimit limit = { .rlim_cur = soft, .rlim_max = hard };
    return setrlimit(resource, &limit);
}

/* Each rule is added on its own: the conditions of one rule are ANDed. A rule fails only for a
   syscall this kernel or architecture lacks (-EFAULT, -EDOM), which is then no risk. */
#define DENY(call, ...) \
    do { \
        int result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(call), __VA_ARGS__); \
        if (result < 0 && result != -EFAULT && result != -EDOM) goto fail; \
    } while (0)
#define MISSING(call) \
    do { \
        int result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(call), 0); \
        if (result < 0 && result != -EFAULT && result != -EDOM) goto fail; \
    } while (0)

static const int writing_flags[] = { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, __O_TMPFILE };

int dossier_worker_lock_down(uint64_t address_space, uint32_t cpu_seconds, uint64_t largest_file) {
    if (set_limit(RLIMIT_AS, address_space, address_space) != 0
        || set_limit(RLIMIT_CPU, cpu_seconds, cpu_seconds) != 0
        || set_limit(RLIMIT_FSIZE, largest_file, largest_file) != 0
        || set_limit(RLIMIT_CORE, 0, 0) != 0)
        return -1;

    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (filter == NULL) { errno = ENOMEM; return -1; }
    /* Threads that exist already (GLib's, the Swift runtime's) get the filter too. */
    if (seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1) != 0) goto fail;

    /* The network: only the socketpair the worker was given (and AF_UNIX ones like it). */
    DENY(socket, 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX));
    DENY(connect, 0);
    DENY(bind, 0);
    DENY(listen, 0);
    DENY(accept, 0);
    DENY(accept4, 0);

    /* Files: read only. */
    for (size_t i = 0; i < sizeof writing_flags / sizeof *writing_flags; i++) {
        int flag = writing_flags[i];
        DENY(open, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, flag == O_WRONLY || flag == O_RDWR ? O_ACCMODE : flag, flag));
        DENY(openat, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, flag == O_WRONLY || flag == O_RDWR ? O_ACCMODE : flag, flag));
    }
    MISSING(openat2);  /* its flags are behind a pointer; glibc falls back to openat */
    DENY(creat, 0);
    static const int changing[] = {
        SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2),
        SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(rmdir), SCMP_SYS(mknod), SCMP_SYS(mknodat),
        SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(symlink), SCMP_SYS(symlinkat),
        SCMP_SYS(chmod), SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(chown), SCMP_SYS(fchown),
        SCMP_SYS(lchown), SCMP_SYS(fchownat), SCMP_SYS(truncate), SCMP_SYS(utime), SCMP_SYS(utimes),
        SCMP_SYS(utimensat), SCMP_SYS(futimesat), SCMP_SYS(setxattr), SCMP_SYS(lsetxattr),
        SCMP_SYS(fsetxattr), SCMP_SYS(removexattr), SCMP_SYS(lremovexattr), SCMP_SYS(fremovexattr),
        SCMP_SYS(name_to_handle_at), SCMP_SYS(open_by_handle_at),
    };
    for (size_t i = 0; i < sizeof changing / sizeof *changing; i++) {
        int result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), changing[i], 0);
        if (result < 0 && result != -EFAULT && result != -EDOM) goto fail;
    }

    /* Other programs and processes. */
    DENY(execve, 0);
    DENY(execveat, 0);
    DENY(ptrace, 0);
    DENY(process_vm_readv, 0);
    DENY(process_vm_writev, 0);
    DENY(kill, 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)getpid()));
    DENY(tgkill, 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)getpid()));
    DENY(pidfd_open, 0);
    DENY(pidfd_getfd, 0);
    DENY(pidfd_send_signal, 0);

    /* What Flatpak and glycin deny (glycin-core/src/sandbox.rs). */
    static const int kernel[] = {
        SCMP_SYS(syslog), SCMP_SYS(uselib), SCMP_SYS(acct), SCMP_SYS(quotactl), SCMP_SYS(add_key),
        SCMP_SYS(keyctl), SCMP_SYS(request_key), SCMP_SYS(move_pages), SCMP_SYS(mbind),
        SCMP_SYS(get_mempolicy), SCMP_SYS(set_mempolicy), SCMP_SYS(migrate_pages), SCMP_SYS(unshare),
        SCMP_SYS(setns), SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot),
        SCMP_SYS(perf_event_open), SCMP_SYS(bpf), SCMP_SYS(userfaultfd), SCMP_SYS(init_module),
        SCMP_SYS(finit_module), SCMP_SYS(delete_module), SCMP_SYS(kexec_load), SCMP_SYS(reboot),
        SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(setuid), SCMP_SYS(setgid), SCMP_SYS(setreuid),
        SCMP_SYS(setregid), SCMP_SYS(setresuid), SCMP_SYS(setresgid), SCMP_SYS(setgroups),
    };
    for (size_t i = 0; i < sizeof kernel / sizeof *kernel; i++) {
        int result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), kernel[i], 0);
        if (result < 0 && result != -EFAULT && result != -EDOM) goto fail;
    }
    DENY(clone, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
    DENY(ioctl, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, TIOCSTI));
    DENY(ioctl, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, TIOCLINUX));
    DENY(personality, 1, SCMP_A0(SCMP_CMP_NE, 0));
    /* clone3's flags are behind a pointer: glibc falls back to clone on ENOSYS. */
    MISSING(clone3);
    MISSING(open_tree);
    MISSING(move_mount);
    MISSING(fsopen);
    MISSING(fsconfig);
    MISSING(fsmount);
    MISSING(fspick);
    MISSING(mount_setattr);

    if (seccomp_load(filter) != 0) goto fail;
    seccomp_release(filter);
    return 0;

fail:
    seccomp_release(filter);
    errno = EPERM;
    return -1;
}

int dossier_worker_cpu_budget(uint32_t budget_seconds) {
    struct rusage usage;
    struct rlimit limit;
    if (getrusage(RUSAGE_SELF, &usage) != 0 || getrlimit(RLIMIT_CPU, &limit) != 0) return -1;
    rlim_t used = (rlim_t)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1;
    if (limit.rlim_max != RLIM_INFINITY && used + budget_seconds > limit.rlim_max) return -1;
    limit.rlim_cur = used + budget_seconds;
    return setrlimit(RLIMIT_CPU, &limit);
}

int dossier_worker_retry_group_priority(int group, int nice) {
    char value[16];
    int length = snprintf(value, sizeof value, "%d", nice);
    if (write(group, value, (size_t)length) == length || errno != EAGAIN) {
        close(group);
        return -1;
    }
    return group;
}

int dossier_worker_lower_priority(int nice) {
    setpriority(PRIO_PROCESS, 0, nice);
    int group = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC);
    if (group < 0) return -1;
    return dossier_worker_retry_group_priority(group, nice);
}

int dossier_worker_priority(int *nice, int *group_nice) {
    errno = 0;
    *nice = getpriority(PRIO_PROCESS, 0);
    if (*nice == -1 && errno != 0) return -1;
    *group_nice = -100;
    FILE *group = fopen("/proc/self/autogroup", "re");
    if (group == NULL) return 0;
    /* "/autogroup-123 nice 10" */
    if (fscanf(group, "%*s nice %d", group_nice) != 1) *group_nice = -100;
    fclose(group);
    return 0;
}

pid_t dossier_worker_spawn(char *const argv[], char *const envp[], int socket_fd) {
    /* A number above 3, so that dup2 to 3 always happens (and clears close-on-exec). */
    int moved = fcntl(socket_fd, F_DUPFD_CLOEXEC, 10);
    if (moved < 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_adddup2(&actions, moved, 3);
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigset_t all_default;
    sigfillset(&all_default);
    posix_spawnattr_setsigdefault(&attributes, &all_default);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    int result = posix_spawn(&pid, argv[0], &actions, &attributes, argv, envp ? envp : environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(moved);
    if (result != 0) { errno = result; return -1; }
    return pid;
}

const char *dossier_object_defining(const char *symbol) {
    void *address = dlsym(RTLD_DEFAULT, symbol);
    Dl_info info;
    if (address == NULL || dladdr(address, &info) == 0) return NULL;
    return info.dli_fname;
}

