"""The artist's choice of Krita action for each preferred action: one field per action,
which takes any of Krita's actions by its menu text or its name (typing filters the list)."""

from __future__ import annotations

from typing import Dict, Optional

from . import bindings
from .qt import (
    QComboBox, QCompleter, QDialog, QDialogButtonBox, QFormLayout, QLabel, QPushButton, QVBoxLayout, QWidget, Qt,
)

TITLE = "Pen gestures: Krita actions"


class BindingsDialog(QDialog):
    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setObjectName("pencild_bindings_dialog")
        self.setWindowTitle(TITLE)
        layout = QVBoxLayout(self)
        intro = QLabel("A double-tap or a squeeze does the preferred action you chose for it "
                       "(pencilctl prefs, or the Pen settings window). Here, choose which Krita action "
                       "each preferred action triggers in Krita.", self)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        layout.addLayout(form)
        choices = bindings.choices()
        self.fields: Dict[str, QComboBox] = {}
        for preferred in bindings.PREFERRED:
            field = QComboBox(self)
            field.setObjectName(f"binding_{preferred}")
            field.setEditable(True)
            field.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            for text, name in choices:
                field.addItem(text, name)
            completer = QCompleter(field.model(), field)
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            field.setCompleter(completer)
            field.setEditText(bindings.label(bindings.binding(preferred)))
            field.setToolTip(f"Default: {bindings.label(bindings.DEFAULTS[preferred])}")
            self.fields[preferred] = field
            form.addRow(f"{bindings.DESCRIPTIONS[preferred]} ({preferred})", field)
        self.problem = QLabel("", self)
        self.problem.setObjectName("pencild_bindings_problem")
        self.problem.setWordWrap(True)
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setObjectName("pencild_bindings_ok")
        defaults = QPushButton("Restore defaults", self)
        defaults.setObjectName("pencild_bindings_defaults")
        buttons.addButton(defaults, QDialogButtonBox.ButtonRole.ResetRole)
        defaults.clicked.connect(self.restore_defaults)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def restore_defaults(self) -> None:
        for preferred, field in self.fields.items():
            field.setEditText(bindings.label(bindings.DEFAULTS[preferred]))

    def save(self) -> None:
        """Keeps every choice, or none when one names no Krita action (and says which)."""
        chosen: Dict[str, str] = {}
        for preferred, field in self.fields.items():
            name = bindings.resolve(field.currentText())
            if not name:
                self.problem.setText(f"{preferred}: “{field.currentText()}” is not one of Krita's actions")
                field.setFocus()
                return
            chosen[preferred] = name
        for preferred, name in chosen.items():
            bindings.set_binding(preferred, name)
        self.accept()
