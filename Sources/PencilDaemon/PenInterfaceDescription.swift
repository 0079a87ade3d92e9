// Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.
extension InterfaceDescriptions {
    public static let pen = #"""
    # Pen and gesture events from tablet pens, and each user's gesture preferences.
    #
    # Names of tools, axes, buttons, event types, phases and actions are strings so that the
    # interface can grow new ones that old clients ignore; their values today are listed below,
    # each kind on one line "# <kind> names: <name>, <name>, ..." (a note in parentheses may
    # follow a name). A list grows at its end only.
    interface org.pencild.Pen

    # A pen device. id is stable while the device is attached: the kernel name (event7) or
    # replay0, replay1... for recordings played by the daemon.
    # tools, and Tool.type: the tool names.
    # tool names: pen, eraser, brush, pencil, airbrush, mouse, lens
    # axes: the axis names.
    # axis names: pressure, distance, tilt, rotation, slider, wheel
    # buttons, and Event.button: the button names.
    # button names: stylus, stylus2, stylus3, eraser (on a pen whose eraser is a button)
    # model: the tablet's name in libwacom, left out when libwacom does not know it.
    # styli (ListDevices only): the styli that came into proximity since the device was attached.
    # mirror: the kernel name (event12) of the device apps read while the pen's gesture clicks
    # are withheld (withholdGestureClicks); left out while the pen is not grabbed.
    # tipReportedAs: while there is a mirror, the tool its tip is reported as to apps: eraser while
    # pencild has switched the pen to its eraser (mirrorSwitchesTool), else the tip's own tool.
    type Device (
      id: string,
      name: string,
      bus: int,
      vendor: int,
      product: int,
      direct: bool,
      widthMillimeters: ?float,
      heightMillimeters: ?float,
      tools: []string,
      axes: []string,
      buttons: []string,
      model: ?string,
      styli: ?[]Stylus,
      mirror: ?string,
      tipReportedAs: ?string
    )

    # A tool: type as in Device.tools; serial and id are 0 when unknown.
    type Tool (
      type: string,
      serial: int,
      id: int
    )

    # Which pen a tool is, as libwacom names it ("Pro Pen 2"); only on proximityIn, and only
    # when libwacom knows the tool's id.
    # stylusKind names: general, inking, airbrush, classic, marker, stroke, puck, mobile, unknown (libwacom does not say)
    # buttons: its barrel buttons.
    # stylusEraser names: none, invert (the other end), button (a button that the firmware reports as the eraser tool)
    type Stylus (
      name: string,
      kind: string,
      buttons: int,
      eraser: string
    )

    # Where the tool is: x and y from 0 to 1 with the origin top-left, pressure from 0 to 1,
    # zOffset from 0 at the surface to 1 at the edge of range, tilt in degrees, azimuth,
    # altitude and roll in radians.
    type Pose (
      x: float,
      y: float,
      xMillimeters: ?float,
      yMillimeters: ?float,
      pressure: float,
      zOffset: ?float,
      tiltX: ?float,
      tiltY: ?float,
      azimuth: ?float,
      altitude: ?float,
      roll: ?float,
      slider: ?float,
      wheel: ?float
    )

    # A user's gesture preferences. Replies carry every field; SetPreferences takes any of them
    # and keeps the others.
    # doubleTapAction and squeezeAction: the action names; each gesture has its "<gesture>Action".
    # action names: ignore, switchEraser, switchPrevious, showColorPalette, showInkAttributes, showContextualPalette, runSystemShortcut
    # tapButton names: stylus, stylus2, stylus3, eraser, none
    # squeezeButton names: stylus, stylus2, stylus3, eraser, longPress, none
    # durations in milliseconds, doubleTapSlop in millimetres.
    # withholdGestureClicks: apps do not receive the clicks that make a gesture (default true).
    # eraserButton: what a pen's eraser button is (default eraser).
    # eraserButton names: eraser, button
    # prefersPencilOnlyDrawing (default false), prefersHoverToolPreview (default true): Apple's
    # preferences, stored and reported for apps to follow.
    # mirrorSwitchesTool: while no app holds the focus, pencild performs switchEraser and
    # switchPrevious itself, through the pen's mirror (default true).
    type Preferences (
      doubleTapAction: ?string,
      squeezeAction: ?string,
      tapButton: ?string,
      squeezeButton: ?string,
      tapMaxDuration: ?int,
      doubleTapInterval: ?int,
      longPressDuration: ?int,
      doubleTapSlop: ?float,
      withholdGestureClicks: ?bool,
      eraserButton: ?string,
      prefersPencilOnlyDrawing: ?bool,
      prefersHoverToolPreview: ?bool,
      mirrorSwitchesTool: ?bool
    )

    # One event. type: the eventType names.
    # eventType names: deviceAdded, deviceRemoved, proximityIn, proximityOut, tipDown, tipUp, motion, hover, buttonDown, buttonUp, doubleTap, squeeze, preferencesChanged, deviceChanged
    # deviceChanged: deviceInfo as it is now, when the mirror comes or goes or tipReportedAs changes.
    # time: microseconds, CLOCK_MONOTONIC for live devices, the recorded time in a replay.
    # phase names: began, changed, ended, cancelled
    # doubleTap and squeeze are the gestures, each with its preferred action:
    # gesture names: doubleTap (one-shot: acted on when it arrives), squeeze (phased: began, changed, then ended or cancelled; acted on when it ends)
    # stylus: on proximityIn, which pen the tool is (when libwacom knows it).
    # focus (doubleTap and squeeze); a squeeze keeps the focus it began with until it ends.
    # focus names: this (the receiving process holds its user's focus), other (another process of that user does), none (nobody claimed it), pen (pencild performed it through the pen's mirror)
    type Event (
      type: string,
      time: int,
      device: ?string,
      deviceInfo: ?Device,
      tool: ?Tool,
      stylus: ?Stylus,
      pose: ?Pose,
      button: ?string,
      phase: ?string,
      action: ?string,
      focus: ?string,
      preferences: ?Preferences
    )

    # The pen devices attached now.
    method ListDevices() -> (devices: []Device)

    # Streams events; needs "more": true. Without filters, every device and every event type.
    # The stream starts with a deviceAdded for every attached device and, for a tool in
    # proximity, the events that bring the client to the current state. A device id that is
    # not attached is NoSuchDevice; an unknown event type is InvalidParameter(events).
    method Monitor(devices: ?[]string, events: ?[]string) -> (event: Event)

    # The calling user's preferences.
    method GetPreferences() -> (preferences: Preferences)

    # Changes the calling user's preferences; fields left out keep their values. Returns the
    # result, and the user's monitors receive a preferencesChanged.
    method SetPreferences(preferences: Preferences) -> (preferences: Preferences)

    # Claims (true) or gives up (false) the calling user's focus for the calling process: the app
    # in front acts on gestures, the others see focus "other". The claim belongs to the process
    # (SO_PEERCRED), whichever of its connections made it, and ends with SetFocus(false) or when the
    # process's last connection closes. A later claim of the same user replaces an earlier one.
    method SetFocus(focused: bool) -> ()

    # Presses a key chord on pencild's keyboard, for the app in front of the caller: keys are
    # evdev names without KEY_ (e, leftshift), modifiers first and the key last, as
    # pencil-actions' bindings write them. Only for the user whose session is the active one on
    # the device's seat (seat0 without a device), checked at this call and again as the chord
    # plays; a session switch lets go of every key at once. The reply comes when the chord is
    # queued. Power, SysRq, lock keys and chords that switch virtual terminals or end the display
    # server are KeyNotAllowed; a daemon without a keyboard is KeyboardUnavailable.
    method PressChord(device: ?string, keys: []string) -> ()

    # Plays one gesture on pencild's demo pen (pencild --demo), the way a person makes it under
    # the caller's preferences (its buttons and durations): gesture is doubleTap or squeeze;
    # device is the demo pen's id, demo0 when left out. The pen comes into range or lifts its tip
    # as needed, holds still, makes the gesture and leaves; every reader of the pen receives its
    # events as the pen's own. The reply comes when the gesture is queued; it plays at once, or
    # after the gestures queued before it. Only the demo pen plays gestures: see GestureNotPlayable.
    method PlayGesture(device: ?string, gesture: string) -> (device: string)

    # Switches the tool the pen's tip is reported as through its mirror, as the system palette's
    # Pen and Eraser do: tool is pen (the tip's own) or eraser; device is the pen, the one mirrored
    # pen the caller reads when left out. Only for the user whose preferences the mirror follows,
    # with mirrorSwitchesTool on. Written at once with the tip up, else as it lifts; the reply says
    # what the tip is reported as now, and monitors hear a deviceChanged when that changes.
    method SetTipTool(device: ?string, tool: string) -> (device: string, tipReportedAs: string)

    error NoSuchDevice (device: string)
    error PermissionDenied ()
    error InvalidPreferences (field: string, reason: string)
    # The daemon serves as many clients as it may: in all (limit), or for this user (perUser).
    error TooManyClients (limit: int, perUser: bool)
    # The preferences could not be stored (state directory unwritable or full); nothing changed.
    error PreferencesNotSaved (reason: string)
    # PressChord: this daemon cannot press keys (why: no /dev/uinput, a user's pencild, which
    # has none, a device on another seat, too many chords waiting).
    error KeyboardUnavailable (reason: string)
    # PressChord: a key that is unknown or that the keyboard never sends, and why.
    error KeyNotAllowed (key: string, reason: string)
    # PlayGesture: the gesture cannot be played, and why: pencild has no demo pen, the device is
    # not one, the caller's preferences switch the gesture off or need a button the demo pen
    # lacks, or four gestures are already waiting.
    error GestureNotPlayable (reason: string)
    # SetTipTool: the pen's tip cannot be switched, and why: it has no mirror, its user has
    # mirrorSwitchesTool off, or no device was named and not exactly one pen is mirrored.
    error ToolNotSwitchable (reason: string)

    """#
}
