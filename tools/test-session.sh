#!/usr/bin/env bash
# Runs a command inside the test's X display and D-Bus session (started by the Makefile with
# xvfb-run and dbus-run-session), then ends whatever the tests left running in that session
# (Nautilus and its helpers, an activated previewer service) before the display goes away, so
# nothing prints after the test runner's summary. Only processes of this session are touched.
set -u
"$@"
status=$?
session="DBUS_SESSION_BUS_ADDRESS=${DBUS_SESSION_BUS_ADDRESS:-none}"
for environ in /proc/[0-9]*/environ; do
  pid=${environ#/proc/}; pid=${pid%/environ}
  [[ $pid == $$ ]] && continue
  if grep -qzxF "$session" "$environ" 2>/dev/null; then
    kill "$pid" 2>/dev/null
  fi
done
exit $status
