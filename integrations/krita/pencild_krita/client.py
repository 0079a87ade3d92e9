"""pencild's Python client, as Krita's Python can have it: the system's (Debian's
python3-pencild), else the copy that `make install-krita` puts beside the plugin
(pencild_krita/client/pencild), which Krita's AppImage and Flatpak, whose Python does not
see the system's packages, use. Without either, `advice()` says what to do for this Krita."""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import Mapping, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.join(HERE, "client")


def load() -> Optional[ModuleType]:
    try:
        import pencild
        return pencild
    except ImportError:
        pass
    if os.path.isfile(os.path.join(BUNDLED, "pencild", "__init__.py")):
        sys.path.append(BUNDLED)
        try:
            import pencild
            return pencild
        except ImportError:
            return None
    return None


def advice(environment: Optional[Mapping[str, str]] = None, plugin_folder: str = HERE) -> str:
    """What to do to have the client, for the Krita at hand (its AppImage, its Flatpak, or
    the system's) and for where the plugin was installed."""
    env = os.environ if environment is None else environment
    plugins = os.path.dirname(plugin_folder)
    if env.get("APPIMAGE") or env.get("APPDIR"):
        return ("Krita's AppImage sees only its own Python: from pencild's source folder run "
                "`make install-krita KRITA_PLUGIN_DIR=$HOME/.local/share/krita/pykrita`, which copies the client "
                "beside the plugin, then restart Krita")
    if env.get("FLATPAK_ID") or os.path.exists("/.flatpak-info"):
        return ("Krita's Flatpak sees only its own Python: from pencild's source folder run "
                "`make install-krita KRITA_PLUGIN_DIR=$HOME/.var/app/org.kde.krita/data/krita/pykrita`, which copies "
                "the client beside the plugin, then restart Krita")
    if plugins.startswith("/usr/share/"):
        return ("the Debian package python3-pencild is missing: install it beside krita-pencild "
                "(`sudo apt-get install ./python3-pencild_*.deb` from `make deb`'s .build/deb), then restart Krita")
    return (f"no client beside the plugin in {plugins}: from pencild's source folder run "
            f"`make install-krita KRITA_PLUGIN_DIR={plugins}` (with sudo for a system folder), then restart Krita")
