/*
 * pencil-events [--no-reconnect] [--events T,T] [--devices D,D] [--removed N] [--focus]
 *
 * Prints every event libpencil yields, one JSON object a line, built from the
 * library's accessors only (the form `pencilctl events` prints, plus "focus" and
 * "synthesized" where they apply). Ends after the DISCONNECTED event (--no-reconnect) or
 * the Nth deviceRemoved (--removed N). --focus claims focus first.
 */
#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event-json.h"
#include "pencil.h"

static char **split(char *list)
{
	size_t count = 1;
	for (char *c = list; *c; c++)
		count += *c == ',';
	char **items = calloc(count + 1, sizeof(*items));
	size_t i = 0;
	for (char *item = strtok(list, ","); item; item = strtok(NULL, ","))
		items[i++] = item;
	return items;
}


int main(int argc, char **argv)
{
	bool reconnect = true, focus = false;
	char **events = NULL, **devices = NULL;
	long removed_limit = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--no-reconnect") == 0)
			reconnect = false;
		else if (strcmp(argv[i], "--focus") == 0)
			focus = true;
		else if (strcmp(argv[i], "--events") == 0 && i + 1 < argc)
			events = split(argv[++i]);
		else if (strcmp(argv[i], "--devices") == 0 && i + 1 < argc)
			devices = split(argv[++i]);
		else if (strcmp(argv[i], "--removed") == 0 && i + 1 < argc)
			removed_limit = strtol(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: pencil-events [--no-reconnect] [--events T,T] [--devices D,D] [--removed N] [--focus]\n");
			return 64;
		}
	}
	struct pencil *pencil = pencil_new();
	if (!pencil)
		return 1;
	pencil_set_reconnect(pencil, reconnect);
	int status = 0;
	if (focus) {
		struct pencil_error *error = NULL;
		if (pencil_set_focused(pencil, true, &error) < 0) {
			fprintf(stderr, "pencil-events: SetFocus: %s\n", pencil_error_get_message(error));
			pencil_error_destroy(error);
			status = 1;
			goto done;
		}
	}
	int result = pencil_monitor(pencil, (const char *const *)devices, (const char *const *)events);
	if (result < 0 && !reconnect) {
		fprintf(stderr, "pencil-events: cannot subscribe at %s: %s\n", pencil_get_socket_path(pencil), strerror(-result));
		status = 1;
		goto done;
	}
	long removed = 0;
	bool done = false;
	struct pollfd fd = {.fd = pencil_get_fd(pencil), .events = POLLIN};
	while (!done) {
		if (poll(&fd, 1, -1) < 0) {
			status = 1;
			break;
		}
		if ((result = pencil_dispatch(pencil)) < 0) {
			fprintf(stderr, "pencil-events: dispatch: %s\n", strerror(-result));
			status = 1;
			break;
		}
		struct pencil_event *event;
		while ((event = pencil_get_event(pencil))) {
			struct json_object *object = event_json(event);
			puts(json_object_to_json_string_ext(object, JSON_C_TO_STRING_PLAIN));
			json_object_put(object);
			enum pencil_event_type type = pencil_event_get_type(event);
			if (type == PENCIL_EVENT_DISCONNECTED ||
			    (type == PENCIL_EVENT_DEVICE_REMOVED && removed_limit > 0 && ++removed >= removed_limit))
				done = true;
			pencil_event_destroy(event);
		}
		fflush(stdout);
	}
done:
	pencil_unref(pencil);
	free(events);
	free(devices);
	return status;
}
