#ifndef PENCILD_CEVDEV_SHIM_H
#define PENCILD_CEVDEV_SHIM_H
/* The C side of pencild: libevdev (devices, uinput) and libudev (discovery, hotplug). */
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <libudev.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <linux/input-event-codes.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <time.h>

/* Sets the phys of the uinput device about to be made on `fd` (UI_SET_PHYS): libevdev's
 * uinput creation does not pass its phys on. 0 or -errno. */
static inline int pencild_uinput_set_phys(int fd, const char *phys)
{
	return ioctl(fd, UI_SET_PHYS, phys) < 0 ? -errno : 0;
}

/* Whether any key of the device is down now, as the kernel has it (EVIOCGKEY): 1, 0, or
 * -errno. */
static inline int pencild_any_key_down(int fd)
{
	unsigned char keys[KEY_MAX / 8 + 1] = { 0 };
	if (ioctl(fd, EVIOCGKEY(sizeof(keys)), keys) < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(keys); i++)
		if (keys[i])
			return 1;
	return 0;
}
#endif
