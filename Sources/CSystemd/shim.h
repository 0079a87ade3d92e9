#ifndef PENCILD_CSYSTEMD_SHIM_H
#define PENCILD_CSYSTEMD_SHIM_H
/* sd-login answers "does this user have an active session on a local seat". */
#include <systemd/sd-login.h>
#include <systemd/sd-daemon.h>
#endif
