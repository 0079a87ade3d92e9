"""The preferred actions, done with Krita's own actions (krita/krita.action in Krita's
sources; which one is the artist's choice, bindings.py), looked up by name when a gesture
comes, since some exist only while a view is open. Each function returns a short sentence
saying what it did, for the docker."""

from __future__ import annotations

from krita import Krita

from . import bindings, palette

# The docker that holds the colour selector when its pop-up action is not there.
COLOR_SELECTOR_DOCKER = "ColorSelectorNg"


def trigger(name: str) -> bool:
    action = Krita.instance().action(name)
    if action is None:
        return False
    action.trigger()
    return True


def show_color_selector() -> str:
    # `show_color_selector` (Shift+I) is registered by the Advanced Color Selector docker
    # once a canvas exists: it pops the selector up under the pointer.
    if trigger("show_color_selector"):
        return "colour selector shown (show_color_selector)"
    for docker in Krita.instance().dockers():
        if docker.objectName() == COLOR_SELECTOR_DOCKER:
            docker.show()
            docker.raise_()
            return "colour selector docker shown"
    return "no colour selector in this Krita"


def show_popup_palette() -> str:
    done = palette.toggle()
    if done is not None:
        return done
    # Without an open document there is no canvas, hence no pop-up palette.
    return "brush presets (show_brush_presets)" if trigger("show_brush_presets") else "no show_brush_presets"


def perform(action: str, event: object = None) -> str:
    """Does the preferred action with the Krita action bound to it; `runSystemShortcut`
    and `ignore` are not Krita's to do."""
    if action not in bindings.PREFERRED:
        return f"nothing to do for {action}"
    name = bindings.binding(action)
    return perform_krita_action(name)


def perform_krita_action(name: str) -> str:
    if name == bindings.POPUP_PALETTE:
        return show_popup_palette()
    if name == "show_color_selector":
        return show_color_selector()
    if not bindings.bindable(name):
        return f"{name} is not an action to bind"
    krita_action = Krita.instance().action(name)
    if krita_action is None:
        return f"no Krita action {name} here (it may need an open image)"
    krita_action.trigger()
    checked = f", now {'on' if krita_action.isChecked() else 'off'}" if krita_action.isCheckable() else ""
    return f"{bindings.label(name)}{checked}"
