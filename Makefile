# Dossier — two commands: `make run` and `make test` (see README.md).
# Both install what is missing (Debian packages), build, then run or test.

SWIFT       ?= swift
CONFIG      ?= debug
# The build folder (SwiftPM's scratch path too); `make test-distros` builds into its cache.
BUILD_DIR   ?= .build
BUILD       := $(abspath $(BUILD_DIR))
BIN         := $(BUILD)/$(CONFIG)/dossier
SHARE       := $(BUILD)/share
SAMPLES     := data/samples
LINGUAS     := $(shell cat po/LINGUAS 2>/dev/null)
MO_FILES    := $(foreach lang,$(LINGUAS),$(SHARE)/locale/$(lang)/LC_MESSAGES/dossier.mo)
TEST_HOME   ?= $(BUILD)/test-home
SCREENSHOTS ?= $(BUILD)/test-screenshots

# Uninstalled runs find Dossier's own MIME types and translations in the build tree,
# the way `meson devenv` does for GNOME apps.
RUN_ENV := XDG_DATA_DIRS="$(SHARE):$${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
           DOSSIER_LOCALEDIR="$(SHARE)/locale"

.PHONY: all deps build translations mime examples run run-sketchbook test test-swift test-sanitize test-install test-stress test-distros bench bench-build bench-session bench-distros fuzz fuzz-build soak pot check-po clean samples docs docs-check symbol-graphs lint lint-fix

all: build

deps:
	@bash tools/install-deps.sh

build: deps
	$(SWIFT) build -c $(CONFIG) --build-tests --scratch-path $(BUILD)
	@$(MAKE) --no-print-directory translations mime examples

translations: $(MO_FILES)

$(SHARE)/locale/%/LC_MESSAGES/dossier.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

mime: $(SHARE)/mime/mime.cache

$(SHARE)/mime/mime.cache: data/mime/io.github.dossier.Dossier.xml
	@mkdir -p $(SHARE)/mime/packages
	cp $< $(SHARE)/mime/packages/
	update-mime-database $(SHARE)/mime

# The sample app's type, desktop entry, thumbnailer, previewer and template, in a data folder of
# its own (Dossier's runs and tests do not see it; the sample's UI tests install theirs privately).
EXAMPLES_SHARE := $(BUILD)/examples/share

examples: $(EXAMPLES_SHARE)/applications/io.github.dossier.Sketchbook.desktop

$(EXAMPLES_SHARE)/applications/io.github.dossier.Sketchbook.desktop: Examples/Sketchbook/install-data.sh $(wildcard Examples/Sketchbook/data/*)
	bash Examples/Sketchbook/install-data.sh $(EXAMPLES_SHARE) $(BUILD)/$(CONFIG)/sketchbook

# Sketchbook on ~/Sketches. A Dossier started with the same XDG_DATA_DIRS shows its files with
# Sketchbook's thumbnails and previews.
run-sketchbook: build
	XDG_DATA_DIRS="$(EXAMPLES_SHARE):$(SHARE):$${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
	  DOSSIER_LOCALEDIR="$(SHARE)/locale" $(BUILD)/$(CONFIG)/sketchbook

# The main job: the browser window on the samples (a running Dossier opens it in its own
# process and this returns at once).
run: build
	$(RUN_ENV) $(BIN) $(SAMPLES)

# Every test: the meson install into a staging folder, checked; then the Swift suites under
# a private X display and D-Bus session (UI tests gate on the display themselves), with XDG
# folders isolated from the developer's own. XCTest's summary closes the run. TESTS=REGEX runs
# only the tests it matches (`make test-swift TESTS=PreviewerBusContractTests`).
test: build test-install test-swift

# What runs the tests: swift test, or (TEST_RUNNER=…) the test bundle itself with a test's name,
# for a user who may not write to the build folder (make test-distros runs Nautilus so).
TEST_RUNNER ?= $(SWIFT) test -c $(CONFIG) --skip-build --scratch-path $(BUILD) --disable-swift-testing $(if $(TESTS),--filter '$(TESTS)')

# The tests' session: fresh private XDG folders, then a command under its own X display and D-Bus
# session bus (`$(TEST_SESSION) COMMAND`).
# The runtime folder is short and in /tmp, one per test home: GVFS's sftp backend puts ssh's
# control socket at $$XDG_RUNTIME_DIR/gvfsd-sftp/<40 hex digits>.<16 more>, and a socket path
# has 107 bytes at most, so a longer runtime folder makes every sftp mount fail with
# "Connection failed".
TEST_RUNTIME = /tmp/dossier-run-$(shell printf %s '$(abspath $(TEST_HOME))' | md5sum | cut -c1-12)
FRESH_TEST_HOME = rm -rf $(TEST_HOME) $(TEST_RUNTIME) && mkdir -p $(TEST_HOME)/config $(TEST_HOME)/data $(TEST_HOME)/cache \
                  $(TEST_RUNTIME) && chmod 700 $(TEST_RUNTIME)
TEST_SESSION = $(RUN_ENV) XDG_CONFIG_HOME=$(TEST_HOME)/config XDG_DATA_HOME=$(TEST_HOME)/data \
	  XDG_CACHE_HOME=$(TEST_HOME)/cache XDG_RUNTIME_DIR=$(TEST_RUNTIME) \
	  GDK_BACKEND=x11 GSK_RENDERER=cairo NO_AT_BRIDGE=1 DOSSIER_BINARY=$(BIN) \
	  DOSSIER_SCREENSHOTS=$(SCREENSHOTS) \
	  xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- \
	  bash tools/test-session.sh

test-swift:
	@$(FRESH_TEST_HOME)
	$(TEST_SESSION) $(TEST_RUNNER)

# The DocumentCore and GObjectSupport tests (or TESTS=REGEX) under ThreadSanitizer, then under
# AddressSanitizer with LeakSanitizer, in the session `make test` gives them; each sanitizer has
# its own build folder (.build/tsan, .build/asan). SANITIZERS=thread runs one. The suppressions
# of reports inside system libraries, each with its reason, are in tools/sanitizers/.
SANITIZERS      ?= thread address
SANITIZED_TESTS := DocumentCoreTests|GObjectSupportTests
SANITIZER_SUPPRESSIONS := $(CURDIR)/tools/sanitizers

sanitizer_build_thread  := $(BUILD)/tsan
sanitizer_build_address := $(BUILD)/asan
sanitizer_env_thread  := TSAN_OPTIONS="suppressions=$(SANITIZER_SUPPRESSIONS)/tsan.supp"
# Whole stacks for every allocation (slower): GLib and its neighbours have no frame pointers, and
# a leak's stack would stop at their first frame, before the code that leaked. GLib's slice
# allocator off and freed pointers cleared, as GLib advises for memory checkers.
sanitizer_env_address := ASAN_OPTIONS="fast_unwind_on_malloc=0:malloc_context_size=20" \
                         LSAN_OPTIONS="suppressions=$(SANITIZER_SUPPRESSIONS)/lsan.supp" \
                         G_SLICE=always-malloc G_DEBUG=gc-friendly

test-sanitize: $(SANITIZERS:%=test-sanitize-%)

# Only the test bundle and the second process the coordination tests start are built with the
# sanitizer: not the app, nor the benchmark. The decoder worker and the test decoder are the
# normal build's (separate processes; they limit their address space, which a sanitizer's shadow
# memory alone exceeds). Each sanitizer's tests have XDG folders of their own, apart from make test's.
test-sanitize-%: TEST_HOME = $(sanitizer_build_$*)/test-home
test-sanitize-%: deps translations mime
	$(SWIFT) build --sanitize=$* --scratch-path $(sanitizer_build_$*) --product DossierPackageTests
	$(SWIFT) build --sanitize=$* --scratch-path $(sanitizer_build_$*) --product CoordinationProbe
	$(SWIFT) build -c $(CONFIG) --scratch-path $(BUILD) --product dossier-decoder
	$(SWIFT) build -c $(CONFIG) --scratch-path $(BUILD) --product DossierTestDecoder
	@$(FRESH_TEST_HOME)
	$(TEST_SESSION) env $(sanitizer_env_$*) DOSSIER_DECODER=$(BUILD)/$(CONFIG)/dossier-decoder \
	  DOSSIER_TEST_DECODER=$(BUILD)/$(CONFIG)/DossierTestDecoder \
	  $(SWIFT) test --skip-build --sanitize=$* --scratch-path $(sanitizer_build_$*) --disable-swift-testing \
	  --filter '$(or $(TESTS),$(SANITIZED_TESTS))'

# The meson build folder is kept between runs (reconfigured, not wiped), so its release build of
# the Swift package is incremental; the staging folder is made anew each time.
test-install:
	rm -rf $(BUILD_DIR)/stage
	if [ -f $(BUILD_DIR)/meson/build.ninja ]; then meson setup --reconfigure $(BUILD_DIR)/meson meson-wrapper --prefix=/usr; \
	else rm -rf $(BUILD_DIR)/meson && meson setup $(BUILD_DIR)/meson meson-wrapper --prefix=/usr; fi
	meson compile -C $(BUILD_DIR)/meson
	meson install -C $(BUILD_DIR)/meson --destdir $(BUILD)/stage
	bash meson-wrapper/check-install.sh $(BUILD)/stage /usr

# The proof that no test leans on timing: make test RUNS times in a row with every core kept
# busy by stress-ng (as on a shared CI machine). Run it on a fresh clone.
RUNS ?= 3

test-stress: deps
	@stress-ng --cpu $$(nproc) --quiet & stress=$$!; trap 'kill $$stress' EXIT; \
	for run in $$(seq 1 $(RUNS)); do \
	  echo "test-stress: make test, run $$run of $(RUNS), under stress-ng --cpu $$(nproc)"; \
	  $(MAKE) --no-print-directory test || exit 1; \
	done; echo "test-stress: $(RUNS) of $(RUNS) runs passed"

# Every current GNOME: Debian 12, 13 and testing, each in a cached chroot (see
# tools/distro-test.sh): build, DocumentCore tests, the previewer's D-Bus contract, and Space in
# that suite's real Nautilus. DISTROS="trixie forky" runs some.
DISTROS ?=
test-distros: deps
	bash tools/distro-test.sh $(DISTROS)

# Speed, measured against a peer in the same run (ratios, medians). The previewer is timed
# against Sushi, and the browser (local and remote folders) against Nautilus, under their own
# display and session bus, with private XDG folders.
BENCH_HOME := $(BUILD)/bench-home
# Where the previewer bench makes its inputs once (make bench-distros shows the host's in its chroots).
BENCH_INPUTS ?= $(BUILD)/bench-inputs

# Dossier is measured as it is installed (meson's default): the Swift runtime linked statically.
BENCH_BUILD := $(BUILD_DIR)/static

# The benches' session: fresh private XDG folders, then a command under its own X display and
# D-Bus session bus (`$(BENCH_SESSION) COMMAND`).
# The runtime folder is a short one in /tmp, as the tests' (TEST_RUNTIME): GVFS's sftp backend
# puts ssh's control socket there, and a socket's path holds 107 bytes.
BENCH_RUNTIME = /tmp/dossier-bench-run-$(shell printf %s '$(abspath $(BENCH_HOME))' | md5sum | cut -c1-12)
FRESH_BENCH_HOME = rm -rf $(BENCH_HOME) $(BENCH_RUNTIME) && mkdir -p $(BENCH_HOME)/data/dbus-1/services $(BENCH_HOME)/cache \
	  $(BENCH_RUNTIME) && chmod 700 $(BENCH_RUNTIME)
BENCH_SESSION = XDG_DATA_HOME=$(BENCH_HOME)/data XDG_CACHE_HOME=$(BENCH_HOME)/cache \
	  XDG_CONFIG_HOME=$(BENCH_HOME)/config XDG_STATE_HOME=$(BENCH_HOME)/state XDG_RUNTIME_DIR=$(BENCH_RUNTIME) \
	  XDG_DATA_DIRS="$(SHARE):$${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
	  DOSSIER_BENCH_INPUTS=$(BENCH_INPUTS) \
	  xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- env GDK_BACKEND=x11 GSK_RENDERER=cairo \
	  bash tools/test-session.sh

bench: deps mime bench-build
	$(BENCH_BUILD)/release/DossierBench types query coordination thumbnails bookmarks
	@$(FRESH_BENCH_HOME)
	$(BENCH_SESSION) $(BENCH_BUILD)/release/DossierBench previewer browser
	@# The photo folder (1,000 12 MP JPEGs, made once into .build/bench-photos) against Nautilus,
	@# and the previewer service's memory over time against Sushi: a session of their own.
	$(BENCH_SESSION) $(BENCH_BUILD)/release/DossierBench photo-folder memory
	@# A 1,000-file folder on the tests' sshd, through GVFS, against Nautilus (as root, as the
	@# remote-location tests: it prints why it skips otherwise): a session of its own.
	@$(FRESH_BENCH_HOME)
	$(BENCH_SESSION) $(BENCH_BUILD)/release/DossierBench remote

bench-build:
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(BENCH_BUILD)

# Some benches (BENCH_PARTS, DossierBench's names) in the benches' session, without deps or a
# build: what make bench-distros runs inside each chroot (the floor alone from a debug build:
# BENCH_BUILD=$(BUILD_DIR) BENCH_CONFIG=debug).
BENCH_PARTS  ?= previewer
BENCH_CONFIG ?= release
bench-session:
	@$(FRESH_BENCH_HOME)
	$(BENCH_SESSION) $(BENCH_BUILD)/$(BENCH_CONFIG)/DossierBench $(BENCH_PARTS)

# The previewer bench on every current GNOME, each in make test-distros's chroot against that
# suite's Sushi, with the floor (a bare libadwaita window's first frame) of each stack; Debian 12
# the floor alone by default (make bench measures its previewer). See tools/distro-test.sh.
bench-distros: deps
	DOSSIER_DISTRO_STEPS=bench bash tools/distro-test.sh

# Fuzzing: every parser of outside data under libFuzzer and AddressSanitizer, FUZZ_SECONDS
# each (FUZZ_TARGETS="markdown csv" for some), from the seeds in Tests/Fuzz/; tools/fuzz.sh
# prints the executions per target and fails on a crash, a hang or a memory blow-up. Built
# apart from the normal build (a -sanitize=fuzzer link needs libFuzzer's driver).
FUZZ_SECONDS ?= 60
FUZZ_RSS_MB  ?= 2048
FUZZ_TIMEOUT ?= 25
# Targets run at once, a core each (CI: 2).
FUZZ_JOBS    ?= 1
FUZZ_BUILD   := $(BUILD)/fuzz
# Optimized: many more executions than a debug build makes, for a build a little longer.
FUZZ_CONFIG  ?= release
FUZZ_BIN     := $(FUZZ_BUILD)/$(FUZZ_CONFIG)/DossierFuzz

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RSS_MB=$(FUZZ_RSS_MB) FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) FUZZ_JOBS=$(FUZZ_JOBS) \
	  FUZZ_TARGETS="$(FUZZ_TARGETS)" \
	  bash tools/fuzz.sh $(FUZZ_BIN) $(FUZZ_BUILD)

fuzz-build: deps
	$(SWIFT) build -c $(FUZZ_CONFIG) --product DossierFuzz --scratch-path $(FUZZ_BUILD) \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DDOSSIER_FUZZING -Xswiftc -use-ld=lld

# A soak of the previewer service (tools/soak.py): SOAK_CALLS ShowFile calls over D-Bus, good and
# hostile files alternating, under its own Xvfb, D-Bus session, private HOME, XDG folders and /tmp;
# it checks every 500 calls that the service answers, stays in its memory bound and writes
# nothing outside its cache. Debian's python3 (its gi module).
SOAK_CALLS ?= 10000

soak: build
	/usr/bin/python3 tools/soak.py --binary $(BIN) --fixtures $(BUILD)/$(CONFIG)/WriteFixtures \
	  --samples $(SAMPLES) --share $(SHARE) --root $(BUILD)/soak --calls $(SOAK_CALLS)

# The reference: DocC documentation of DocumentCore and DocumentUI into .build/docs, one archive
# per module (Sources/<Module>/<Module>.docc is its catalog) and the two merged into Dossier.doccarchive.
# The symbol graphs come from the debug build (swift package dump-symbol-graph builds what changed,
# then runs swift-symbolgraph-extract); docc is the toolchain's own, no package plugin.
# The archives are web sites: `python3 -m http.server -d .build/docs/Dossier.doccarchive`, then
# /documentation/documentcore. `make docs-check` lists every public symbol without a `///` comment
# (tools/docs-check.py) and fails if there is one.
DOC_MODULES   := DocumentCore DocumentUI GtkSupport
DOCS          := $(BUILD)/docs
SYMBOL_GRAPHS := $(BUILD)/symbol-graphs
DOCC          ?= $(or $(shell command -v docc),$(dir $(realpath $(shell command -v $(SWIFT))))docc)

# dump-symbol-graph fails for the test runner's own modules when the tests are not built (a build
# without --build-tests): its status is not the check's; the two modules' graphs, made anew, are.
symbol-graphs: deps
	rm -rf $(BUILD)/*/symbolgraph
	-$(SWIFT) package --scratch-path $(BUILD) dump-symbol-graph --minimum-access-level public --skip-synthesized-members >$(BUILD)/symbol-graphs.log 2>&1 \
	  || grep -E '^error:' $(BUILD)/symbol-graphs.log
	rm -rf $(SYMBOL_GRAPHS)
	for module in $(DOC_MODULES); do \
	  mkdir -p $(SYMBOL_GRAPHS)/$$module && \
	  cp $(BUILD)/*/symbolgraph/$$module.symbols.json $$(ls $(BUILD)/*/symbolgraph/$$module@*.symbols.json 2>/dev/null) \
	    $(SYMBOL_GRAPHS)/$$module/ || exit 1; \
	done

docs: symbol-graphs
	rm -rf $(DOCS) && mkdir -p $(DOCS)
	for module in $(DOC_MODULES); do \
	  $(DOCC) convert Sources/$$module/$$module.docc --additional-symbol-graph-dir $(SYMBOL_GRAPHS)/$$module \
	    --output-path $(DOCS)/$$module.doccarchive --fallback-display-name $$module \
	    --fallback-bundle-identifier io.github.dossier.$$module --enable-experimental-external-link-support || exit 1; \
	done
	$(DOCC) merge $(DOC_MODULES:%=$(DOCS)/%.doccarchive) --synthesized-landing-page-name Dossier \
	  --output-path $(DOCS)/Dossier.doccarchive
	@echo "docs: $(DOC_MODULES:%=$(DOCS)/%.doccarchive) and $(DOCS)/Dossier.doccarchive"

docs-check: symbol-graphs
	/usr/bin/python3 tools/docs-check.py $(SYMBOL_GRAPHS) $(DOC_MODULES)

# Code style: the toolchain's own swift-format, with the rules of .swift-format (which ones are off,
# and why: docs/swift-over-gtk.md, "The guards"). Its rules only: its pretty printer would
# re-lay out the arguments aligned under their opening parenthesis and the closures passed mid-call
# that the code writes by design (thousands of lines), so it is not run. Examples/ when it exists.
LINT_PATHS := Sources Tests $(wildcard Examples)

lint:
	$(SWIFT) format lint --strict --parallel --recursive --debug-disable-pretty-print $(LINT_PATHS)

# The rules' own fixes (import order, say), in place, and nothing re-laid out; what a rule
# cannot fix (a name) make lint still reports.
lint-fix:
	$(SWIFT) format format --in-place --parallel --recursive --debug-disable-pretty-print $(LINT_PATHS)

# Translations: extract the template, check the catalogues.
pot:
	xgettext --language=C --from-code=UTF-8 --keyword=tr --keyword=trn:1,2 \
	  --package-name=dossier --package-version=$$(sed -n 's/.*dossierVersion = "\(.*\)"/\1/p' Sources/DocumentCore/Version.swift) \
	  --msgid-bugs-address=https://github.com/dossier-app/dossier/issues \
	  --add-comments=TRANSLATORS --files-from=po/POTFILES --output=po/dossier.pot
	for lang in $(LINGUAS); do msgmerge --update --backup=none po/$$lang.po po/dossier.pot; done

check-po:
	for lang in $(LINGUAS); do msgfmt --check --statistics -o /dev/null po/$$lang.po; done

samples:
	bash tools/make-samples.sh $(SAMPLES)

clean:
	rm -rf $(BUILD_DIR)
