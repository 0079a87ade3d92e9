/* What a stream has opened and not closed, per device, and the events that close it when the
 * stream ends (docs/protocol.md, "When pencild goes away"). tests/contract holds the cases
 * every library passes; the rules are the same in the Swift and Python libraries. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* The one tool in proximity of a device (a device has at most one) and what it holds open. */
struct open_tool {
	struct tool tool;
	bool has_pose;
	struct pose pose;
	bool tip_down, hovering, squeezing;
	struct name squeeze_focus;
	struct name buttons[PENCIL_MAX_HELD_BUTTONS]; /* in the order they were pressed */
	size_t button_count;
};

struct track {
	char *device;
	int64_t time; /* the latest of the device's events: closing events carry it */
	bool timed;
	bool added;
	bool in_proximity;
	struct open_tool open;
	struct track *next;
};

static void open_tool_clear(struct open_tool *open)
{
	tool_clear(&open->tool);
	name_clear(&open->squeeze_focus);
	for (size_t i = 0; i < open->button_count; i++)
		name_clear(&open->buttons[i]);
	memset(open, 0, sizeof(*open));
}

static void track_free(struct track *track)
{
	free(track->device);
	open_tool_clear(&track->open);
	free(track);
}

void closeout_clear(struct closeout *closeout)
{
	while (closeout->tracks) {
		struct track *next = closeout->tracks->next;
		track_free(closeout->tracks);
		closeout->tracks = next;
	}
	closeout->count = 0;
}

static struct track *track_find(struct closeout *closeout, const char *device, bool create)
{
	struct track **link = &closeout->tracks;
	for (; *link; link = &(*link)->next)
		if (strcmp((*link)->device, device) == 0)
			return *link;
	if (!create || closeout->count >= PENCIL_MAX_TRACKED_DEVICES)
		return NULL;
	struct track *track = calloc(1, sizeof(*track));
	if (!track || !(track->device = strdup(device))) {
		free(track);
		return NULL;
	}
	*link = track; /* at the end: closing goes in the order devices appeared */
	closeout->count++;
	return track;
}

static void track_remove(struct closeout *closeout, struct track *gone)
{
	for (struct track **link = &closeout->tracks; *link; link = &(*link)->next)
		if (*link == gone) {
			*link = gone->next;
			track_free(gone);
			closeout->count--;
			return;
		}
}

static bool same_name(const struct name *a, const struct name *b)
{
	if (a->value != b->value)
		return false;
	return a->value >= 0 || strcmp(a->text, b->text) == 0;
}

/* The contract's "same tool": the same type and serial. */
static bool same_tool(const struct tool *a, const struct tool *b)
{
	return same_name(&a->type, &b->type) && a->serial == b->serial;
}

/* Follows one event. Out of memory only loses what could have been closed later. */
void closeout_observe(struct closeout *closeout, const struct pencil_event *event)
{
	if (!event->device)
		return;
	int type = event->type.value;
	struct track *track = track_find(closeout, event->device, type != PENCIL_EVENT_DEVICE_REMOVED);
	if (!track)
		return;
	if (type == PENCIL_EVENT_DEVICE_REMOVED) {
		track_remove(closeout, track);
		return;
	}
	if (!track->timed || event->time > track->time)
		track->time = event->time;
	track->timed = true;
	if (type == PENCIL_EVENT_DEVICE_ADDED) {
		track->added = true;
		return;
	}
	if (!event->has_tool)
		return;
	struct open_tool *open = &track->open;
	if (type == PENCIL_EVENT_PROXIMITY_IN && (!track->in_proximity || !same_tool(&open->tool, &event->tool))) {
		/* A tool whose proximityOut never came is forgotten with what it had open. */
		open_tool_clear(open);
		track->in_proximity = tool_copy(&open->tool, &event->tool) == 0;
	}
	if (!track->in_proximity || !same_tool(&open->tool, &event->tool))
		return;
	struct tool copy = {0};
	if (tool_copy(&copy, &event->tool) == 0) {
		tool_clear(&open->tool);
		open->tool = copy;
	}
	if (event->has_pose) {
		open->pose = event->pose;
		open->has_pose = true;
	}
	int phase = event->phase.value;
	switch (type) {
	case PENCIL_EVENT_PROXIMITY_OUT:
		open_tool_clear(open);
		track->in_proximity = false;
		break;
	case PENCIL_EVENT_TIP_DOWN:
		open->tip_down = true;
		break;
	case PENCIL_EVENT_TIP_UP:
		open->tip_down = false;
		break;
	case PENCIL_EVENT_HOVER:
		if (phase == PENCIL_PHASE_BEGAN)
			open->hovering = true;
		else if (phase == PENCIL_PHASE_ENDED)
			open->hovering = false;
		break;
	case PENCIL_EVENT_BUTTON_DOWN:
	case PENCIL_EVENT_BUTTON_UP: {
		if (event->button.value == PENCIL_BUTTON_NONE)
			break;
		size_t i = 0;
		while (i < open->button_count && !same_name(&open->buttons[i], &event->button))
			i++;
		if (type == PENCIL_EVENT_BUTTON_DOWN && i == open->button_count &&
		    i < PENCIL_MAX_HELD_BUTTONS && name_copy(&open->buttons[i], &event->button) == 0)
			open->button_count++;
		if (type == PENCIL_EVENT_BUTTON_UP && i < open->button_count) {
			name_clear(&open->buttons[i]);
			memmove(&open->buttons[i], &open->buttons[i + 1],
				(open->button_count - i - 1) * sizeof(open->buttons[0]));
			memset(&open->buttons[--open->button_count], 0, sizeof(open->buttons[0]));
		}
		break;
	}
	case PENCIL_EVENT_SQUEEZE:
		if (phase == PENCIL_PHASE_BEGAN) {
			open->squeezing = true;
			name_clear(&open->squeeze_focus);
			name_copy(&open->squeeze_focus, &event->focus);
		} else if (phase == PENCIL_PHASE_ENDED || phase == PENCIL_PHASE_CANCELLED) {
			open->squeezing = false;
		}
		break;
	default:
		break;
	}
}

static bool wanted(char *const *wanted, enum pencil_event_type type)
{
	if (!wanted)
		return true;
	const char *name = pencil_event_type_to_name(type);
	for (char *const *item = wanted; *item; item++)
		if (strcmp(*item, name) == 0)
			return true;
	return false;
}

/* Appends one closing event to the list at *tail; NULL when out of memory. */
static struct pencil_event *closing(struct pencil_event ***tail, const struct track *track,
				    enum pencil_event_type type, bool with_tool)
{
	struct pencil_event *event = event_new();
	if (!event)
		return NULL;
	event->type.value = type;
	event->time = track->time;
	event->synthesized = true;
	**tail = event;
	*tail = &event->next;
	if (!(event->device = strdup(track->device)))
		return NULL;
	if (with_tool) {
		event->has_tool = true;
		if (tool_copy(&event->tool, &track->open.tool) < 0)
			return NULL;
		if (track->open.has_pose) {
			event->has_pose = true;
			event->pose = track->open.pose;
			/* Every closing event comes with the tip up. */
			event->pose.values[POSE_PRESSURE] = 0;
			event->pose.present |= 1u << POSE_PRESSURE;
		}
	}
	return event;
}

/* The buttons in the order they are released: the protocol's, then unknown names as pressed. */
static size_t release_order(const struct open_tool *open, const struct name *order[PENCIL_MAX_HELD_BUTTONS])
{
	size_t count = 0;
	static const int known[] = {PENCIL_BUTTON_STYLUS, PENCIL_BUTTON_STYLUS2, PENCIL_BUTTON_STYLUS3, PENCIL_BUTTON_ERASER};
	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
		for (size_t i = 0; i < open->button_count; i++)
			if (open->buttons[i].value == known[k])
				order[count++] = &open->buttons[i];
	for (size_t i = 0; i < open->button_count; i++)
		if (open->buttons[i].value < 0)
			order[count++] = &open->buttons[i];
	return count;
}

int closeout_close(struct closeout *closeout, char *const *types, struct pencil_event **out)
{
	struct pencil_event *head = NULL, **tail = &head;
	struct pencil_event *event;
	for (struct track *track = closeout->tracks; track; track = track->next) {
		struct open_tool *open = &track->open;
		if (track->in_proximity) {
			if (open->tip_down && wanted(types, PENCIL_EVENT_TIP_UP) &&
			    !closing(&tail, track, PENCIL_EVENT_TIP_UP, true))
				goto fail;
			const struct name *order[PENCIL_MAX_HELD_BUTTONS];
			size_t count = release_order(open, order);
			for (size_t i = 0; i < count && wanted(types, PENCIL_EVENT_BUTTON_UP); i++)
				if (!(event = closing(&tail, track, PENCIL_EVENT_BUTTON_UP, true)) ||
				    name_copy(&event->button, order[i]) < 0)
					goto fail;
			if (open->squeezing && wanted(types, PENCIL_EVENT_SQUEEZE)) {
				if (!(event = closing(&tail, track, PENCIL_EVENT_SQUEEZE, true)) ||
				    name_copy(&event->focus, &open->squeeze_focus) < 0)
					goto fail;
				event->phase.value = PENCIL_PHASE_CANCELLED;
			}
			if (open->hovering && wanted(types, PENCIL_EVENT_HOVER)) {
				if (!(event = closing(&tail, track, PENCIL_EVENT_HOVER, true)))
					goto fail;
				event->phase.value = PENCIL_PHASE_ENDED;
			}
			if (wanted(types, PENCIL_EVENT_PROXIMITY_OUT) && !closing(&tail, track, PENCIL_EVENT_PROXIMITY_OUT, true))
				goto fail;
		}
		if (track->added && wanted(types, PENCIL_EVENT_DEVICE_REMOVED) &&
		    !closing(&tail, track, PENCIL_EVENT_DEVICE_REMOVED, false))
			goto fail;
	}
	closeout_clear(closeout);
	*out = head;
	return 0;
fail:
	while (head) {
		struct pencil_event *next = head->next;
		pencil_event_destroy(head);
		head = next;
	}
	closeout_clear(closeout);
	*out = NULL;
	return -ENOMEM;
}
