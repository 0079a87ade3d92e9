#pragma once
#include <json-c/json.h>

#include "pencil.h"

/* The event as a new JSON object (the caller puts it), from the library's accessors only. */
struct json_object *event_json(const struct pencil_event *event);
