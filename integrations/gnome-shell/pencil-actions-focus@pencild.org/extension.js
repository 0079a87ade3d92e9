/* pencil-actions focus: tells pencil-actions (org.pencild.Actions on the session bus) the
 * app id of the focused window whenever it changes, and when pencil-actions (re)starts; and
 * draws the system palette for pencil-palette (palette.js).
 * GNOME Shell refuses org.gnome.Shell.Introspect to other programs, so pencil-actions cannot
 * ask; the Shell tells it instead. pencil-actions believes only calls from the process that
 * owns org.gnome.Shell. The app id is the window's WM_CLASS: the Wayland app_id, or the X11
 * WM_CLASS class; an empty string means no window has the focus.
 *
 * An ES module, as GNOME Shell 45 and later load extensions. */
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {PaletteService} from './palette.js';

const BUS_NAME = 'org.pencild.Actions';
const OBJECT_PATH = '/org/pencild/Actions';
const INTERFACE = 'org.pencild.Actions1';

export default class PencilActionsFocus extends Extension {
    enable() {
        // The system palette, drawn by the Shell for pencil-palette (palette.js).
        this._palette = new PaletteService();
        this._palette.enable();
        this._listening = false;
        this._focusHandler = global.display.connect('notify::focus-window', () => this._report());
        this._watch = Gio.bus_watch_name(Gio.BusType.SESSION, BUS_NAME, Gio.BusNameWatcherFlags.NONE,
            () => {
                this._listening = true;
                this._report();
            },
            () => {
                this._listening = false;
            });
    }

    disable() {
        this._palette.disable();
        this._palette = null;
        // While the extension is off (the screen locked, or turned off), pencil-actions must
        // not keep using the app that was in front.
        this._send('');
        global.display.disconnect(this._focusHandler);
        Gio.bus_unwatch_name(this._watch);
        this._focusHandler = null;
        this._watch = 0;
        this._listening = false;
    }

    _report() {
        const window = global.display.focus_window;
        this._send(window ? window.get_wm_class() || '' : '');
    }

    _send(app) {
        if (!this._listening)
            return;
        Gio.DBus.session.call(BUS_NAME, OBJECT_PATH, INTERFACE, 'SetFocusedApp',
            new GLib.Variant('(s)', [app]), null, Gio.DBusCallFlags.NO_AUTO_START, -1, null, null);
    }
}
