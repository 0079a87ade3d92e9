#!/usr/bin/python3
"""A real X11 window of WM_CLASS class CLASS (Tk sets it from className), until stdin closes."""
import sys
import tkinter

root = tkinter.Tk(className=sys.argv[1])
root.title(sys.argv[1])
root.geometry("200x100")
tkinter.Label(root, text=sys.argv[1]).pack()
# Ends with the test that started it: its stdin closes.
root.createfilehandler(sys.stdin, tkinter.READABLE, lambda *_: root.destroy() if not sys.stdin.read(1) else None)
root.mainloop()
