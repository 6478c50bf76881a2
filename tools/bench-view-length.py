#!/usr/bin/python3
"""The length of a browser window's view, read through AT-SPI, for `DossierBench remote`.

A GTK 4 grid or list view shows only the items on screen, but its scroll bar's range (the
`GtkRange` under the view's vertical `GtkScrollbar`) spans the whole scrollable height: it grows
as items arrive and stops growing once the view holds the whole folder. The same reading for
Dossier and for Nautilus: both are GTK 4 apps with the view in a GtkScrolledWindow.

    bench-view-length.py discover STILL LIMIT
    bench-view-length.py watch PATH STILL LIMIT

Both print `ready` once connected to the accessibility bus, then read the app's process id on
standard input (the bench starts this first, then the app, then writes its pid).

- `discover` walks the app's tree (not into grids, lists and tables: their cells) until the
  range with the largest maximum has kept it for STILL seconds, and prints its path: child
  indices from the application node. The walk is a few hundred D-Bus calls, so it runs in an
  untimed launch.
- `watch` asks for the node at PATH every 20 ms (once it exists, one D-Bus call a reading) and
  prints `TIME LENGTH` each time the length changes, TIME on CLOCK_MONOTONIC in seconds, until
  the length has been non-zero and unchanged for STILL seconds; then `still TIME`. `unresolved`
  when PATH never led to a range, `gone TIME` when the app ended first.

Either ends after LIMIT seconds with `timeout`. Debian's python3 with python3-pyatspi.
"""
import sys
import time

import pyatspi

# Containers of items: the cells (hundreds of nodes) never hold the view's scroll bar.
ITEM_CONTAINERS = {"table", "tree table", "list", "list box", "tree", "table cell", "list item"}


def application(desktop, pid):
    for index in range(desktop.childCount):
        try:
            app = desktop.getChildAtIndex(index)
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            pass
    return None


def length(node):
    """The range's maximum, or None when the node is gone or has no value."""
    try:
        return node.queryValue().maximumValue
    except Exception:
        return None


def ranges(node, path, found):
    """Every node with a value under a scroll bar: (path, node)."""
    try:
        role = node.getRoleName()
        count = node.childCount
    except Exception:
        return
    if role in ITEM_CONTAINERS:
        return
    if role == "scroll bar":
        for index in range(count):
            try:
                child = node.getChildAtIndex(index)
            except Exception:
                continue
            if child is not None and length(child) is not None:
                found.append((path + [index], child))
        return
    for index in range(count):
        try:
            child = node.getChildAtIndex(index)
        except Exception:
            continue
        if child is not None:
            ranges(child, path + [index], found)


def resolve(app, path):
    node = app
    try:
        for index in path:
            if index >= node.childCount:
                return None
            node = node.getChildAtIndex(index)
            if node is None:
                return None
    except Exception:
        return None
    return node if length(node) is not None else None


def discover(app, still, deadline):
    best_path, since = None, None
    while time.monotonic() < deadline:
        found = []
        ranges(app, [], found)
        measured = [(length(node) or 0.0, path) for path, node in found]
        if measured:
            top, path = max(measured)
            now = time.monotonic()
            if path != best_path or top <= 0:
                best_path, since = path, now
            elif now - since >= still:
                print(" ".join(str(index) for index in path), flush=True)
                return
        time.sleep(0.5)
    print("timeout", flush=True)


def running(pid):
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def watch(app, pid, path, still, deadline):
    node, last, changed = None, None, None
    while time.monotonic() < deadline:
        if not running(pid):
            print("gone %.4f" % time.monotonic(), flush=True)
            return
        if node is None:
            node = resolve(app, path)
            if node is None:
                time.sleep(0.02)
                continue
        value = length(node)
        now = time.monotonic()
        if value is None:
            node = None
            continue
        if value != last:
            print("%.4f %.1f" % (now, value), flush=True)
            last, changed = value, now
        elif value > 0 and now - changed >= still:
            print("still %.4f" % now, flush=True)
            return
        time.sleep(0.02)
    print("unresolved" if last is None else "timeout", flush=True)


def main():
    mode = sys.argv[1]
    path = [int(index) for index in sys.argv[2].split()] if mode == "watch" else None
    still, limit = float(sys.argv[-2]), float(sys.argv[-1])
    desktop = pyatspi.Registry.getDesktop(0)
    desktop.childCount  # connects to the accessibility bus (starting it) before the app starts
    print("ready", flush=True)
    pid = int(sys.stdin.readline())
    deadline = time.monotonic() + limit
    app = None
    while app is None and time.monotonic() < deadline:
        app = application(desktop, pid)
        if app is None:
            time.sleep(0.02)
    if app is None:
        print("timeout", flush=True)
    elif mode == "discover":
        discover(app, still, deadline)
    else:
        watch(app, pid, path, still, deadline)


if __name__ == "__main__":
    main()
