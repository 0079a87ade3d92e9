/* Prints double-taps and squeezes with the user's preferred action.
 * Build: cc pencil-gestures.c $(pkg-config --cflags --libs pencil) */
#include <pencil.h>
#include <poll.h>
#include <stdio.h>

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
			enum pencil_focus focus = pencil_event_get_focus(event);
			if (focus != PENCIL_FOCUS_OTHER) /* another app has focus: not ours */
				printf("%s %s %s\n", pencil_event_get_type_name(event),
				       pencil_event_get_phase_name(event) ? pencil_event_get_phase_name(event) : "-",
				       pencil_event_get_action_name(event) ? pencil_event_get_action_name(event) : "-");
			fflush(stdout);
			pencil_event_destroy(event);
		}
	}
	pencil_unref(pencil);
	return 0;
}
