#ifndef PENCILD_CEVDEV_SHIM_H
#define PENCILD_CEVDEV_SHIM_H
/* The C side of pencild: libevdev (devices, uinput) and libudev (discovery, hotplug). */
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <libudev.h>
#include <linux/input.h>
#include <linux/input-event-codes.h>
#include <fcntl.h>
#include <time.h>

/* EVIOCGRAB and friends are function-like macros Swift cannot import. */
static inline unsigned long pencild_eviocgrab(void) { return EVIOCGRAB; }
#endif
