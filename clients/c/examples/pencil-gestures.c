/* Prints double-taps and squeezes with the user's preferred action.
 * Build: cc pencil-gestures.c $(pkg-config --cflags --libs pencil) */
#include <pencil.h>
#include <poll.h>
#include <stdio.h>

static const char *or_dash(const char *name)
{
	return name ? name : "-";
}

int main(void)
{
	struct pencil *pencil = pencil_new();
	if (!pencil)
		return 1;
	pencil_set_focused(pencil, true, NULL); /* our window has focus: the gestures are ours */
	const char *types[] = {"doubleTap", "squeeze", NULL};
	pencil_monitor(pencil, NULL, types);    /* while pencild is away, it keeps trying */

	struct pollfd fd = {.fd = pencil_get_fd(pencil), .events = POLLIN};
	while (poll(&fd, 1, -1) >= 0) {
		pencil_dispatch(pencil);
		struct pencil_event *event;
		while ((event = pencil_get_event(pencil))) {
			if (pencil_event_get_focus(event) != PENCIL_FOCUS_OTHER) /* OTHER: another app's */
				printf("%s %s %s\n", pencil_event_get_type_name(event),
				       or_dash(pencil_event_get_phase_name(event)),   /* began, changed, ended */
				       or_dash(pencil_event_get_action_name(event))); /* showColorPalette, ... */
			fflush(stdout);
			pencil_event_destroy(event);
		}
	}
	pencil_unref(pencil);
	return 0;
}
