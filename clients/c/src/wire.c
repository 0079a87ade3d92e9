/* varlink on a Unix socket: NUL-terminated JSON messages, calls and replies. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "private.h"

int64_t monotonic_usec(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

/* ---- framing ---- */

int framer_init(struct framer *framer, size_t maximum)
{
	memset(framer, 0, sizeof(*framer));
	framer->maximum = maximum;
	framer->tokener = json_tokener_new_ex(PENCIL_JSON_DEPTH);
	if (!framer->tokener)
		return -ENOMEM;
	/* Strict JSON (no comments, no trailing commas) in valid UTF-8. */
	json_tokener_set_flags(framer->tokener, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	return 0;
}

void framer_release(struct framer *framer)
{
	free(framer->data);
	if (framer->tokener)
		json_tokener_free(framer->tokener);
	memset(framer, 0, sizeof(*framer));
}

void framer_reset(struct framer *framer)
{
	framer->start = framer->length = 0;
	json_tokener_reset(framer->tokener);
}

long framer_reserve(struct framer *framer, size_t want)
{
	if (framer->start > 0 && framer->start + framer->length + want > framer->capacity) {
		memmove(framer->data, framer->data + framer->start, framer->length);
		framer->start = 0;
	}
	if (framer->length + want > framer->capacity) {
		/* One message plus the read that may follow it, at most. */
		size_t capacity = framer->capacity ? framer->capacity : 4096;
		while (capacity < framer->length + want)
			capacity *= 2;
		char *data = realloc(framer->data, capacity);
		if (!data)
			return -ENOMEM;
		framer->data = data;
		framer->capacity = capacity;
	}
	return (long)(framer->capacity - framer->start - framer->length);
}

int framer_next(struct framer *framer, struct json_object **message)
{
	char *begin = framer->data + framer->start;
	char *end = framer->length ? memchr(begin, '\0', framer->length) : NULL;
	if (!end)
		return framer->length > framer->maximum ? -EMSGSIZE : 0;
	size_t size = (size_t)(end - begin);
	if (size > framer->maximum)
		return -EMSGSIZE;
	framer->start += size + 1;
	framer->length -= size + 1;
	if (framer->length == 0)
		framer->start = 0;

	json_tokener_reset(framer->tokener);
	struct json_object *object = json_tokener_parse_ex(framer->tokener, begin, (int)size);
	if (!object || json_tokener_get_error(framer->tokener) != json_tokener_success ||
	    json_tokener_get_parse_end(framer->tokener) != size) {
		json_object_put(object);
		return -EBADMSG;
	}
	*message = object;
	return 1;
}

/* ---- calls and replies ---- */

int call_encode(const char *method, struct json_object *parameters, bool more, char **out, size_t *length)
{
	struct json_object *call = json_object_new_object();
	struct json_object *name = json_object_new_string(method);
	int result = -ENOMEM;
	if (!call || !name || json_object_object_add(call, "method", name) != 0) {
		json_object_put(name);
		goto done;
	}
	if (parameters && json_object_object_add(call, "parameters", json_object_get(parameters)) != 0) {
		json_object_put(parameters);
		goto done;
	}
	if (more) {
		struct json_object *flag = json_object_new_boolean(1);
		if (!flag || json_object_object_add(call, "more", flag) != 0) {
			json_object_put(flag);
			goto done;
		}
	}
	size_t size;
	const char *text = json_object_to_json_string_length(call, JSON_C_TO_STRING_PLAIN, &size);
	if (!text)
		goto done;
	result = -E2BIG;
	if (size + 1 > PENCIL_MAX_CALL)
		goto done;
	result = -ENOMEM;
	*out = malloc(size + 1);
	if (!*out)
		goto done;
	memcpy(*out, text, size + 1); /* the terminating NUL is the varlink delimiter */
	*length = size + 1;
	result = 0;
done:
	json_object_put(call);
	return result;
}

int reply_parse(struct json_object *reply, const char **error_name, struct json_object **parameters,
		bool *continues)
{
	struct json_object *value;
	*error_name = NULL;
	*parameters = NULL;
	*continues = false;
	if (!json_object_is_type(reply, json_type_object))
		return -EBADMSG;
	if (json_object_object_get_ex(reply, "error", &value)) {
		if (!(*error_name = json_bounded_string(value)))
			return -EBADMSG;
	}
	if (json_object_object_get_ex(reply, "parameters", &value) && value) {
		if (!json_object_is_type(value, json_type_object))
			return -EBADMSG;
		*parameters = value;
	}
	if (json_object_object_get_ex(reply, "continues", &value) && value) {
		if (!json_object_is_type(value, json_type_boolean))
			return -EBADMSG;
		*continues = json_object_get_boolean(value);
	}
	return 0;
}

/* ---- sockets ---- */

int socket_connect(const char *path)
{
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(address.sun_path))
		return -ENAMETOOLONG;
	strcpy(address.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&address, sizeof(address)) < 0) {
		/* A Unix socket connects at once or not at all; EAGAIN is a full backlog. */
		int error = errno;
		close(fd);
		return -error;
	}
	return fd;
}

/* Waits for fd to become ready for events until deadline (monotonic µs): 0, -ETIMEDOUT. */
static int wait_ready(int fd, short events, int64_t deadline)
{
	for (;;) {
		int64_t left = deadline - monotonic_usec();
		if (left <= 0)
			return -ETIMEDOUT;
		struct pollfd poller = {.fd = fd, .events = events};
		int ready = poll(&poller, 1, (int)((left + 999) / 1000));
		if (ready > 0)
			return 0;
		if (ready < 0 && errno != EINTR)
			return -errno;
	}
}

static struct pencil_error *connection_error(const char *path, int code)
{
	if (code == -ETIMEDOUT)
		return error_new(PENCIL_ERROR_TIMEOUT, code, "pencild at %s did not answer in time", path);
	return error_new(PENCIL_ERROR_CONNECTION, code, "pencild at %s: %s", path, strerror(-code));
}

int sync_call(const char *path, int timeout_ms, const char *method, struct json_object *parameters,
	      struct json_object **reply_parameters, struct pencil_error **error)
{
	int64_t deadline = monotonic_usec() + (int64_t)timeout_ms * 1000;
	struct json_object *reply = NULL;
	struct framer framer;
	char *call = NULL;
	size_t call_length = 0, sent = 0;
	int fd = -1, result;

	if ((result = framer_init(&framer, PENCIL_MAX_MESSAGE)) < 0)
		return result;
	if ((result = call_encode(method, parameters, false, &call, &call_length)) < 0)
		goto done;
	if ((fd = socket_connect(path)) < 0) {
		result = error_give(connection_error(path, fd), error, fd);
		goto done;
	}
	int send_error = 0;
	while (sent < call_length) {
		ssize_t count = send(fd, call + sent, call_length - sent, MSG_NOSIGNAL);
		if (count >= 0) {
			sent += (size_t)count;
		} else if (errno == EAGAIN || errno == EINTR) {
			if ((result = wait_ready(fd, POLLOUT, deadline)) < 0)
				goto connection_failed;
		} else if (errno == EPIPE || errno == ECONNRESET) {
			/* Closed by the daemon, which may have said why first (PermissionDenied): read it. */
			send_error = -errno;
			break;
		} else {
			result = -errno;
			goto connection_failed;
		}
	}
	for (;;) {
		result = framer_next(&framer, &reply);
		if (result == 1)
			break;
		if (result < 0)
			goto protocol_failed;
		long room = framer_reserve(&framer, 16384);
		if (room < 0) {
			result = (int)room;
			goto done;
		}
		ssize_t count = recv(fd, framer.data + framer.start + framer.length, (size_t)room, 0);
		if (count > 0) {
			framer.length += (size_t)count;
		} else if (count == 0) {
			result = send_error ? send_error : -EPIPE;
			goto connection_failed;
		} else if (errno == EAGAIN || errno == EINTR) {
			if ((result = wait_ready(fd, POLLIN, deadline)) < 0)
				goto connection_failed;
		} else {
			result = -errno;
			goto connection_failed;
		}
	}

	const char *error_name;
	struct json_object *reply_object;
	bool continues;
	if ((result = reply_parse(reply, &error_name, &reply_object, &continues)) < 0)
		goto protocol_failed;
	if (error_name) {
		result = error_give(error_from_reply(error_name, reply_object), error, -ENOMEM);
		goto done;
	}
	*reply_parameters = reply_object ? json_object_get(reply_object) : json_object_new_object();
	result = *reply_parameters ? 0 : -ENOMEM;
	goto done;

connection_failed:
	result = error_give(connection_error(path, result), error, result);
	goto done;
protocol_failed:
	result = error_give(error_new(PENCIL_ERROR_PROTOCOL, result, "pencild at %s: %s reply: %s", path, method,
				      result == -EMSGSIZE ? "longer than 1 MiB" : "not the protocol's"),
			    error, result);
done:
	json_object_put(reply);
	if (fd >= 0)
		close(fd);
	free(call);
	framer_release(&framer);
	return result;
}
