#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

ssize_t dossier_packet_send(int socket_fd, const void *bytes, size_t length, int fd) {
    struct iovec part = { .iov_base = (void *)bytes, .iov_len = length };
    union { char buffer[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1 };
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        message.msg_control = control.buffer;
        message.msg_controllen = sizeof control.buffer;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof(int));
    }
    ssize_t sent;
    do sent = sendmsg(socket_fd, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t dossier_packet_receive(int socket_fd, void *bytes, size_t capacity, int *fd) {
    struct iovec part = { .iov_base = bytes, .iov_len = capacity };
    union { char buffer[CMSG_SPACE(sizeof(int) * 4)]; struct cmsghdr align; } control;
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1,
                              .msg_control = control.buffer, .msg_controllen = sizeof control.buffer };
    *fd = -1;
    ssize_t received;
    do received = recvmsg(socket_fd, &message, MSG_CMSG_CLOEXEC);
    while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    /* Every fd that came is taken: the first is kept, any more are closed (a worker sends one). */
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int one;
            memcpy(&one, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
            if (*fd < 0) *fd = one; else close(one);
        }
    }
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        if (*fd >= 0) { close(*fd); *fd = -1; }
        errno = EMSGSIZE;
        return -1;
    }
    return received;
}

int dossier_packet_wait(int socket_fd, int timeout_ms) {
    struct pollfd watched = { .fd = socket_fd, .events = POLLIN };
    int result;
    do result = poll(&watched, 1, timeout_ms);
    while (result < 0 && errno == EINTR);
    return result < 0 ? -1 : result > 0;
}

int dossier_memfd_create(const char *name, uint64_t length) {
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)length) != 0) { close(fd); return -1; }
    return fd;
}

int dossier_memfd_seal(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
}

int dossier_memfd_is_sealed(int fd) {
    int seals = fcntl(fd, F_GET_SEALS);
    int wanted = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;
    return seals >= 0 && (seals & wanted) == wanted;
}
