/* The system palette on GNOME Shell, which offers no program a surface above the others (no
 * layer shell): pencil-palette asks the Shell, over the session bus, to draw it. The card
 * is the Shell's own (St), over a cover of the whole monitor that takes the pointer, the pen,
 * touch and the keyboard while it is open (a modal grab), so that a tap outside closes it and
 * reaches no app; the rules are docs/gestures.md's "Which app acts: the system palette".
 *
 * org.pencild.Palette1 at /org/pencild/Palette:
 *   Show(s request) -> (s shown)   request: pencil-palette's request (checked here again);
 *                                  shown: the card's and each item's place, once it is drawn
 *   Close(s reason)                "again", "away" or "ended", from the one who showed it
 *   Ended(s outcome)               {"chosen": ID} or {"closed": REASON}, sent to that caller only
 * One palette at a time; it ends too when its caller leaves the bus or the extension is
 * turned off. Nothing in a request is trusted: its size, its items and their labels are
 * bounded, and a label is plain text. */
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Shell from 'gi://Shell';
import St from 'gi://St';

import * as Main from 'resource:///org/gnome/shell/ui/main.js';

export const PALETTE_PATH = '/org/pencild/Palette';
const INTERFACE = 'org.pencild.Palette1';
const INTERFACE_XML = `<node><interface name="${INTERFACE}">
  <method name="Show"><arg type="s" name="request" direction="in"/><arg type="s" name="shown" direction="out"/></method>
  <method name="Close"><arg type="s" name="reason" direction="in"/></method>
  <signal name="Ended"><arg type="s" name="outcome"/></signal>
</interface></node>`;

// The same bounds as pencil-palette's (apps/palette/pencil_palette/request.py).
const MAX_REQUEST_BYTES = 64 * 1024;
const MAX_ITEMS = 32;
const MAX_LABEL_CHARACTERS = 64;
const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const CLOSE_REASONS = ['again', 'away', 'ended'];
const TOOLS = 'tools';
const EDIT = 'edit';
const GROUP_TITLES = {color: 'Color', ink: 'Ink', action: 'Actions'};
const MARGIN = 8;
// Any control character shown as a space: a label is one line.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

class RequestError extends Error {}

function plainLabel(text) {
    const chars = [...text.replace(CONTROL, ' ').split(/\s+/).filter(word => word).join(' ')];
    if (chars.length <= MAX_LABEL_CHARACTERS)
        return chars.join('');
    return `${chars.slice(0, MAX_LABEL_CHARACTERS - 1).join('').trimEnd()}\u2026`;
}

function nameField(value, where) {
    if (typeof value !== 'string' || !ID_PATTERN.test(value))
        throw new RequestError(`${where}: expected 1 to 64 of letters, digits, '.', '_' and '-'`);
    return value;
}

/* The request, checked as pencil-palette checks it. */
export function parseRequest(text) {
    if (typeof text !== 'string' || text.length > MAX_REQUEST_BYTES)
        throw new RequestError(`request: longer than ${MAX_REQUEST_BYTES} bytes`);
    let document;
    try {
        document = JSON.parse(text);
    } catch (e) {
        throw new RequestError('request: not JSON');
    }
    if (document === null || typeof document !== 'object' || Array.isArray(document))
        throw new RequestError('request: expected a JSON object');
    const items = document.items;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS)
        throw new RequestError(`items: expected a list of 1 to ${MAX_ITEMS} items`);
    const seen = new Set();
    const parsed = items.map((item, index) => {
        const where = `items[${index}]`;
        if (item === null || typeof item !== 'object')
            throw new RequestError(`${where}: expected an object`);
        const id = nameField(item.id, `${where}.id`);
        if (seen.has(id))
            throw new RequestError(`${where}.id: ${id} twice`);
        seen.add(id);
        if (typeof item.label !== 'string' || !plainLabel(item.label))
            throw new RequestError(`${where}.label: expected a string`);
        const group = item.group === undefined || item.group === null ? 'action' : nameField(item.group, `${where}.group`);
        if (item.checked !== undefined && typeof item.checked !== 'boolean')
            throw new RequestError(`${where}.checked: expected true or false`);
        return {id, label: plainLabel(item.label), group, checked: item.checked === true};
    });
    let pen = null;
    if (document.pen !== undefined && document.pen !== null) {
        const {x, y} = document.pen;
        if (![x, y].every(n => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1))
            throw new RequestError('pen: expected x and y from 0 to 1');
        pen = [x, y];
    }
    const app = typeof document.app === 'string' ? plainLabel(document.app) || null : null;
    const openAt = typeof document.open_at === 'string' && ID_PATTERN.test(document.open_at) ? document.open_at : null;
    return {app, pen, openAt, items: parsed};
}

/* The groups in the order the card shows them: tools, edit, then as they come. */
function groupsOf(items) {
    const seen = [];
    for (const item of items) {
        if (!seen.includes(item.group))
            seen.push(item.group);
    }
    const first = [TOOLS, EDIT].filter(name => seen.includes(name));
    return [...first, ...seen.filter(name => !first.includes(name))];
}

function groupTitle(group) {
    return GROUP_TITLES[group] ?? group.charAt(0).toUpperCase() + group.slice(1).replace(/[_-]/g, ' ');
}

/* The app as a person knows it: its desktop file's name, else the id as it came. */
function appName(app) {
    const system = Shell.AppSystem.get_default();
    const found = system.lookup_app(`${app}.desktop`) ?? system.lookup_app(`${app.toLowerCase()}.desktop`) ??
        system.lookup_desktop_wmclass(app);
    return found ? found.get_name() : app;
}

/* A box laid out along `vertical` or across: GNOME Shell 48 names this `orientation`, and
 * 45 to 47 know only `vertical`. */
function box(vertical, properties) {
    const made = new St.BoxLayout(properties);
    if ('orientation' in St.BoxLayout.prototype)
        made.orientation = vertical ? Clutter.Orientation.VERTICAL : Clutter.Orientation.HORIZONTAL;
    else
        made.vertical = vertical;
    return made;
}

/* Where the card's top-left goes along one axis: centred on the pen, whole on the monitor. */
function along(centre, length, screenLength) {
    const start = Math.round(centre - length / 2);
    return Math.max(MARGIN, Math.min(start, screenLength - MARGIN - length));
}

const CARD_STYLE = 'background-color: rgba(250, 250, 250, 0.98); color: #222; border: 1px solid rgba(0, 0, 0, 0.18); ' +
    'border-radius: 12px; padding: 8px; spacing: 6px; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.25);';
// The card's own colours on every Shell theme (a theme's dark buttons on the light card would
// hide their labels): an inline style wins over the theme's, its :hover included, so the item
// a tap would take is marked here (`_restyle`).
const BUTTON_SHAPE = 'min-height: 32px; padding: 2px 10px; border-radius: 6px;';
function buttonStyle(checked, marked) {
    if (checked)
        return `${BUTTON_SHAPE} color: white; background-color: ${marked ? '#1c71d8' : '#3584e4'};`;
    return `${BUTTON_SHAPE} color: #222; background-color: ${marked ? 'rgba(53, 132, 228, 0.25)' : 'rgba(0, 0, 0, 0.07)'};`;
}

/* One palette on screen: the cover, the card, the grab. `ended(outcome)` once. */
class Palette {
    constructor(request, ended) {
        this._ended = ended;
        this._done = false;
        this._keyboardUsed = false;
        this._buttons = new Map();
        const monitor = Main.layoutManager.primaryMonitor;
        this._monitor = monitor;
        // Transparent and reactive over the whole monitor: a tap that misses the card lands
        // here, and goes to no app.
        this._cover = new St.Widget({
            name: 'pencil-palette', reactive: true, can_focus: true,
            x: monitor.x, y: monitor.y, width: monitor.width, height: monitor.height,
        });
        this._card = box(true, {style: CARD_STYLE, reactive: true});
        this._card.set_accessible_name(request.app ? `Palette for ${appName(request.app)}` : 'Pen palette');
        if (request.app) {
            this._card.add_child(new St.Label({text: appName(request.app), style: 'color: #666; margin: 2px 6px 0 6px;'}));
        }
        const groups = groupsOf(request.items);
        const appGroups = groups.filter(group => group !== TOOLS && group !== EDIT);
        groups.forEach(group => {
            const items = request.items.filter(item => item.group === group);
            if (group === TOOLS || group === EDIT) {
                const row = box(false, {style: 'spacing: 2px;'});
                items.forEach(item => row.add_child(this._button(item, true)));
                this._card.add_child(row);
                return;
            }
            if (appGroups.length > 1)
                this._card.add_child(new St.Label({text: groupTitle(group), style: 'color: #666; font-size: smaller; margin: 4px 6px 0 6px;'}));
            items.forEach(item => this._card.add_child(this._button(item, false)));
        });
        this._cover.add_child(this._card);
        Main.layoutManager.addTopChrome(this._cover);
        this._place(request.pen);

        this._cover.connect('button-release-event', (_actor, event) => this._maybeOutside(event));
        this._cover.connect('touch-event', (_actor, event) => {
            if (event.type() === Clutter.EventType.TOUCH_END)
                return this._maybeOutside(event);
            return Clutter.EVENT_PROPAGATE;
        });
        this._cover.connect('key-press-event', (_actor, event) => this._keyPressed(event));
        this._grab = Main.pushModal(this._cover, {actionMode: Shell.ActionMode.POPUP});
        // GNOME Shell 45 to 48 say whether the grab took the seat; later ones have no
        // Clutter.GrabState and keep that to themselves.
        const none = Clutter.GrabState?.NONE;
        if (none !== undefined && typeof this._grab.get_seat_state === 'function' && this._grab.get_seat_state() === none) {
            this._release();
            throw new Error('another grab holds the pointer and the keyboard');
        }
        this._focusFirst(request);
    }

    _button(item, inRow) {
        const button = new St.Button({
            label: item.label, style_class: 'button', style: buttonStyle(item.checked, false), can_focus: true, track_hover: true,
            reactive: true,
            toggle_mode: item.group === TOOLS, checked: item.checked, x_expand: inRow,
            x_align: inRow ? Clutter.ActorAlign.FILL : Clutter.ActorAlign.START,
        });
        button.set_accessible_name(item.label);
        button.connect('clicked', () => this._end({chosen: item.id}));
        for (const change of ['notify::hover', 'key-focus-in', 'key-focus-out'])
            button.connect(change, () => this._restyle(button, item));
        this._buttons.set(item.id, button);
        return button;
    }

    /* Marked: under the pen or the pointer, or the keyboard's once an arrow has moved it (the
     * first item has the keyboard from the start, unmarked, as in pencil-palette's card). */
    _restyle(button, item) {
        button.style = buttonStyle(item.checked, button.hover || (this._keyboardUsed && button.has_key_focus()));
    }

    _place(pen) {
        const [, width] = this._card.get_preferred_width(-1);
        const [, height] = this._card.get_preferred_height(width);
        const [fx, fy] = pen ?? [0.5, 0.5];
        this._card.set_position(along(fx * this._monitor.width, width, this._monitor.width),
            along(fy * this._monitor.height, height, this._monitor.height));
    }

    _focusFirst(request) {
        const inGroup = group => request.items.filter(item => item.group === group);
        const first = (request.openAt ? inGroup(request.openAt)[0] : null) ??
            inGroup(TOOLS).find(item => item.checked) ?? request.items[0];
        this._buttons.get(first.id)?.grab_key_focus();
    }

    _inside(x, y) {
        const [left, top] = this._card.get_transformed_position();
        const [width, height] = this._card.get_transformed_size();
        return x >= left && x < left + width && y >= top && y < top + height;
    }

    _maybeOutside(event) {
        const [x, y] = event.get_coords();
        if (!this._inside(x, y))
            this._end({closed: 'outside'});
        return Clutter.EVENT_STOP;
    }

    _keyPressed(event) {
        const symbol = event.get_key_symbol();
        if (symbol === Clutter.KEY_Escape) {
            this._end({closed: 'escape'});
            return Clutter.EVENT_STOP;
        }
        const directions = {
            [Clutter.KEY_Up]: St.DirectionType.UP, [Clutter.KEY_Down]: St.DirectionType.DOWN,
            [Clutter.KEY_Left]: St.DirectionType.LEFT, [Clutter.KEY_Right]: St.DirectionType.RIGHT,
        };
        if (symbol in directions) {
            // Before the move: the item the focus moves to marks itself as it takes it.
            this._keyboardUsed = true;
            this._card.navigate_focus(global.stage.get_key_focus(), directions[symbol], false);
            return Clutter.EVENT_STOP;
        }
        return Clutter.EVENT_PROPAGATE;
    }

    /* The card's place and each item's, relative to the monitor, once a frame shows them;
     * `closed` instead when it ended before. */
    whenShown(callback, closed) {
        const handler = global.stage.connect('after-paint', () => {
            global.stage.disconnect(handler);
            if (this._done) {
                closed();
                return;
            }
            const place = actor => {
                const [x, y] = actor.get_transformed_position();
                const [width, height] = actor.get_transformed_size();
                return {x: Math.round(x - this._monitor.x), y: Math.round(y - this._monitor.y),
                    width: Math.round(width), height: Math.round(height)};
            };
            const items = {};
            for (const [id, button] of this._buttons)
                items[id] = place(button);
            callback({...place(this._card), screen: {width: this._monitor.width, height: this._monitor.height},
                route: 'gnome-shell', items});
        });
        this._cover.queue_redraw();
    }

    close(reason) {
        this._end({closed: reason});
    }

    _end(outcome) {
        if (this._done)
            return;
        this._release();
        this._ended(outcome);
    }

    _release() {
        this._done = true;
        if (this._grab) {
            Main.popModal(this._grab);
            this._grab = null;
        }
        this._cover.destroy();
    }
}

/* The bus side: who may show and close, and to whom the outcome goes. */
export class PaletteService {
    enable() {
        this._palette = null;
        this._caller = null;
        this._callerWatch = 0;
        this._object = Gio.DBusExportedObject.wrapJSObject(INTERFACE_XML, this);
        this._object.export(Gio.DBus.session, PALETTE_PATH);
    }

    disable() {
        this._palette?.close('ended');
        this._object.unexport();
        this._object = null;
    }

    ShowAsync([text], invocation) {
        if (this._palette) {
            invocation.return_dbus_error(`${INTERFACE}.Error.Busy`, 'a palette is open already');
            return;
        }
        let request;
        try {
            request = parseRequest(text);
        } catch (e) {
            if (!(e instanceof RequestError))
                throw e;
            invocation.return_dbus_error(`${INTERFACE}.Error.BadRequest`, e.message);
            return;
        }
        const caller = invocation.get_sender();
        try {
            this._palette = new Palette(request, outcome => this._ended(outcome));
        } catch (e) {
            this._palette = null;
            invocation.return_dbus_error(`${INTERFACE}.Error.CannotOpen`, e.message);
            return;
        }
        this._caller = caller;
        // A caller that leaves the bus leaves nobody to tell: its palette closes.
        this._callerWatch = Gio.bus_watch_name_on_connection(Gio.DBus.session, caller, Gio.BusNameWatcherFlags.NONE,
            null, () => this._palette?.close('ended'));
        this._palette.whenShown(shown => invocation.return_value(new GLib.Variant('(s)', [JSON.stringify(shown)])),
            () => invocation.return_dbus_error(`${INTERFACE}.Error.Closed`, 'the palette closed before it was shown'));
    }

    CloseAsync([reason], invocation) {
        if (!this._palette || invocation.get_sender() !== this._caller) {
            invocation.return_dbus_error('org.freedesktop.DBus.Error.AccessDenied', 'only the one who showed the palette closes it');
            return;
        }
        this._palette.close(CLOSE_REASONS.includes(reason) ? reason : 'ended');
        invocation.return_value(null);
    }

    _ended(outcome) {
        const caller = this._caller;
        this._palette = null;
        this._caller = null;
        if (this._callerWatch) {
            Gio.bus_unwatch_name(this._callerWatch);
            this._callerWatch = 0;
        }
        if (caller) {
            Gio.DBus.session.emit_signal(caller, PALETTE_PATH, INTERFACE, 'Ended',
                new GLib.Variant('(s)', [JSON.stringify(outcome)]));
        }
    }
}
