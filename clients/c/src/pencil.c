/* The context: the event stream, its closing events, reconnection and the calls. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include "private.h"


#define BACKOFF_FIRST_MS 100
#define BACKOFF_LAST_MS 5000
#define DEFAULT_CALL_TIMEOUT_MS 2000

/* What is open on one device, as the events so far say: what a vanished stream must close. */
struct track {
	char *device;
	int64_t time;
	bool has_tool, has_pose;
	struct tool tool;
	struct pose pose;
	bool in_proximity, tip_down, hovering, squeezing;
	struct name squeeze_focus;
	struct name buttons[PENCIL_MAX_HELD_BUTTONS];
	size_t button_count;
	struct track *next;
};

struct pencil {
	int refcount;
	char *path;
	int epoll_fd;
	int timer_fd;

	/* The event stream. */
	int fd;
	struct framer input;
	char *output;
	size_t output_length, output_sent;
	bool subscribed;      /* the app asked for events (pencil_monitor) */
	bool reconnect;
	int backoff_ms;
	bool waiting;         /* the timer is armed for a reconnection */
	int replies_to_skip;  /* replies to calls sent before Monitor on this connection */
	char **devices;       /* NULL-terminated filters, NULL: all */
	char **events;
	bool want_focus;

	struct pencil_event *head, *tail;
	size_t queued;
	struct track *tracks;
	size_t track_count;
	int call_timeout_ms;
};

/* ---- the socket's path ---- */

static bool is_socket(const char *path)
{
	struct stat status;
	return stat(path, &status) == 0 && S_ISSOCK(status.st_mode);
}

PENCIL_EXPORT char *pencil_default_socket_path(void)
{
	const char *explicit = getenv("PENCILD_SOCKET");
	if (explicit && *explicit)
		return strdup(explicit);
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (runtime && *runtime) {
		char *user;
		size_t length = strlen(runtime);
		bool slash = runtime[length - 1] == '/';
		if (asprintf(&user, "%s%spencild.sock", runtime, slash ? "" : "/") < 0)
			return NULL;
		if (is_socket(user))
			return user;
		free(user);
	}
	return strdup("/run/pencild/pencild.sock");
}

/* ---- lifetime ---- */

static void strings_free(char **strings)
{
	if (!strings)
		return;
	for (char **string = strings; *string; string++)
		free(*string);
	free(strings);
}

/* A copy of a NULL-terminated array in *out (NULL for NULL); -EINVAL for an empty entry. */
static int strings_copy(const char *const *strings, char ***out)
{
	*out = NULL;
	if (!strings)
		return 0;
	size_t count = 0;
	while (strings[count]) {
		if (!*strings[count])
			return -EINVAL;
		count++;
	}
	char **copy = calloc(count + 1, sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++)
		if (!(copy[i] = strdup(strings[i]))) {
			strings_free(copy);
			return -ENOMEM;
		}
	*out = copy;
	return 0;
}

PENCIL_EXPORT struct pencil *pencil_new_from_path(const char *socket_path)
{
	if (!socket_path || strlen(socket_path) >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return NULL;
	struct pencil *pencil = calloc(1, sizeof(*pencil));
	if (!pencil)
		return NULL;
	pencil->refcount = 1;
	pencil->fd = -1;
	pencil->timer_fd = -1;
	pencil->reconnect = true;
	pencil->backoff_ms = BACKOFF_FIRST_MS;
	pencil->call_timeout_ms = DEFAULT_CALL_TIMEOUT_MS;
	pencil->path = strdup(socket_path);
	pencil->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	pencil->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	struct epoll_event timer = {.events = EPOLLIN, .data.fd = pencil->timer_fd};
	if (!pencil->path || pencil->epoll_fd < 0 || pencil->timer_fd < 0 ||
	    epoll_ctl(pencil->epoll_fd, EPOLL_CTL_ADD, pencil->timer_fd, &timer) < 0 ||
	    framer_init(&pencil->input, PENCIL_MAX_MESSAGE) < 0) {
		pencil_unref(pencil);
		return NULL;
	}
	return pencil;
}

PENCIL_EXPORT struct pencil *pencil_new(void)
{
	char *path = pencil_default_socket_path();
	if (!path)
		return NULL;
	struct pencil *pencil = pencil_new_from_path(path);
	free(path);
	return pencil;
}

PENCIL_EXPORT struct pencil *pencil_ref(struct pencil *pencil)
{
	pencil->refcount++;
	return pencil;
}

static void track_free(struct track *track)
{
	free(track->device);
	tool_clear(&track->tool);
	name_clear(&track->squeeze_focus);
	for (size_t i = 0; i < track->button_count; i++)
		name_clear(&track->buttons[i]);
	free(track);
}

static void tracks_clear(struct pencil *pencil)
{
	while (pencil->tracks) {
		struct track *next = pencil->tracks->next;
		track_free(pencil->tracks);
		pencil->tracks = next;
	}
	pencil->track_count = 0;
}

static void stream_close(struct pencil *pencil)
{
	if (pencil->fd >= 0) {
		epoll_ctl(pencil->epoll_fd, EPOLL_CTL_DEL, pencil->fd, NULL);
		close(pencil->fd);
		pencil->fd = -1;
	}
	free(pencil->output);
	pencil->output = NULL;
	pencil->output_length = pencil->output_sent = 0;
	pencil->replies_to_skip = 0;
	if (pencil->input.tokener)
		framer_reset(&pencil->input);
}

PENCIL_EXPORT struct pencil *pencil_unref(struct pencil *pencil)
{
	if (!pencil || --pencil->refcount > 0)
		return NULL;
	stream_close(pencil);
	framer_release(&pencil->input);
	while (pencil->head) {
		struct pencil_event *next = pencil->head->next;
		pencil_event_destroy(pencil->head);
		pencil->head = next;
	}
	tracks_clear(pencil);
	strings_free(pencil->devices);
	strings_free(pencil->events);
	if (pencil->timer_fd >= 0)
		close(pencil->timer_fd);
	if (pencil->epoll_fd >= 0)
		close(pencil->epoll_fd);
	free(pencil->path);
	free(pencil);
	return NULL;
}

PENCIL_EXPORT const char *pencil_get_socket_path(const struct pencil *pencil)
{
	return pencil->path;
}

PENCIL_EXPORT int pencil_set_reconnect(struct pencil *pencil, bool reconnect)
{
	pencil->reconnect = reconnect;
	return 0;
}

PENCIL_EXPORT int pencil_set_call_timeout(struct pencil *pencil, int milliseconds)
{
	if (milliseconds < 1)
		return -EINVAL;
	pencil->call_timeout_ms = milliseconds;
	return 0;
}

PENCIL_EXPORT int pencil_get_fd(const struct pencil *pencil)
{
	return pencil->epoll_fd;
}

PENCIL_EXPORT bool pencil_is_connected(const struct pencil *pencil)
{
	return pencil->fd >= 0;
}

/* ---- the queue ---- */

static void enqueue(struct pencil *pencil, struct pencil_event *event)
{
	event->next = NULL;
	if (pencil->tail)
		pencil->tail->next = event;
	else
		pencil->head = event;
	pencil->tail = event;
	pencil->queued++;
}

static int handle_buffered(struct pencil *pencil);

PENCIL_EXPORT struct pencil_event *pencil_get_event(struct pencil *pencil)
{
	/*
	 * Messages that a full queue left in the buffer come out here: the socket may have
	 * nothing more to read, so the fd would not wake the app for them.
	 */
	if (!pencil->head && pencil->fd >= 0 && pencil->input.length > 0)
		handle_buffered(pencil);
	struct pencil_event *event = pencil->head;
	if (!event)
		return NULL;
	pencil->head = event->next;
	if (!pencil->head)
		pencil->tail = NULL;
	pencil->queued--;
	event->next = NULL;
	return event;
}

/* ---- following what is open ---- */

static bool wants(const struct pencil *pencil, enum pencil_event_type type)
{
	if (!pencil->events)
		return true;
	const char *name = pencil_event_type_to_name(type);
	for (char **wanted = pencil->events; *wanted; wanted++)
		if (strcmp(*wanted, name) == 0)
			return true;
	return false;
}

static struct track *track_find(struct pencil *pencil, const char *device, bool create)
{
	struct track **link = &pencil->tracks;
	for (; *link; link = &(*link)->next)
		if (strcmp((*link)->device, device) == 0)
			return *link;
	if (!create || pencil->track_count >= PENCIL_MAX_TRACKED_DEVICES)
		return NULL;
	struct track *track = calloc(1, sizeof(*track));
	if (!track || !(track->device = strdup(device))) {
		free(track);
		return NULL;
	}
	*link = track; /* at the end: closing goes in the order devices appeared */
	pencil->track_count++;
	return track;
}

static void track_remove(struct pencil *pencil, struct track *gone)
{
	for (struct track **link = &pencil->tracks; *link; link = &(*link)->next)
		if (*link == gone) {
			*link = gone->next;
			track_free(gone);
			pencil->track_count--;
			return;
		}
}

static void track_release_buttons(struct track *track)
{
	for (size_t i = 0; i < track->button_count; i++)
		name_clear(&track->buttons[i]);
	track->button_count = 0;
}

static bool same_name(const struct name *a, const struct name *b)
{
	if (a->value != b->value)
		return false;
	return a->value >= 0 || strcmp(a->text, b->text) == 0;
}

/* Follows one event from the daemon. Out of memory only loses what can be closed later. */
static void track_event(struct pencil *pencil, const struct pencil_event *event)
{
	if (!event->device)
		return;
	int type = event->type.value;
	struct track *track = track_find(pencil, event->device, type != PENCIL_EVENT_DEVICE_REMOVED);
	if (!track)
		return;
	if (type == PENCIL_EVENT_DEVICE_REMOVED) {
		track_remove(pencil, track);
		return;
	}
	track->time = event->time;
	if (event->has_tool && tool_copy(&track->tool, &event->tool) == 0)
		track->has_tool = true;
	if (event->has_pose) {
		track->pose = event->pose;
		track->has_pose = true;
	}
	if (event->has_tool && type != PENCIL_EVENT_PROXIMITY_OUT)
		track->in_proximity = true;
	int phase = event->phase.value;
	switch (type) {
	case PENCIL_EVENT_PROXIMITY_OUT:
		track->in_proximity = track->tip_down = track->hovering = track->squeezing = false;
		track_release_buttons(track);
		break;
	case PENCIL_EVENT_TIP_DOWN:
	case PENCIL_EVENT_MOTION:
		track->tip_down = true;
		track->hovering = false;
		break;
	case PENCIL_EVENT_TIP_UP:
		track->tip_down = false;
		break;
	case PENCIL_EVENT_HOVER:
		track->hovering = phase == PENCIL_PHASE_BEGAN || phase == PENCIL_PHASE_CHANGED;
		if (track->hovering)
			track->tip_down = false;
		break;
	case PENCIL_EVENT_BUTTON_DOWN:
	case PENCIL_EVENT_BUTTON_UP: {
		size_t i = 0;
		while (i < track->button_count && !same_name(&track->buttons[i], &event->button))
			i++;
		if (type == PENCIL_EVENT_BUTTON_DOWN && i == track->button_count &&
		    i < PENCIL_MAX_HELD_BUTTONS && name_copy(&track->buttons[i], &event->button) == 0)
			track->button_count++;
		if (type == PENCIL_EVENT_BUTTON_UP && i < track->button_count) {
			name_clear(&track->buttons[i]);
			memmove(&track->buttons[i], &track->buttons[i + 1],
				(track->button_count - i - 1) * sizeof(track->buttons[0]));
			memset(&track->buttons[--track->button_count], 0, sizeof(track->buttons[0]));
		}
		break;
	}
	case PENCIL_EVENT_SQUEEZE:
		if (phase == PENCIL_PHASE_BEGAN || (phase == PENCIL_PHASE_CHANGED && !track->squeezing))
			name_copy(&track->squeeze_focus, &event->focus);
		track->squeezing = phase == PENCIL_PHASE_BEGAN || phase == PENCIL_PHASE_CHANGED;
		break;
	default:
		break;
	}
}

/* One closing event for a device, or NULL when out of memory. */
static struct pencil_event *closing_event(const struct track *track, enum pencil_event_type type, bool with_tool)
{
	struct pencil_event *event = event_new();
	if (!event)
		return NULL;
	event->type.value = type;
	event->time = track->time;
	event->synthetic = true;
	if (!(event->device = strdup(track->device)))
		goto fail;
	if (with_tool && track->has_tool) {
		event->has_tool = true;
		if (tool_copy(&event->tool, &track->tool) < 0)
			goto fail;
	}
	if (with_tool && track->has_pose) {
		event->has_pose = true;
		event->pose = track->pose;
	}
	return event;
fail:
	pencil_event_destroy(event);
	return NULL;
}

/* gestures.md "When a device goes away", for every device, in the order they appeared. */
static int close_what_is_open(struct pencil *pencil)
{
	struct pencil_event *event;
	for (struct track *track = pencil->tracks; track; track = track->next) {
		if (track->tip_down && wants(pencil, PENCIL_EVENT_TIP_UP)) {
			if (!(event = closing_event(track, PENCIL_EVENT_TIP_UP, true)))
				return -ENOMEM;
			event->pose.values[POSE_PRESSURE] = 0; /* the tip is up */
			enqueue(pencil, event);
		}
		for (size_t i = 0; i < track->button_count && wants(pencil, PENCIL_EVENT_BUTTON_UP); i++) {
			if (!(event = closing_event(track, PENCIL_EVENT_BUTTON_UP, true)))
				return -ENOMEM;
			enqueue(pencil, event);
			if (name_copy(&event->button, &track->buttons[i]) < 0)
				return -ENOMEM;
		}
		if (track->squeezing && wants(pencil, PENCIL_EVENT_SQUEEZE)) {
			if (!(event = closing_event(track, PENCIL_EVENT_SQUEEZE, true)))
				return -ENOMEM;
			enqueue(pencil, event);
			event->phase.value = PENCIL_PHASE_CANCELLED;
			if (name_copy(&event->focus, &track->squeeze_focus) < 0)
				return -ENOMEM;
		}
		if (track->hovering && !track->tip_down && wants(pencil, PENCIL_EVENT_HOVER)) {
			if (!(event = closing_event(track, PENCIL_EVENT_HOVER, true)))
				return -ENOMEM;
			event->phase.value = PENCIL_PHASE_ENDED;
			enqueue(pencil, event);
		}
		if (track->in_proximity && wants(pencil, PENCIL_EVENT_PROXIMITY_OUT)) {
			if (!(event = closing_event(track, PENCIL_EVENT_PROXIMITY_OUT, true)))
				return -ENOMEM;
			enqueue(pencil, event);
		}
		if (wants(pencil, PENCIL_EVENT_DEVICE_REMOVED)) {
			if (!(event = closing_event(track, PENCIL_EVENT_DEVICE_REMOVED, false)))
				return -ENOMEM;
			enqueue(pencil, event);
		}
	}
	tracks_clear(pencil);
	return 0;
}

/* ---- connecting ---- */

static void arm_timer(struct pencil *pencil, int milliseconds)
{
	struct itimerspec when = {
		.it_value = {.tv_sec = milliseconds / 1000, .tv_nsec = (long)(milliseconds % 1000) * 1000000},
	};
	timerfd_settime(pencil->timer_fd, 0, &when, NULL);
	pencil->waiting = milliseconds > 0;
}

static int update_interest(struct pencil *pencil)
{
	struct epoll_event interest = {
		.events = EPOLLIN | (pencil->output_sent < pencil->output_length ? EPOLLOUT : 0),
		.data.fd = pencil->fd,
	};
	return epoll_ctl(pencil->epoll_fd, EPOLL_CTL_MOD, pencil->fd, &interest) < 0 ? -errno : 0;
}

/* Sends what is waiting in the output buffer, as far as the socket takes it. */
static int flush_output(struct pencil *pencil)
{
	while (pencil->output_sent < pencil->output_length) {
		ssize_t count = send(pencil->fd, pencil->output + pencil->output_sent,
				     pencil->output_length - pencil->output_sent, MSG_NOSIGNAL);
		if (count < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			if (errno != EPIPE && errno != ECONNRESET)
				return -errno;
			/* Closed by the daemon, which may have said why first: reading finds it, or the end. */
			pencil->output_sent = pencil->output_length;
			break;
		}
		pencil->output_sent += (size_t)count;
	}
	return update_interest(pencil);
}

static int append_call(struct pencil *pencil, const char *method, struct json_object *parameters, bool more)
{
	char *call;
	size_t length;
	int result = call_encode(method, parameters, more, &call, &length);
	if (result < 0)
		return result;
	char *output = realloc(pencil->output, pencil->output_length + length);
	if (!output) {
		free(call);
		return -ENOMEM;
	}
	memcpy(output + pencil->output_length, call, length);
	pencil->output = output;
	pencil->output_length += length;
	free(call);
	return 0;
}

/* {key: value}, taking value (which may be NULL: out of memory); NULL when out of memory. */
static struct json_object *single_field(const char *key, struct json_object *value)
{
	struct json_object *object = value ? json_object_new_object() : NULL;
	if (!object || json_object_object_add(object, key, value) != 0) {
		json_object_put(value);
		json_object_put(object);
		return NULL;
	}
	return object;
}

static int add_filter(struct json_object *parameters, const char *key, char **values)
{
	if (!values)
		return 0;
	struct json_object *array = json_object_new_array();
	if (!array || json_object_object_add(parameters, key, array) != 0) {
		json_object_put(array);
		return -ENOMEM;
	}
	for (char **value = values; *value; value++) {
		struct json_object *text = json_object_new_string(*value);
		if (!text || json_object_array_add(array, text) != 0) {
			json_object_put(text);
			return -ENOMEM;
		}
	}
	return 0;
}

/* The calls a new connection starts with: SetFocus when the app holds focus, then Monitor. */
static int queue_subscription(struct pencil *pencil)
{
	int result = 0;
	if (pencil->want_focus) {
		struct json_object *focus = single_field("focused", json_object_new_boolean(1));
		if (!focus)
			return -ENOMEM;
		result = append_call(pencil, "org.pencild.Pen.SetFocus", focus, false);
		json_object_put(focus);
		if (result < 0)
			return result;
		pencil->replies_to_skip++;
	}
	struct json_object *parameters = json_object_new_object();
	if (!parameters)
		return -ENOMEM;
	if ((result = add_filter(parameters, "devices", pencil->devices)) == 0 &&
	    (result = add_filter(parameters, "events", pencil->events)) == 0)
		result = append_call(pencil, "org.pencild.Pen.Monitor", parameters, true);
	json_object_put(parameters);
	return result;
}

static int stream_open(struct pencil *pencil)
{
	int fd = socket_connect(pencil->path);
	if (fd < 0)
		return fd;
	pencil->fd = fd;
	struct epoll_event interest = {.events = EPOLLIN, .data.fd = fd};
	int result;
	if (epoll_ctl(pencil->epoll_fd, EPOLL_CTL_ADD, fd, &interest) < 0) {
		result = -errno;
		close(fd);
		pencil->fd = -1;
		return result;
	}
	if ((result = queue_subscription(pencil)) < 0 || (result = flush_output(pencil)) < 0) {
		stream_close(pencil);
		return result;
	}
	arm_timer(pencil, 0);
	return 0;
}

/* The stream ended: close what was open, then come back later or say so. */
static int stream_ended(struct pencil *pencil, struct pencil_error *reason)
{
	stream_close(pencil);
	int result = close_what_is_open(pencil);
	if (pencil->reconnect) {
		pencil_error_destroy(reason);
		arm_timer(pencil, pencil->backoff_ms);
		pencil->backoff_ms = pencil->backoff_ms * 2 > BACKOFF_LAST_MS ? BACKOFF_LAST_MS : pencil->backoff_ms * 2;
		return result;
	}
	pencil->subscribed = false;
	struct pencil_event *event = event_new();
	if (!event) {
		pencil_error_destroy(reason);
		return -ENOMEM;
	}
	event->type.value = PENCIL_EVENT_DISCONNECTED;
	event->time = monotonic_usec();
	event->synthetic = true;
	event->error = reason;
	enqueue(pencil, event);
	return result;
}

PENCIL_EXPORT int pencil_monitor(struct pencil *pencil, const char *const *devices, const char *const *events)
{
	char **device_copy, **event_copy;
	int result = strings_copy(devices, &device_copy);
	if (result < 0)
		return result;
	if ((result = strings_copy(events, &event_copy)) < 0) {
		strings_free(device_copy);
		return result;
	}
	/* A new subscription replaces the old one: what it opened is closed first. */
	if (pencil->fd >= 0) {
		stream_close(pencil);
		close_what_is_open(pencil);
	}
	strings_free(pencil->devices);
	strings_free(pencil->events);
	pencil->devices = device_copy;
	pencil->events = event_copy;
	pencil->subscribed = true;
	pencil->backoff_ms = BACKOFF_FIRST_MS;
	result = stream_open(pencil);
	if (result == -ENOMEM || result == -E2BIG || result == -EINVAL) {
		pencil->subscribed = false;
		return result;
	}
	if (result < 0 && pencil->reconnect)
		arm_timer(pencil, pencil->backoff_ms);
	if (result < 0 && !pencil->reconnect)
		pencil->subscribed = false;
	return result;
}

/* ---- reading ---- */

/* One message from the stream: 1 to go on, 0 when the stream ended (already handled). */
static int handle_message(struct pencil *pencil, struct json_object *message)
{
	const char *error_name;
	struct json_object *parameters, *value;
	bool continues;
	int result;

	if (reply_parse(message, &error_name, &parameters, &continues) < 0)
		goto malformed;
	if (pencil->replies_to_skip > 0) {
		/* SetFocus's reply; an older daemon's MethodNotFound changes nothing here. */
		pencil->replies_to_skip--;
		return 1;
	}
	if (error_name) {
		stream_ended(pencil, error_from_reply(error_name, parameters));
		return 0;
	}
	if (!parameters || !json_object_object_get_ex(parameters, "event", &value))
		goto malformed;
	struct pencil_event *event;
	if ((result = event_decode(value, &event)) < 0) {
		if (result == -ENOMEM)
			return result;
		goto malformed;
	}
	pencil->backoff_ms = BACKOFF_FIRST_MS; /* the daemon serves us: start afresh next time */
	track_event(pencil, event);
	enqueue(pencil, event);
	if (!continues) {
		stream_ended(pencil, NULL);
		return 0;
	}
	return 1;
malformed:
	stream_ended(pencil, error_new(PENCIL_ERROR_PROTOCOL, -EBADMSG, "pencild at %s sent a message that is not the protocol's",
				       pencil->path));
	return 0;
}

/*
 * Turns the whole messages already read into events, while the queue has room: 1 to go
 * on, 0 when the stream ended (handled), or -ENOMEM.
 */
static int handle_buffered(struct pencil *pencil)
{
	while (pencil->queued < PENCIL_MAX_QUEUED) {
		struct json_object *message = NULL;
		int found = framer_next(&pencil->input, &message);
		if (found == 0)
			break;
		if (found < 0) {
			stream_ended(pencil, error_new(PENCIL_ERROR_PROTOCOL, found, "pencild at %s: %s", pencil->path,
						       found == -EMSGSIZE ? "a message longer than 1 MiB"
									  : "a message that is not JSON"));
			return 0;
		}
		int handled = handle_message(pencil, message);
		json_object_put(message);
		if (handled <= 0)
			return handled;
	}
	return 1;
}

static int read_stream(struct pencil *pencil)
{
	size_t budget = PENCIL_READ_BUDGET;
	for (;;) {
		/* Messages already here first. */
		int handled = handle_buffered(pencil);
		if (handled <= 0)
			return handled;
		if (budget == 0 || pencil->queued >= PENCIL_MAX_QUEUED)
			return 0;
		long room = framer_reserve(&pencil->input, 65536);
		if (room < 0)
			return (int)room;
		size_t want = (size_t)room < budget ? (size_t)room : budget;
		ssize_t count = recv(pencil->fd, pencil->input.data + pencil->input.start + pencil->input.length, want, 0);
		if (count > 0) {
			pencil->input.length += (size_t)count;
			budget -= (size_t)count;
			continue;
		}
		if (count < 0 && errno == EINTR)
			continue;
		if (count < 0 && errno == EAGAIN)
			return 0;
		struct pencil_error *reason = NULL;
		if (count < 0 && errno != ECONNRESET)
			reason = error_new(PENCIL_ERROR_CONNECTION, -errno, "pencild at %s: %s", pencil->path, strerror(errno));
		return stream_ended(pencil, reason);
	}
}

PENCIL_EXPORT int pencil_dispatch(struct pencil *pencil)
{
	uint64_t expirations;
	if (read(pencil->timer_fd, &expirations, sizeof(expirations)) == sizeof(expirations)) {
		pencil->waiting = false;
		if (pencil->subscribed && pencil->fd < 0 && stream_open(pencil) < 0) {
			arm_timer(pencil, pencil->backoff_ms);
			pencil->backoff_ms =
				pencil->backoff_ms * 2 > BACKOFF_LAST_MS ? BACKOFF_LAST_MS : pencil->backoff_ms * 2;
		}
	}
	if (pencil->fd < 0)
		return 0;
	if (pencil->output_sent < pencil->output_length) {
		int result = flush_output(pencil);
		if (result < 0)
			return stream_ended(pencil, error_new(PENCIL_ERROR_CONNECTION, result, "pencild at %s: %s",
							      pencil->path, strerror(-result)));
	}
	return read_stream(pencil);
}

/* ---- calls ---- */

PENCIL_EXPORT int pencil_list_devices(struct pencil *pencil, struct pencil_device ***devices, size_t *count,
				      struct pencil_error **error)
{
	struct json_object *reply, *array;
	int result = sync_call(pencil->path, pencil->call_timeout_ms, "org.pencild.Pen.ListDevices", NULL, &reply, error);
	if (result < 0)
		return result;
	result = -EBADMSG;
	if (!json_object_object_get_ex(reply, "devices", &array) || !json_object_is_type(array, json_type_array))
		goto done;
	size_t length = json_object_array_length(array);
	struct pencil_device **list = calloc(length ? length : 1, sizeof(*list));
	if (!list) {
		result = -ENOMEM;
		goto done;
	}
	for (size_t i = 0; i < length; i++)
		if ((result = device_decode(json_object_array_get_idx(array, i), &list[i])) < 0) {
			pencil_device_list_free(list, i);
			goto done;
		}
	*devices = list;
	*count = length;
	result = (int)length;
done:
	if (result == -EBADMSG)
		result = error_give(error_new(PENCIL_ERROR_PROTOCOL, -EBADMSG, "pencild at %s: ListDevices reply is not the protocol's",
					      pencil->path), error, -EBADMSG);
	json_object_put(reply);
	return result;
}

/* A call whose reply is preferences. */
static int preferences_call(struct pencil *pencil, const char *method, struct json_object *parameters,
			    struct pencil_preferences **out, struct pencil_error **error)
{
	struct json_object *reply, *object;
	int result = sync_call(pencil->path, pencil->call_timeout_ms, method, parameters, &reply, error);
	if (result < 0)
		return result;
	if (!json_object_object_get_ex(reply, "preferences", &object))
		result = -EBADMSG;
	else if (out)
		result = preferences_decode(object, out);
	json_object_put(reply);
	if (result == -EBADMSG)
		result = error_give(error_new(PENCIL_ERROR_PROTOCOL, -EBADMSG, "pencild at %s: %s reply is not the protocol's",
					      pencil->path, method), error, -EBADMSG);
	return result;
}

PENCIL_EXPORT int pencil_get_preferences(struct pencil *pencil, struct pencil_preferences **preferences,
					 struct pencil_error **error)
{
	return preferences_call(pencil, "org.pencild.Pen.GetPreferences", NULL, preferences, error);
}

PENCIL_EXPORT int pencil_set_preferences(struct pencil *pencil, const struct pencil_preferences *changes,
					 struct pencil_preferences **result, struct pencil_error **error)
{
	struct json_object *parameters = single_field("preferences", preferences_encode(changes));
	if (!parameters)
		return -ENOMEM;
	int status = preferences_call(pencil, "org.pencild.Pen.SetPreferences", parameters, result, error);
	json_object_put(parameters);
	return status;
}

PENCIL_EXPORT int pencil_set_focused(struct pencil *pencil, bool focused, struct pencil_error **error)
{
	struct json_object *parameters = single_field("focused", json_object_new_boolean(focused));
	if (!parameters)
		return -ENOMEM;
	struct json_object *reply;
	int result = sync_call(pencil->path, pencil->call_timeout_ms, "org.pencild.Pen.SetFocus", parameters, &reply, error);
	json_object_put(parameters);
	if (result == 0)
		json_object_put(reply);
	/* Remembered whatever the answer: a daemon that comes back gets the claim again. */
	pencil->want_focus = focused;
	return result;
}
