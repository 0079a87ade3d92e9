#ifndef PENCILD_CLINUX_SHIM_H
#define PENCILD_CLINUX_SHIM_H
/* Linux system headers that Swift's Glibc module leaves out: epoll, timerfd, signalfd, inotify,
   posix_spawn. */
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <grp.h>

/* Declared by glibc only under _GNU_SOURCE, which Swift's Glibc module is built without. */
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/* struct ucred (SO_PEERCRED), likewise hidden without _GNU_SOURCE. */
struct pencild_ucred {
    int pid;
    unsigned int uid;
    unsigned int gid;
};
#endif
