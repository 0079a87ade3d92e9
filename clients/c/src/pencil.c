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
	struct closeout open; /* what the stream has opened */
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
	closeout_clear(&pencil->open);
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

/* What a vanished stream leaves open is closed by the library (docs/protocol.md, "When
 * pencild goes away"), in the contract's order, only for the types the app asked for. */
static int close_what_is_open(struct pencil *pencil)
{
	struct pencil_event *events;
	int result = closeout_close(&pencil->open, pencil->events, &events);
	while (events) {
		struct pencil_event *next = events->next;
		events->next = NULL;
		enqueue(pencil, events);
		events = next;
	}
	return result;
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

static bool listed(char *const *values, const char *name)
{
	for (char *const *value = values; *value; value++)
		if (strcmp(*value, name) == 0)
			return true;
	return false;
}

/* The event types asked of the daemon: the app's, and what the close-out needs to know that
 * a closer's state is open (docs/protocol.md, "When pencild goes away"): the opener, and for
 * what a tool holds, the tool's proximity. The app gets only its own types. */
static int add_event_filter(struct json_object *parameters, char **wanted)
{
	static const char *const needs[][4] = {
		{"deviceRemoved", "deviceAdded", NULL, NULL},
		{"proximityOut", "proximityIn", NULL, NULL},
		{"tipUp", "tipDown", "proximityIn", "proximityOut"},
		{"buttonUp", "buttonDown", "proximityIn", "proximityOut"},
		{"hover", "proximityIn", "proximityOut", NULL},
		{"squeeze", "proximityIn", "proximityOut", NULL},
	};
	int result = add_filter(parameters, "events", wanted);
	struct json_object *array;
	if (result < 0 || !wanted || !json_object_object_get_ex(parameters, "events", &array))
		return result;
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		if (!listed(wanted, needs[i][0]))
			continue;
		for (size_t j = 1; j < 4 && needs[i][j]; j++) {
			bool present = false;
			for (size_t k = 0; k < json_object_array_length(array); k++)
				if (strcmp(json_object_get_string(json_object_array_get_idx(array, k)), needs[i][j]) == 0)
					present = true;
			struct json_object *text = present ? NULL : json_object_new_string(needs[i][j]);
			if (!present && (!text || json_object_array_add(array, text) != 0)) {
				json_object_put(text);
				return -ENOMEM;
			}
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
	    (result = add_event_filter(parameters, pencil->events)) == 0)
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
	event->synthesized = true;
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
	closeout_observe(&pencil->open, event);
	if (pencil->events && !listed(pencil->events, pencil_event_get_type_name(event)))
		pencil_event_destroy(event); /* asked for the close-out's sake only */
	else
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
