#!/usr/bin/env python3
"""Sums up a stage trace: the median time of each stage of Dossier's showings, per kind.

Run the previewer bench with DOSSIER_TRACE_STAGES=1 (make bench, or make bench-distros, which
passes it into the chroots) and give this its output: the bench, the previewer service and
its decoder workers write `TRACE <ms> <pid> <stage>` lines on the clock they share
(`StageTrace`). Each showing runs from the bench's `bench ShowFile <name>` to the next one;
a stage's time is its first mark in the showing, in ms after the ShowFile, and `bench content`
is when the bench saw the content on screen (its own figure: it marks it later, once the
content has held).

Usage: tools/stage-trace.py LOG [--kind TEXT] [--warm]
"""
import argparse
import statistics
import sys


def showings(path):
    current = None
    with open(path, errors="replace") as log:
        for line in log:
            if not line.startswith("TRACE "):
                continue
            parts = line.rstrip("\n").split(" ", 3)
            if len(parts) < 4:
                continue
            _, time, _, stage = parts
            time = float(time)
            if stage.startswith("bench ShowFile "):
                current = {"name": stage[len("bench ShowFile "):], "start": time, "stages": {}}
                yield current
            elif current is not None:
                if stage.startswith("bench content "):
                    # The bench's own figure: when the content was first on screen (it marks
                    # this once it has seen the content hold).
                    shown = stage.split()[-1]
                    if shown.isdigit():
                        current["stages"]["bench content"] = float(shown)
                    continue
                current["stages"].setdefault(stage, time - current["start"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--kind", default="", help="only showings whose name holds this")
    parser.add_argument("--warm", action="store_true", help="warm showings (cold by default)")
    arguments = parser.parse_args()
    temperature = "-warm" if arguments.warm else "-cold"
    kinds = {}
    for showing in showings(arguments.log):
        name = showing["name"]
        if "Dossier" not in name or not name.endswith(temperature) or arguments.kind not in name:
            continue
        kinds.setdefault(name, []).append(showing["stages"])
    if not kinds:
        sys.exit(f"stage-trace: no Dossier {temperature[1:]} showing with a trace in {arguments.log}")
    for name, runs in kinds.items():
        order = {}
        for stages in runs:
            for stage, time in stages.items():
                order.setdefault(stage, []).append(time)
        print(f"{name}: {len(runs)} showings, median ms after ShowFile (min-max)")
        for stage, times in sorted(order.items(), key=lambda item: statistics.median(item[1])):
            print(f"  {statistics.median(times):8.1f}  ({min(times):.1f}-{max(times):.1f})  {stage}"
                  + (f"  [in {len(times)} of {len(runs)}]" if len(times) < len(runs) else ""))


if __name__ == "__main__":
    main()
