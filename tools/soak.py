#!/usr/bin/python3
"""`make soak`: thousands of `ShowFile` calls to Dossier's previewer service, as Nautilus makes
them, on good files and hostile ones; the service must answer, stay alive, stay in its memory
bound and write nowhere but its cache.

    tools/soak.py --binary .build/debug/dossier --fixtures .build/debug/WriteFixtures \\
                  --samples data/samples --share .build/share --root .build/soak [--calls 10000]

Everything runs in a world of its own: a private mount namespace whose /tmp is a folder of the
soak's (so every /tmp entry made there is the service's or its children's, and none of other
programs on the machine), its own Xvfb and D-Bus daemon, and private HOME and XDG folders. As
root the service runs without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so unreadable files are
unreadable to it as to a user.

The calls alternate a good file (the samples, DossierFixtures' fixtures, larger real files) and
a hostile one (see soak_corpus.py), in both dialects (three arguments, Nautilus 43 to 49; four,
50 on), with several window handles; some back to back without waiting for the service (rapid
switching: Left/Right held down in Files), some waited on, some followed by `Close()`, some
shown twice with closeIfAlreadyShown (Space pressed again).

Every 500 calls: five small files (SETTLING_ITEMS), then `Close()`, and `Visible` must turn false (the main thread handled it); a call
answered only by the main thread (`org.gtk.Actions.List` on the application's object, which
GApplication serves from its main context) must come back within the deadline; memory; the
private HOME, /tmp, the samples and the corpus compared with their state before the service
started (only `$XDG_CACHE_HOME` and `$XDG_RUNTIME_DIR` may change), and inotify's record of
what was made and removed again in between. A hang or a crash ends the soak at once; a crossed
bound or a write outside the cache fails it at the end, with every figure.

The memory bound. Memory is measured at the checkpoints, where the service is in the same
state each time: the same five small files shown last (the previewer keeps its last four
ready pages), the window closed, nothing loading. There the RSS rises over the first
thousand calls (libraries mapped on first use: WebKit, poppler, GStreamer, GtkSourceView's
languages, fonts; glibc's heaps of the loading threads grown to their working size), and a
service without leaks levels off after that. Its bound is 1.5 times the RSS at the checkpoint after the warm-up (--warmup, 1,000
calls): a leak of 20 KB a call over the 9,000 calls after it (one small PNG decoded and never
freed) adds 180 MB and crosses it, while the band the level-off leaves (see
MEMORY_BOUND_FACTOR) stays inside. The summary gives the growth after the
warm-up per call too. The web and media processes (WebKit's) are measured as well and bounded
the same way once some are running at a checkpoint.

Exit status: 0 when every check held; 1 when a call failed or hung, the service died, the memory
bound was crossed or something was written outside the cache; 2 for a usage error.
"""

import argparse
import collections
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import gi  # noqa: E402

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

from soak_corpus import Corpus  # noqa: E402
from soak_watch import Snapshot, WriteWatch, cpu_ticks, memory_of, process_name, process_tree, thread_names  # noqa: E402

BUS_NAME = "org.gnome.NautilusPreviewer"
OBJECT_PATH = "/org/gnome/NautilusPreviewer"
INTERFACE = "org.gnome.NautilusPreviewer2"
APPLICATION_ID = "io.github.dossier.Dossier.Previewer"
APPLICATION_PATH = "/" + APPLICATION_ID.replace(".", "/")

CHECK_EVERY = 500
# A call must come back within this (the service answers ShowFile at once, from its bus thread;
# the main-thread probe waits behind whatever the main thread is doing). The previewer gives up
# on an item after 15 s (PreviewPage.timeout) and shows an error: a main thread held longer
# is a hang.
CALL_DEADLINE_S = 15
# The RSS bound, a multiple of the RSS after the warm-up (see the module's text). After the
# warm-up a service without leaks stays close to that level; the margin leaves room for glibc's
# heaps settling differently on another run's timing, and a leak of about 20 KB a call over a
# full run still crosses it (such a leak shows as the main thread's heap in use growing).
MEMORY_BOUND_FACTOR = 1.5
WARMUP_CALLS = 1000
HANDLES = ["x11:0", "", "x11:2a00007", "wayland:soak-exported-handle", "x11:not-hex"]
# Shown one by one before each measurement. The previewer keeps its last four ready pages
# for a quick return (PreviewController.reloadDataKeepingPages), and which four they are
# decides hundreds of MB: a 20 MB line of text, a 3,000-page PDF. Five small files push out
# whatever the calls before left there, so every measurement finds the same pages kept.
SETTLING_ITEMS = ["sample notes.txt", "sample hello.swift", "sample folder/letter.txt", "sample readme.md",
                  "sample drawing.svg"]


class SoakFailure(Exception):
    pass


def main():
    parser = argparse.ArgumentParser(description="Soak of Dossier's previewer service over D-Bus.")
    parser.add_argument("--binary", required=True, help="the dossier executable")
    parser.add_argument("--fixtures", required=True, help="the WriteFixtures executable")
    parser.add_argument("--samples", required=True, help="the samples folder (make samples)")
    parser.add_argument("--share", required=True, help="the build's share folder (MIME types, translations)")
    parser.add_argument("--root", required=True, help="a folder the soak may fill and empty")
    parser.add_argument("--calls", type=int, default=10_000, help="ShowFile calls (default 10000)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--memory-factor", type=float, default=MEMORY_BOUND_FACTOR,
                        help="the RSS bound, as a multiple of the RSS after the first pass (default %(default)s)")
    parser.add_argument("--deadline", type=int, default=CALL_DEADLINE_S,
                        help="seconds a call may take before the service counts as hung (default %(default)s; "
                             "more for a service run under a tool)")
    parser.add_argument("--warmup", type=int, default=WARMUP_CALLS,
                        help="calls before the RSS the bound multiplies (default %(default)s; half of --calls at most)")
    parser.add_argument("--check-every", type=int, default=CHECK_EVERY,
                        help="calls between checkpoints (default %d; fewer to see a short soak's growth)" % CHECK_EVERY)
    parser.add_argument("--only", metavar="REGEX",
                        help="show only the items whose label matches (to find which kind of file a problem needs)")
    parser.add_argument("--env", metavar="NAME=VALUE", action="append", default=[],
                        help="one more variable in the service's environment (MALLOC_ARENA_MAX=2, G_DEBUG=…)")
    args = parser.parse_args()
    if args.calls < 1:
        parser.error("--calls must be at least 1")
    if any("=" not in variable for variable in args.env):
        parser.error("--env takes NAME=VALUE")
    root = Path(args.root).resolve()
    if "DOSSIER_SOAK_PRIVATE_TMP" not in os.environ:
        return enter_private_world(root)
    os.environ.pop("DOSSIER_SOAK_PRIVATE_TMP")
    subprocess.run(["mount", "--bind", str(root / "tmp"), "/tmp"], check=True)
    # Stopped (Ctrl+C, kill, a background job's SIGINT too), it still ends what it started.
    def stop(number, _frame):
        raise SoakFailure("stopped by signal %d" % number)
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, stop)
    return Soak(args, root).run()


def enter_private_world(root):
    """Runs this script again in a mount namespace of its own, where /tmp is `root`/tmp."""
    tmp = root / "tmp"
    if tmp.exists():
        subprocess.run(["rm", "-rf", "--", str(tmp)], check=True)
    tmp.mkdir(parents=True)
    os.chmod(tmp, 0o1777)
    command = ["unshare", "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        # A user may make a mount namespace inside a user namespace of its own, as root there.
        command[1:1] = ["--user", "--map-root-user"]
    environment = dict(os.environ, DOSSIER_SOAK_PRIVATE_TMP="1")
    soak = subprocess.Popen(command + ["--", sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env=environment)
    # A signal for this process is passed on; the soak inside stops and cleans up.
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, lambda number, _frame: soak.send_signal(number))
    status = soak.wait()
    return 1 if status < 0 else status


class Soak:
    def __init__(self, args, root):
        self.args = args
        self.root = root
        self.rng = random.Random(args.seed)
        self.processes = []
        self.shown = 0
        self.shown_good = 0
        self.shown_bad = 0
        self.shown_settling = 0
        self.closes = 0
        self.failures = []
        self.rss_start = self.rss_peak = self.rss_end = None
        self.children_peak = (0, 0)
        self.baseline = None
        self.checkpoints = []
        self.bound = None
        self.children_bound = None
        self.violations = []
        self.before = None
        self.last_call = "none"
        self.longest_stall = (0, "none")

    # MARK: The run

    def run(self):
        started = time.monotonic()
        status = 1
        try:
            self.prepare()
            self.start_session()
            self.start_service()
            self.call_all()
            status = 0 if not self.failures and not self.violations else 1
        except SoakFailure as failure:
            self.violations.append(str(failure))
        finally:
            self.stop_service()
            if self.before is not None:
                self.compare_files("after the service stopped")
            self.stop_session()
        elapsed = time.monotonic() - started
        self.report(elapsed)
        return 0 if status == 0 and not self.violations else 1

    def prepare(self):
        home = self.root / "home"
        for folder in (home, self.root / "runtime"):
            if folder.exists():
                subprocess.run(["rm", "-rf", "--", str(folder)], check=True)
        self.xdg = {
            "HOME": home,
            "XDG_CONFIG_HOME": home / ".config",
            "XDG_DATA_HOME": home / ".local/share",
            "XDG_STATE_HOME": home / ".local/state",
            "XDG_CACHE_HOME": home / ".cache",
            "XDG_RUNTIME_DIR": self.root / "runtime",
        }
        for folder in self.xdg.values():
            folder.mkdir(parents=True, exist_ok=True)
        os.chmod(self.xdg["XDG_RUNTIME_DIR"], 0o700)
        began = time.monotonic()
        corpus = Corpus(self.root / "corpus", self.args.samples, self.args.fixtures)
        self.good, self.bad = corpus.build()
        self.corpus_root = corpus.root
        labels = dict(self.good)
        self.settling = [("settle", label, labels[label]) for label in SETTLING_ITEMS if label in labels]
        if self.args.only:
            only = re.compile(self.args.only)
            self.good = [item for item in self.good if only.search(item[0])]
            self.bad = [item for item in self.bad if only.search(item[0])]
            if not self.good and not self.bad:
                raise SoakFailure("no item's label matches --only %s" % self.args.only)
        print("soak: %d good and %d hostile items (%s)" % (len(self.good), len(self.bad), "corpus kept from the last run"
              if corpus.kept else "corpus made in %.0f s" % (time.monotonic() - began)), flush=True)

    def start_session(self):
        """Xvfb and a session bus of the soak's own (their sockets in the private /tmp)."""
        self.log = open(self.root / "session.log", "wb")
        reader, writer = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(writer), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                                pass_fds=(writer,), stdout=self.log, stderr=self.log)
        self.processes.append(xvfb)
        os.close(writer)
        # Xvfb writes the number and then the newline: the pipe stays open until both came.
        number = b""
        while not number.endswith(b"\n"):
            if not select.select([reader], [], [], 30)[0] or not (chunk := os.read(reader, 64)):
                raise SoakFailure("Xvfb did not start (see %s)" % self.log.name)
            number += chunk
        self.display = ":" + number.decode().strip()
        os.close(reader)
        dbus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                stdout=subprocess.PIPE, stderr=self.log, env=self.environment())
        self.processes.append(dbus)
        if not select.select([dbus.stdout], [], [], 30)[0]:
            raise SoakFailure("dbus-daemon did not start (see %s)" % self.log.name)
        self.address = dbus.stdout.readline().decode().strip()
        self.bus = Gio.DBusConnection.new_for_address_sync(
            self.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)

    def environment(self):
        """The service's environment: nothing of the caller's own folders or session."""
        environment = {key: os.environ[key] for key in ("PATH", "LANG", "LC_ALL", "TERM") if key in os.environ}
        environment.update({key: str(value) for key, value in self.xdg.items()})
        environment.update({
            "XDG_DATA_DIRS": "%s:/usr/local/share:/usr/share" % os.path.abspath(self.args.share),
            "DOSSIER_LOCALEDIR": os.path.join(os.path.abspath(self.args.share), "locale"),
            "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "NO_AT_BRIDGE": "1",
        })
        environment.update(variable.split("=", 1) for variable in self.args.env)
        if hasattr(self, "display"):
            environment["DISPLAY"] = self.display
        if hasattr(self, "address"):
            environment["DBUS_SESSION_BUS_ADDRESS"] = self.address
        return environment

    def start_service(self):
        # The folders as they are before the service runs; only its cache may differ later.
        self.before = self.snapshot()
        self.watch = WriteWatch(self.watched_roots(), allowed=self.allowed_folders())
        command = [os.path.abspath(self.args.binary), "previewer-service"]
        if os.geteuid() == 0:
            # Root reads any file; without these two capabilities (also after exec) it reads as
            # a user does, and the unreadable files are unreadable.
            dropped = "-dac_override,-dac_read_search"
            command = ["setpriv", "--inh-caps=" + dropped, "--bounding-set=" + dropped] + command
        self.service_log = open(self.root / "service.log", "wb")
        self.calls_log = open(self.root / "calls.log", "w", buffering=1, errors="backslashreplace")
        self.service = subprocess.Popen(command, env=self.environment(), stdout=self.service_log,
                                        stderr=subprocess.STDOUT, cwd=str(self.root))
        self.processes.append(self.service)
        # The previewer's name is owned before the application starts; the application's own
        # name (and the object the probe calls) once it has.
        deadline = time.monotonic() + 60
        while not (self.name_has_owner(BUS_NAME) and self.name_has_owner(APPLICATION_ID)):
            self.check_alive()
            if time.monotonic() > deadline:
                raise SoakFailure("the service did not own %s and %s within 60 s" % (BUS_NAME, APPLICATION_ID))
            time.sleep(0.1)
        owner = self.dbus_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "GetConnectionUnixProcessID", GLib.Variant("(s)", (BUS_NAME,)))[0]
        if owner != self.service.pid:
            raise SoakFailure("%s is owned by process %d, not by the service (%d)" % (BUS_NAME, owner, self.service.pid))
        self.previewer = Gio.DBusProxy.new_sync(
            self.bus, Gio.DBusProxyFlags.DO_NOT_AUTO_START | Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES, None,
            BUS_NAME, OBJECT_PATH, INTERFACE, None)
        self.probe()
        self.wait_until_idle()
        self.rss_start = self.sample_memory()[0]
        print("soak: the service (pid %d) answers; RSS %.1f MB" % (self.service.pid, self.rss_start), flush=True)

    # MARK: Calls

    def call_all(self):
        started = time.monotonic()
        next_check = self.args.check_every
        items = self.alternating()
        while self.shown < self.args.calls:
            self.step(items)
            self.check_alive()
            self.sample_memory()
            if self.shown >= next_check or self.shown >= self.args.calls:
                self.checkpoint(time.monotonic() - started)
                next_check += self.args.check_every

    def alternating(self):
        """Good, hostile, good, hostile…: each list shuffled, and shuffled again when used up."""
        def cycle(kind, items):
            while True:
                order = items[:]
                self.rng.shuffle(order)
                yield from ((kind, label, uri) for label, uri in order)

        # With --only, one list may be empty: the other one alone.
        lists = [cycle(kind, items) for kind, items in (("good", self.good), ("bad", self.bad)) if items]
        while True:
            for items in lists:
                yield next(items)

    def step(self, items):
        """One gesture of a user in Files."""
        left = self.args.calls - self.shown
        gesture = self.rng.choices(["single", "burst", "close", "again"], weights=[55, 25, 12, 8])[0]
        if gesture == "burst" and left >= 3:
            # Left/Right held down: calls sent back to back, none waited for.
            self.show_all([next(items) for _ in range(min(left, self.rng.randint(3, 8)))])
        elif gesture == "again" and left >= 2:
            # Space on an item, and Space again: closeIfAlreadyShown closes the window.
            item = next(items)
            self.show_all([item])
            self.probe()
            self.show_all([item], close_if_shown=True)
        else:
            self.show_all([next(items)])
            if gesture == "close":
                self.close()
        self.probe()
        time.sleep(self.rng.choices([0, 0.05, 0.25, 0.6], weights=[30, 35, 25, 10])[0])

    def show_all(self, items, close_if_shown=False):
        """ShowFile for each item, sent at once; waits for every answer (or the deadline).
        Items of the kind "settle" are not counted among the soak's calls."""
        pending = []
        for kind, label, uri in items:
            handle = self.rng.choice(HANDLES)
            if self.rng.random() < 0.5:
                arguments = GLib.Variant("(ssb)", (uri, handle, close_if_shown))
            else:
                token = self.rng.choice(["", "nautilus-soak-%d_TIME%d" % (os.getpid(), self.shown)])
                arguments = GLib.Variant("(ssbs)", (uri, handle, close_if_shown, token))
            description = "ShowFile %s (%s, %s, %s)" % (label, kind, arguments.get_type_string(), handle or "no handle")
            pending.append(self.call_async("ShowFile", arguments, description))
            if kind == "settle":
                self.shown_settling += 1
                continue
            self.shown += 1
            if kind == "good":
                self.shown_good += 1
            else:
                self.shown_bad += 1
        self.wait(pending)

    def close(self):
        self.wait([self.call_async("Close", None, "Close")])
        self.closes += 1

    def call_async(self, method, arguments, description):
        result = {"description": description, "done": False, "error": None}

        def finished(proxy, outcome):
            try:
                proxy.call_finish(outcome)
            except GLib.Error as error:
                result["error"] = error
            result["done"] = True

        self.previewer.call(method, arguments, Gio.DBusCallFlags.NO_AUTO_START, self.args.deadline * 1000, None, finished)
        now = time.time()
        self.calls_log.write("%s.%03d %s\n" % (time.strftime("%H:%M:%S", time.localtime(now)), now * 1000 % 1000,
                                               description.replace("\n", "\\n")))
        self.last_call = description
        return result

    def wait(self, pending):
        context = GLib.MainContext.default()
        while not all(result["done"] for result in pending):
            context.iteration(True)
        for result in pending:
            error = result["error"]
            if error is None:
                continue
            if error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.TIMED_OUT) or "NoReply" in str(error):
                raise SoakFailure("%s: no answer within %d s (hung)%s"
                                  % (result["description"], self.args.deadline, self.backtrace()))
            self.failures.append("%s: %s" % (result["description"], error.message))
            if len(self.failures) <= 10:
                print("soak: call failed: %s" % self.failures[-1], flush=True)
            self.check_alive()

    def probe(self):
        """A call only the service's main thread answers; returns how long it took (s)."""
        began = time.monotonic()
        try:
            self.dbus_call(BUS_NAME, APPLICATION_PATH, "org.gtk.Actions", "List", None)
        except GLib.Error as error:
            self.check_alive()
            raise SoakFailure("the service's main thread did not answer within %d s (after %s): %s%s"
                              % (self.args.deadline, self.last_call, error.message, self.backtrace()))
        answered = time.monotonic() - began
        if answered > self.longest_stall[0]:
            self.longest_stall = (answered, self.last_call)
        return answered

    def backtrace(self):
        """Every thread's stack of a service that hangs, kept next to the logs (when gdb is there)."""
        if not os.path.exists("/usr/bin/gdb"):
            return ""
        path = self.root / "hang-backtrace.txt"
        with open(path, "wb") as output:
            subprocess.run(["/usr/bin/gdb", "-p", str(self.service.pid), "-batch", "-ex", "thread apply all bt"],
                           stdout=output, stderr=subprocess.STDOUT, timeout=120)
        return " (its threads' stacks: %s)" % path

    def dbus_call(self, name, path, interface, method, arguments):
        reply = self.bus.call_sync(name, path, interface, method, arguments, None, Gio.DBusCallFlags.NO_AUTO_START,
                                   self.args.deadline * 1000, None)
        return reply.unpack() if reply is not None else None

    def name_has_owner(self, name):
        return self.dbus_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                              GLib.Variant("(s)", (name,)))[0]

    def visible(self):
        return self.dbus_call(BUS_NAME, OBJECT_PATH, "org.freedesktop.DBus.Properties", "Get",
                              GLib.Variant("(ss)", (INTERFACE, "Visible")))[0]

    # MARK: Checks

    def check_alive(self):
        status = self.service.poll()
        if status is not None:
            how = "killed by signal %d" % -status if status < 0 else "exited with status %d" % status
            raise SoakFailure("the service %s after %d calls (its output: %s)" % (how, self.shown, self.service_log.name))

    def sample_memory(self):
        """The service's RSS and its children's (MB); keeps the peaks and checks the bound."""
        rss = memory_of(self.service.pid)["VmRSS"]
        children = process_tree(self.service.pid)[1:]
        children_rss = sum(memory_of(pid).get("VmRSS", 0) for pid in children)
        self.rss_peak = max(self.rss_peak or 0, rss)
        self.rss_end = rss
        if children_rss > self.children_peak[1]:
            self.children_peak = (len(children), children_rss)
        return rss, len(children), children_rss

    def check_bound(self, rss, children_rss):
        """The bound holds for what stays once the window is closed and the work done (a
        checkpoint), not for what one hostile file takes for a moment (the peak, reported).
        A crossing fails the soak, which goes on to its end for the figures."""
        if self.bound is not None and rss > self.bound:
            self.violations.append("the service's RSS is %.1f MB after %d calls, over its bound of %.1f MB"
                                   % (rss, self.shown, self.bound))
            print("soak: " + self.violations[-1], flush=True)
        if self.children_bound is not None and children_rss > self.children_bound:
            self.violations.append("the service's web and media processes take %.1f MB after %d calls, over their "
                                   "bound of %.1f MB" % (children_rss, self.shown, self.children_bound))
            print("soak: " + self.violations[-1], flush=True)

    def settle(self):
        """Shows the settling items, each until the service is idle, closes the window and waits
        for the main thread to have done it and for the service to be idle; returns the probe's
        time."""
        self.wait_until_idle()
        for item in self.settling:
            self.show_all([item])
            self.wait_until_idle(limit=10)
        self.close()
        deadline = time.monotonic() + self.args.deadline
        while self.visible():
            if time.monotonic() > deadline:
                raise SoakFailure("Visible is still true %d s after Close()" % (self.args.deadline))
            time.sleep(0.05)
        answered = self.probe()
        self.wait_until_idle()
        return answered

    def wait_until_idle(self, limit=60):
        """Waits (up to `limit` s) for the service and its children to stop using the CPU: work
        started before the window closed (a decode off the main thread, a conversion) ends
        first, and memory is measured as it stays, not halfway through a 768 MB decode."""
        def cpu():
            return sum(cpu_ticks(pid) for pid in process_tree(self.service.pid))
        deadline = time.monotonic() + limit
        before = cpu()
        while time.monotonic() < deadline:
            time.sleep(0.5)
            now = cpu()
            if now - before <= 2:  # two clock ticks of CPU at most in half a second: idle
                return
            before = now

    def set_bound(self, rss, children_rss):
        """The bound, from the RSS of the checkpoint after the warm-up."""
        self.baseline = (self.shown, rss)
        self.bound = self.args.memory_factor * rss
        # The children are bounded once some exist at a checkpoint (WebKit's processes end
        # with their pages; a kept web page keeps one).
        self.children_bound = self.args.memory_factor * children_rss if children_rss else None
        print("soak: warm-up done after %d calls: RSS %.1f MB, bound %.1f MB (%.1f× that)%s"
              % (self.shown, rss, self.bound, self.args.memory_factor,
                 "; web and media processes %.1f MB, bound %.1f MB" % (children_rss, self.children_bound)
                 if children_rss else ""), flush=True)

    def checkpoint(self, elapsed):
        answered = self.settle()
        rss, children, children_rss = self.sample_memory()
        self.checkpoints.append((self.shown, rss))
        if self.baseline is not None and not self.children_bound and children_rss:
            self.children_bound = self.args.memory_factor * children_rss
        pid = self.service.pid
        fds = len(os.listdir("/proc/%d/fd" % pid))
        status = memory_of(pid)
        written = len(self.violations)
        self.compare_files("after %d calls" % self.shown)
        names = collections.Counter(process_name(pid) for pid in process_tree(pid)[1:])
        # Threads by name, the most frequent: a pipeline or a worker left behind shows here.
        threads = ", ".join("%d %s" % (count, name) for name, count in
                            collections.Counter(thread_names(pid)).most_common(4) if count > 1)
        print("soak: %5d/%d calls, %4.0f s: RSS %6.1f MB (%.1f anonymous, %.1f files; peak %6.1f), "
              "%d child processes %6.1f MB%s, %d fds, %d threads%s, main thread answered in %.0f ms, %d failures, %s"
              % (self.shown, self.args.calls, elapsed, rss, status.get("RssAnon", 0), status.get("RssFile", 0),
                 self.rss_peak, children, children_rss,
                 " (" + ", ".join("%d %s" % (count, name) for name, count in names.most_common()) + ")" if names else "",
                 fds, status.get("Threads", 0), " (" + threads + ")" if threads else "", answered * 1000, len(self.failures),
                 "files outside the cache unchanged" if len(self.violations) == written else "WRITTEN OUTSIDE THE CACHE"),
              flush=True)
        self.check_bound(rss, children_rss)
        if self.baseline is None and self.shown >= min(self.args.warmup, self.args.calls // 2):
            self.set_bound(rss, children_rss)

    def watched_roots(self):
        return [self.xdg["HOME"], Path("/tmp"), Path(self.args.samples).resolve(), self.corpus_root]

    def allowed_folders(self):
        return [self.xdg["XDG_CACHE_HOME"], self.xdg["XDG_RUNTIME_DIR"]]

    def snapshot(self):
        return Snapshot(self.watched_roots(), allowed=self.allowed_folders())

    def compare_files(self, when):
        changes = self.before.changes(self.snapshot())
        # What was made and removed again between two snapshots.
        changes += list(dict.fromkeys(self.watch.changes()))
        if changes:
            shown = "\n  ".join(changes[:20]) + ("\n  …" if len(changes) > 20 else "")
            self.violations.append("written outside the cache %s:\n  %s" % (when, shown))

    # MARK: End

    def stop_service(self):
        """Ends the service, and whatever of its children it left running."""
        service = getattr(self, "service", None)
        if service is None:
            return
        leftovers = process_tree(service.pid)[1:] if service.poll() is None else []
        self.end(service)
        for pid in leftovers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def stop_session(self):
        for process in reversed(self.processes):
            self.end(process)

    @staticmethod
    def end(process):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def service_messages(self):
        """GLib's criticals and warnings in the service's log, by message (without their time),
        and how many of them are type checks that failed: an object used after it was freed,
        or one of the wrong type, which is always a bug."""
        messages = collections.Counter()
        freed = 0
        path = self.root / "service.log"
        if not path.exists():
            return messages, 0
        for line in path.read_text(errors="replace").splitlines():
            match = re.match(r"\(\S+\): ([\w-]+-(?:CRITICAL|WARNING)) \*\*: [\d:.]+: (.*)", line)
            if not match:
                continue
            messages[match.group(1) + ": " + match.group(2)] += 1
            if re.search(r"invalid (unclassed pointer|uninstantiatable type)|assertion '\w+_IS_\w+ ?\(", match.group(2)):
                freed += 1
        return messages, freed

    def report(self, elapsed):
        print()
        print("Soak of the previewer service:")
        print("  calls:    %d ShowFile (%d good, %d hostile) and %d Close; before each measurement %d ShowFile of "
              "small files more" % (self.shown, self.shown_good, self.shown_bad, self.closes, self.shown_settling))
        print("  failures: %d" % len(self.failures))
        if self.rss_start is not None:
            bound = " (bound %.1f MB)" % self.bound if self.bound else ""
            print("  RSS:      start %.1f MB, peak %.1f MB, end %.1f MB%s" % (self.rss_start, self.rss_peak, self.rss_end, bound))
            print("  web/media processes: peak %d using %.1f MB" % self.children_peak)
            print("  RSS at the checkpoints (calls: MB): " + ", ".join("%d: %.0f" % point for point in self.checkpoints))
            if self.baseline is not None and self.checkpoints[-1][0] > self.baseline[0]:
                after = [rss for calls, rss in self.checkpoints if calls >= self.baseline[0]]
                (first, base), (last, end) = self.baseline, self.checkpoints[-1]
                print("  after the warm-up: %.0f to %.0f MB at the checkpoints (%.2f to %.2f× the warm-up's), "
                      "%+.1f KB a call from it to the end" % (min(after), max(after), min(after) / base,
                                                              max(after) / base, (end - base) * 1024 / (last - first)))
        print("  longest wait for the main thread: %.1f s (after %s)" % self.longest_stall)
        criticals, freed = self.service_messages()
        print("  GLib criticals and warnings in the service's log: %d" % len(criticals))
        for message, count in criticals.most_common(8):
            print("    %4d× %s" % (count, message))
        if freed:
            self.violations.append("the service used a freed or wrong object %d times (see %s)" % (freed, self.service_log.name))
        print("  time:     %.0f s" % elapsed)
        for violation in self.violations:
            print("FAILED: " + violation)
        for failure in self.failures[:10]:
            print("FAILED call: " + failure)


if __name__ == "__main__":
    sys.exit(main())
