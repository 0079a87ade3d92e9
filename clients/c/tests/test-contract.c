/*
 * test-contract CASES: the contract's close-out cases (tests/contract/closeout.jsonl,
 * docs/protocol.md "When pencild goes away"), run on the library's own decoding and
 * close-out, as the Swift and Python libraries run them. Prints what differs; exits 1 then.
 */
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event-json.h"
#include "private.h"

static void add(struct json_object *object, const char *key, struct json_object *value)
{
	json_object_object_add(object, key, value);
}

/* The members of a stream line that the cases compare. */
static struct json_object *compared_part(struct json_object *line)
{
	static const char *const members[] = {"type", "time", "device", "tool", "pose", "button", "phase", "action", "focus"};
	struct json_object *object = json_object_new_object(), *value;
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
		if (json_object_object_get_ex(line, members[i], &value))
			add(object, members[i], json_object_get(value));
	return object;
}

/* An event as the cases write it: as pencil-events prints it, in the part the cases compare. */
static struct json_object *canonical(const struct pencil_event *event)
{
	struct json_object *whole = event_json(event), *part = compared_part(whole);
	json_object_put(whole);
	return part;
}

/* JSON equality with numbers compared as numbers (0 equals 0.0), members in any order. */
static bool same(struct json_object *a, struct json_object *b)
{
	enum json_type ta = json_object_get_type(a), tb = json_object_get_type(b);
	bool numbers = (ta == json_type_int || ta == json_type_double) && (tb == json_type_int || tb == json_type_double);
	if (numbers) {
		if (ta == json_type_int && tb == json_type_int)
			return json_object_get_int64(a) == json_object_get_int64(b);
		return json_object_get_double(a) == json_object_get_double(b);
	}
	if (ta != tb)
		return false;
	switch (ta) {
	case json_type_object: {
		if (json_object_object_length(a) != json_object_object_length(b))
			return false;
		json_object_object_foreach(a, key, value) {
			struct json_object *other;
			if (!json_object_object_get_ex(b, key, &other) || !same(value, other))
				return false;
		}
		return true;
	}
	case json_type_array:
		if (json_object_array_length(a) != json_object_array_length(b))
			return false;
		for (size_t i = 0; i < json_object_array_length(a); i++)
			if (!same(json_object_array_get_idx(a, i), json_object_array_get_idx(b, i)))
				return false;
		return true;
	case json_type_string:
		return strcmp(json_object_get_string(a), json_object_get_string(b)) == 0;
	case json_type_boolean:
		return json_object_get_boolean(a) == json_object_get_boolean(b);
	default:
		return true;
	}
}

static const char *text(struct json_object *value)
{
	return json_object_to_json_string_ext(value, JSON_C_TO_STRING_PLAIN);
}

/* Runs one case; the number of differences, each printed. */
static int run(struct json_object *test, bool quiet)
{
	struct json_object *stream, *decoded = NULL, *closing, *name;
	json_object_object_get_ex(test, "case", &name);
	if (!json_object_object_get_ex(test, "stream", &stream) || !json_object_object_get_ex(test, "closing", &closing)) {
		printf("FAIL: a case without stream or closing: %s\n", text(test));
		return 1;
	}
	json_object_object_get_ex(test, "decoded", &decoded);
	int problems = 0;
	struct closeout open = {0};
	bool ended = false; /* a refused line ends the stream: later lines are decoded, not followed */
	for (size_t i = 0; i < json_object_array_length(stream); i++) {
		struct json_object *line = json_object_array_get_idx(stream, i);
		struct pencil_event *event = NULL;
		int result = event_decode(line, &event);
		if (result == -ENOMEM) {
			printf("FAIL: out of memory\n");
			return problems + 1;
		}
		struct json_object *got = result < 0 ? NULL : canonical(event);
		if (!got) {
			got = json_object_new_object();
			add(got, "rejected", json_object_new_boolean(1));
		}
		struct json_object *expected = decoded ? json_object_get(json_object_array_get_idx(decoded, i)) : compared_part(line);
		if (!same(got, expected)) {
			problems++;
			if (!quiet)
				printf("FAIL: %s: line %zu: decoded %s\n", json_object_get_string(name), i, text(got));
		}
		json_object_put(got);
		json_object_put(expected);
		ended = ended || !event;
		if (!ended)
			closeout_observe(&open, event);
		pencil_event_destroy(event);
	}
	struct pencil_event *events = NULL;
	if (closeout_close(&open, NULL, &events) < 0) {
		printf("FAIL: out of memory\n");
		return problems + 1;
	}
	struct json_object *got = json_object_new_array();
	bool all_synthesized = true;
	while (events) {
		struct pencil_event *next = events->next;
		json_object_array_add(got, canonical(events));
		all_synthesized = all_synthesized && pencil_event_is_synthesized(events);
		pencil_event_destroy(events);
		events = next;
	}
	if (!all_synthesized) {
		problems++;
		if (!quiet)
			printf("FAIL: %s: a closing event is not marked synthesized\n", json_object_get_string(name));
	}
	if (!same(got, closing)) {
		problems++;
		if (!quiet)
			printf("FAIL: %s:\n  closing  %s\n  expected %s\n", json_object_get_string(name), text(got), text(closing));
	}
	json_object_put(got);
	return problems;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CASES\n", argv[0]);
		return 2;
	}
	FILE *file = fopen(argv[1], "r");
	if (!file) {
		printf("FAIL: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	int failures = 0, count = 0;
	char *line = NULL;
	size_t size = 0;
	struct json_object *drawing = NULL;
	while (getline(&line, &size, file) > 0) {
		struct json_object *test = json_tokener_parse(line);
		if (!test) {
			printf("FAIL: case %d is not JSON\n", count + 1);
			failures++;
			continue;
		}
		count++;
		failures += run(test, false) > 0;
		struct json_object *name;
		if (!drawing && json_object_object_get_ex(test, "case", &name) && strncmp(json_object_get_string(name), "drawing", 7) == 0)
			drawing = json_object_get(test);
		json_object_put(test);
	}
	free(line);
	fclose(file);

	/* Positive control: the comparison catches a wrong order and a wrong pressure. */
	if (count <= 10 || !drawing) {
		printf("FAIL: %d cases, the drawing case %s\n", count, drawing ? "found" : "missing");
		failures++;
	} else {
		/* Each change on a fresh copy of the case. */
		struct json_object *order = json_tokener_parse(text(drawing)), *closing, *pose;
		json_object_object_get_ex(order, "closing", &closing);
		struct json_object *first = json_object_get(json_object_array_get_idx(closing, 1));
		struct json_object *second = json_object_get(json_object_array_get_idx(closing, 2));
		json_object_array_put_idx(closing, 1, second);
		json_object_array_put_idx(closing, 2, first);
		if (run(order, true) == 0) {
			printf("FAIL: the buttons' order is not checked\n");
			failures++;
		}
		json_object_put(order);
		struct json_object *pressure = json_tokener_parse(text(drawing));
		json_object_object_get_ex(pressure, "closing", &closing);
		json_object_object_get_ex(json_object_array_get_idx(closing, 0), "pose", &pose);
		json_object_object_add(pose, "pressure", json_object_new_double(0.6));
		if (run(pressure, true) == 0) {
			printf("FAIL: the tipUp's pressure is not checked\n");
			failures++;
		}
		json_object_put(pressure);
		if (run(drawing, true) != 0) {
			printf("FAIL: the drawing case fails\n");
			failures++;
		}
		json_object_put(drawing);
	}
	printf("%d cases, %d failed\n", count, failures);
	return failures > 0;
}
