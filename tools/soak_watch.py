"""What `make soak` watches from outside the service: its processes' memory (from /proc) and the
folders it must not write to (snapshots compared, and inotify between them)."""

import ctypes
import os
import stat
import struct


def memory_of(pid):
    """VmRSS, VmHWM, RssAnon, RssFile (MB) and Threads from /proc/PID/status; empty when the
    process is gone."""
    values = {}
    try:
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                    values[key] = int(value.split()[0]) / 1024
                elif key == "Threads":
                    values[key] = int(value)
    except (FileNotFoundError, ProcessLookupError):
        pass
    return values


def cpu_ticks(pid):
    """The CPU time process `pid` has used (user and system, in clock ticks); 0 when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
        return 0


def process_name(pid):
    """The name of process `pid` (its `comm`), or "gone"."""
    try:
        with open("/proc/%d/comm" % pid) as file:
            return file.read().strip()
    except (FileNotFoundError, ProcessLookupError):
        return "gone"


def thread_names(pid):
    """How many threads of process `pid` have each name (GStreamer's and GLib's name theirs)."""
    names = {}
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except (FileNotFoundError, ProcessLookupError):
        return names
    for task in tasks:
        try:
            with open("/proc/%d/task/%s/comm" % (pid, task)) as file:
                name = file.read().strip()
        except (FileNotFoundError, ProcessLookupError):
            continue
        names[name] = names.get(name, 0) + 1
    return names


def process_tree(pid):
    """`pid` and every process descending from it (WebKit's web process, a sandbox, a converter)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as file:
                # The name in parentheses may hold spaces; the parent's pid is the second field after it.
                parent = int(file.read().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    tree, queue = [], [pid]
    while queue:
        current = queue.pop(0)
        tree.append(current)
        queue.extend(children.get(current, []))
    return tree


class Snapshot:
    """Every entry under some folders (not following links), with what a write changes: kind,
    permissions, size, modification time, a link's target. Entries under `allowed` are left out."""

    def __init__(self, roots, allowed=()):
        self.allowed = [os.fspath(path) for path in allowed]
        self.entries = {}
        for root in roots:
            self.add(os.fspath(root))

    def is_allowed(self, path):
        return any(path == folder or path.startswith(folder + "/") for folder in self.allowed)

    def add(self, path):
        if self.is_allowed(path):
            return
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return
        target = os.readlink(path) if stat.S_ISLNK(info.st_mode) else None
        self.entries[path] = (stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode), info.st_size, info.st_mtime_ns,
                              target)
        if stat.S_ISDIR(info.st_mode):
            try:
                names = os.listdir(path)
            except PermissionError:
                return
            for name in names:
                self.add(os.path.join(path, name))

    def changes(self, later):
        """What differs in `later`, one line each: added, removed or changed paths."""
        lines = []
        for path in sorted(set(self.entries) | set(later.entries)):
            before, after = self.entries.get(path), later.entries.get(path)
            if before == after:
                continue
            if before is None:
                lines.append("added   " + repr(path)[1:-1])
            elif after is None:
                lines.append("removed " + repr(path)[1:-1])
            else:
                what = [name for name, a, b in zip(("kind", "mode", "size", "mtime", "target"), before, after) if a != b]
                lines.append("changed " + repr(path)[1:-1] + " (" + ", ".join(what) + ")")
        return lines


class WriteWatch:
    """inotify on every folder under some roots: what the snapshots cannot see, a file made and
    removed again between two of them. Folders under `allowed` are not watched."""

    EVENTS = {0x2: "modified", 0x4: "attributes changed", 0x8: "written", 0x40: "moved from", 0x80: "moved to",
              0x100: "created", 0x200: "deleted"}
    IN_ISDIR = 0x40000000
    IN_Q_OVERFLOW = 0x4000

    def __init__(self, roots, allowed=()):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self.allowed = [os.fspath(path) for path in allowed]
        self.folders = {}
        self.seen = []
        for root in roots:
            self.watch_tree(os.fspath(root))

    def is_allowed(self, path):
        return any(path == folder or path.startswith(folder + "/") for folder in self.allowed)

    def watch_tree(self, root):
        for folder, subfolders, _ in os.walk(root):
            subfolders[:] = [name for name in subfolders if not self.is_allowed(os.path.join(folder, name))]
            if not self.is_allowed(folder):
                self.watch(folder)

    def watch(self, folder):
        mask = sum(self.EVENTS)
        descriptor = self.libc.inotify_add_watch(self.fd, os.fsencode(folder), mask)
        if descriptor >= 0:
            self.folders[descriptor] = folder

    def changes(self):
        """The writes seen since the last call, one line each ("created /tmp/x")."""
        lines = []
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            offset = 0
            while offset < len(data):
                descriptor, mask, _, length = struct.unpack_from("iIII", data, offset)
                name = data[offset + 16:offset + 16 + length].rstrip(b"\0")
                offset += 16 + length
                if mask & self.IN_Q_OVERFLOW:
                    lines.append("too many writes to list (inotify's queue overflowed)")
                    continue
                folder = self.folders.get(descriptor)
                if folder is None:
                    continue
                path = os.path.join(folder, os.fsdecode(name)) if name else folder
                if self.is_allowed(path):
                    continue
                if mask & 0x100 and mask & self.IN_ISDIR:
                    self.watch_tree(path)
                for bit, what in self.EVENTS.items():
                    if mask & bit:
                        lines.append("%s %s" % (what, repr(path)[1:-1]))
        self.seen.extend(lines)
        return lines
