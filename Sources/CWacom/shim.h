#ifndef PENCILD_CWACOM_SHIM_H
#define PENCILD_CWACOM_SHIM_H
/* libwacom: which tablet a device is, and which stylus a tool id is. */
#include <libwacom/libwacom.h>
#endif
