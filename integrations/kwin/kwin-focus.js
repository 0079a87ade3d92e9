// pencil-actions loads this script into KWin (org.kde.kwin.Scripting.loadScript) when it
// starts on KDE Plasma. It tells pencil-actions the app of each window KWin activates, so that
// a pen gesture uses that app's [ACTION @APP] bindings. KWin's resourceClass is the Wayland
// app_id, or the X11 WM_CLASS class; an empty string means no window has the focus.
// Plasma 6 names the signal windowActivated, Plasma 5 clientActivated.

function reportFocus(window) {
    var app = window ? String(window.resourceClass || "") : "";
    callDBus("org.pencild.Actions", "/org/pencild/Actions", "org.pencild.Actions1", "SetFocusedApp", app);
}

if (workspace.windowActivated !== undefined) {
    workspace.windowActivated.connect(reportFocus);
    reportFocus(workspace.activeWindow);
} else {
    workspace.clientActivated.connect(reportFocus);
    reportFocus(workspace.activeClient);
}
