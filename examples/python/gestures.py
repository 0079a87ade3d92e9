import pencild

# The pens, and their double-taps and finished squeezes, as pencild reports them.
for event in pencild.monitor(events=["deviceAdded", "doubleTap", "squeeze"]):
    if event.device_info:
        print("pen:", event.device_info.name)
    elif event.phase in (None, pencild.Phase.ENDED):
        print(event.type, event.action, "focus:", event.focus)
