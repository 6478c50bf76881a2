#!/usr/bin/python3
"""Lists every public symbol of the given modules that has no documentation comment.

Usage: docs-check.py SYMBOL_GRAPH_DIR MODULE...

Reads the symbol graphs `swift package dump-symbol-graph` wrote (MODULE.symbols.json and the
MODULE@Other.symbols.json of its extensions to other modules' types), prints one line per public
or open symbol without a doc comment, as FILE:LINE: Module.Path (kind), then a count per module,
and exits with 1 if any symbol was listed (2 if a module's symbol graph is missing).

For the modules in TYPED_MODULES (DocumentUI) it also lists every public declaration that takes or
returns a raw GTK pointer (`UnsafeMutablePointer<Gtk…>`, `<Adw…>`, `<Gdk…>`, `OpaquePointer`),
spelled out, through a typealias of one (GtkSupport's `WidgetPointer`), or in the symbol's
mangled identifier, which spells the types a typealias hides. Its public API speaks `Widget`,
`WindowWidget`, `Icon` and `AppInstance`, whose `gtkWidget`/`init(gtkWidget:)`-style members
(BRIDGE_MEMBERS) are the one way across. Those are listed as FILE:LINE: Module.Path: declaration, and fail the check too.

A symbol counts as documented when DocC shows a comment for it: its own `///` comment, or the
one it inherits as the implementation of a documented protocol requirement (`description`,
`errorDescription`, `==`, or a requirement of the module's own protocols). Members the compiler
synthesizes are left out of the graphs (--skip-synthesized-members).
"""

import json
import os
import re
import sys
from urllib.parse import unquote, urlparse


def graph_files(directory, module):
    """The module's own symbol graph and those of its extensions to other modules, in
    `directory` or in its subfolder named after the module (as `make docs` lays them out)."""
    if os.path.isdir(os.path.join(directory, module)):
        directory = os.path.join(directory, module)
    names = sorted(os.listdir(directory))
    own = f"{module}.symbols.json"
    return [os.path.join(directory, name) for name in names
            if name == own or (name.startswith(f"{module}@") and name.endswith(".symbols.json"))]


def is_documented(symbol):
    comment = symbol.get("docComment") or {}
    return any(line.get("text", "").strip() for line in comment.get("lines", []))


def where(symbol, root):
    location = symbol.get("location")
    if not location:
        return "(no source location)"
    path = unquote(urlparse(location["uri"]).path)
    if path.startswith(root + os.sep):
        path = os.path.relpath(path, root)
    return f"{path}:{location['position']['line'] + 1}"


# Modules whose public declarations must not carry raw GTK pointers, and the members that bridge
# GtkSupport's wrappers to raw GTK (allowed to, by name).
TYPED_MODULES = {"DocumentUI"}
BRIDGE_MEMBERS = {"gtkWidget", "init(gtkWidget:)", "gtkWindow", "init(gtkWindow:)", "gIcon", "init(gIcon:)",
                  "gtkApplication", "init(gtkApplication:)"}
RAW_POINTER = re.compile(r"Unsafe(Mutable)?(Raw)?Pointer<(Gtk|Adw|Gdk|_Gtk|_Adw|_Gdk)|OpaquePointer|\bWidgetPointer\b")
# The same in a symbol's mangled identifier, which spells the canonical types a typealias hides
# (`var widget: Widget` over `typealias Widget = UnsafeMutablePointer<GtkWidget>`):
# UnsafeMutablePointer / UnsafePointer of an imported Gtk, Adw or Gdk struct, or OpaquePointer.
RAW_POINTER_MANGLED = re.compile(r"S[pP]ySo\d+_?(Gtk|Adw|Gdk)|s13OpaquePointerV")


def declaration(symbol):
    return "".join(fragment.get("spelling", "") for fragment in symbol.get("declarationFragments", []))


def raw_aliases(files):
    """The precise identifiers of the typealiases, in any of `files`, that name a raw GTK pointer."""
    aliases = set()
    for file in files:
        with open(file, encoding="utf-8") as handle:
            for symbol in json.load(handle)["symbols"]:
                if symbol["kind"]["identifier"] == "swift.typealias" and RAW_POINTER.search(declaration(symbol)):
                    aliases.add(symbol["identifier"]["precise"])
    return aliases


def raw_pointer_declarations(symbols, aliases, root):
    """The public declarations that mention a raw GTK pointer, spelled out, through a typealias,
    or in their mangled types, apart from the bridge members."""
    found = []
    for symbol in symbols:
        if symbol["pathComponents"][-1] in BRIDGE_MEMBERS:
            continue
        text = declaration(symbol)
        through_alias = any(fragment.get("preciseIdentifier") in aliases
                            for fragment in symbol.get("declarationFragments", []))
        if RAW_POINTER.search(text) or through_alias or RAW_POINTER_MANGLED.search(symbol["identifier"]["precise"]):
            found.append((where(symbol, root), ".".join(symbol["pathComponents"]), " ".join(text.split())))
    return sorted(found)


def main(arguments):
    if len(arguments) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    directory, modules = arguments[0], arguments[1:]
    root = os.getcwd()
    missing_total = 0
    counts = []
    for module in modules:
        files = graph_files(directory, module) if os.path.isdir(directory) else []
        if not files:
            print(f"docs-check: no symbol graph for {module} in {directory} (make docs makes them)",
                  file=sys.stderr)
            return 2
        seen = {}
        for file in files:
            with open(file, encoding="utf-8") as handle:
                for symbol in json.load(handle)["symbols"]:
                    if symbol.get("accessLevel") in ("public", "open"):
                        seen.setdefault(symbol["identifier"]["precise"], symbol)
        missing = [symbol for symbol in seen.values() if not is_documented(symbol)]
        lines = sorted((where(symbol, root), ".".join([module] + symbol["pathComponents"]),
                        symbol["kind"]["displayName"]) for symbol in missing)
        for place, name, kind in lines:
            print(f"{place}: {name} ({kind})")
        counts.append(f"{module}: {len(seen)} public symbols, {len(missing)} without documentation")
        missing_total += len(missing)
        if module in TYPED_MODULES:
            every_graph = [file for name in modules if os.path.isdir(directory)
                           for file in graph_files(directory, name)]
            raw = raw_pointer_declarations(seen.values(), raw_aliases(every_graph), root)
            for place, name, text in raw:
                print(f"{place}: {module}.{name}: raw GTK pointer in public API: {text}")
            counts.append(f"{module}: {len(raw)} public declarations with a raw GTK pointer "
                          "(bridge members apart)")
            missing_total += len(raw)
    for line in counts:
        print(line)
    return 1 if missing_total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
