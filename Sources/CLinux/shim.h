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
#include <sys/vfs.h>
#include <grp.h>

/* Declared by glibc only under _GNU_SOURCE, which Swift's Glibc module is built without. */
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/* struct ucred (SO_PEERCRED), likewise hidden without _GNU_SOURCE. */
struct pencild_ucred {
    int pid;
    unsigned int uid;
    unsigned int gid;
};

/* A process pinned by a descriptor (pidfd), for a caller's identity that a reused pid cannot
   take over. glibc 2.36 has no wrappers for these on every architecture Swift builds for. */
#include <sys/syscall.h>
#include <unistd.h>
#include <signal.h>
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
static inline int pencild_pidfd_open(int pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }
static inline int pencild_pidfd_send_signal(int pidfd, int signal) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, (void *)0, 0);
}

/* The pen's thread (the daemon's PenPath): an eventfd to wake a loop from another thread, the
   scheduling calls that raise one thread, and a thread's name, which glibc declares only
   under _GNU_SOURCE. */
#include <sys/eventfd.h>
#include <sched.h>
#include <pthread.h>
#include <sys/resource.h>
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif
extern int pthread_setname_np(pthread_t thread, const char *name);
static inline int pencild_gettid(void) { return (int)syscall(SYS_gettid); }
/* RLIMIT_RTPRIO's soft limit; glibc names the resource only under _GNU_SOURCE. */
static inline long pencild_realtime_priority_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_RTPRIO, &limit) != 0) return 0;
    return limit.rlim_cur == RLIM_INFINITY ? 99 : (long)limit.rlim_cur;
}
/* RLIMIT_RTTIME's hard limit in microseconds, -1 for none. */
static inline long long pencild_realtime_time_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_RTTIME, &limit) != 0) return -1;
    return limit.rlim_max == RLIM_INFINITY ? -1 : (long long)limit.rlim_max;
}
/* Lowers RLIMIT_RTTIME to `usec` (soft and hard), which needs no privilege; 0 or -1 with errno. */
static inline int pencild_set_realtime_time_limit(unsigned long long usec) {
    struct rlimit limit = { .rlim_cur = usec, .rlim_max = usec };
    return setrlimit(RLIMIT_RTTIME, &limit);
}
#endif
