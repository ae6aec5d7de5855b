# PixelBoop for Linux — build, install and uninstall the `boop` command.
#
#   make                      release build of boop (Swift runtime linked in: it runs without the
#                             toolchain), libpixelboop (shared + static), man page and completions
#   sudo make install         PREFIX=/usr/local by default (with lv2-dev: the LV2 instrument in
#                             $(libdir)/lv2/boop.lv2 too); DESTDIR is honoured for packaging:
#   make install DESTDIR=/tmp/stage PREFIX=/usr
#   sudo make uninstall       removes exactly the files install put there
#   make deb                  build-deb/pixelboop_<version>_<arch>.deb (PREFIX=/usr) and its debug
#                             symbols, build-deb/pixelboop-dbgsym_<version>_<arch>.deb
#   make test                 the project's test suite (scripts/test.sh)
#
# SwiftPM builds in $(SCRATCH) (default .build-install), CMake in $(LIBBUILD); JOBS limits
# parallel compile jobs.

PREFIX   ?= /usr/local
DESTDIR  ?=
SWIFT    ?= swift
SCRATCH  ?= .build-install
LIBBUILD ?= build-lib
JOBS     ?= 2
# dpkg-deb's compression options for make deb (empty: its default, xz), e.g. "-Zgzip -z1".
DEB_COMPRESSION ?=
VERSION  := $(shell sed -n 's/^\#define PIXELBOOP_VERSION "\(.*\)"/\1/p' Sources/CAudioEngine/include/CAudioEngine.h)
INSTALL  ?= install

BINDIR     := $(PREFIX)/bin
MANDIR     := $(PREFIX)/share/man/man1
BASHDIR    := $(PREFIX)/share/bash-completion/completions
ZSHDIR     := $(PREFIX)/share/zsh/site-functions
FISHDIR    := $(PREFIX)/share/fish/vendor_completions.d
EXAMPLEDIR := $(PREFIX)/share/pixelboop/examples
# boop is installed stripped; its debug symbols go where gdb looks them up by build ID
# (/usr/lib/debug/.build-id/xx/yyyy.debug for PREFIX=/usr), Debian's layout.
DEBUGDIR   := $(PREFIX)/lib/debug

BOOP_BIN ?= $(SCRATCH)/release/boop
DOCS     := build-docs
EXAMPLES := $(notdir $(wildcard examples/*.json))

.PHONY: all build lib docs install uninstall deb test clean

all: build lib docs

# SwiftPM decides what is out of date, so this always asks it. The Swift runtime is linked
# statically (Package.swift does so in every release build, the same build the tests run): the
# installed boop needs only system libraries.
build:
	$(SWIFT) build -c release --scratch-path $(SCRATCH) -j $(JOBS) --product boop

# The engine as a C library, configured for PREFIX (the pkg-config and CMake files name it).
lib:
	cmake -S . -B $(LIBBUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DBOOP_BUILD_BENCH=OFF \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(LIBBUILD) -j $(JOBS) --target pixelboop pixelboop_static \
		$$(grep -qx 'BOOP_LV2:BOOL=ON' $(LIBBUILD)/CMakeCache.txt && echo boop_lv2)

docs: build
	BOOP="$(abspath $(BOOP_BIN))" SCRATCH_PATH="$(abspath $(SCRATCH))" JOBS=$(JOBS) scripts/generate-docs.sh $(DOCS)

# Does not rebuild when everything is already there, so `make && sudo make install` leaves no
# root-owned files in the build folder.
install:
	@if [ ! -x "$(BOOP_BIN)" ] || [ ! -f "$(DOCS)/boop.1" ]; then $(MAKE) build docs; fi
	@if ! grep -qx "CMAKE_INSTALL_PREFIX:PATH=$(PREFIX)" $(LIBBUILD)/CMakeCache.txt 2>/dev/null || \
		[ ! -f $(LIBBUILD)/libpixelboop.a ]; then $(MAKE) lib PREFIX=$(PREFIX); fi
	DESTDIR="$(DESTDIR)" cmake --install $(LIBBUILD) >/dev/null
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" "$(DESTDIR)$(BASHDIR)" \
		"$(DESTDIR)$(ZSHDIR)" "$(DESTDIR)$(FISHDIR)" "$(DESTDIR)$(EXAMPLEDIR)"
	$(INSTALL) -m 755 "$(BOOP_BIN)" "$(DESTDIR)$(BINDIR)/boop"
	scripts/split-debug.sh "$(DESTDIR)$(BINDIR)/boop" "$(DESTDIR)$(DEBUGDIR)"
	$(INSTALL) -m 644 "$(DOCS)/boop.1" "$(DESTDIR)$(MANDIR)/boop.1"
	$(INSTALL) -m 644 "$(DOCS)/completions/boop.bash" "$(DESTDIR)$(BASHDIR)/boop"
	$(INSTALL) -m 644 "$(DOCS)/completions/_boop" "$(DESTDIR)$(ZSHDIR)/_boop"
	$(INSTALL) -m 644 "$(DOCS)/completions/boop.fish" "$(DESTDIR)$(FISHDIR)/boop.fish"
	$(INSTALL) -m 644 $(addprefix examples/,$(EXAMPLES)) "$(DESTDIR)$(EXAMPLEDIR)/"

# Only what install wrote; shared folders (bin, man1, completion dirs) stay. The pixelboop folders
# are removed only when empty.
uninstall:
	@# The debug file is named by the installed boop's build ID.
	@id=$$(readelf -n "$(DESTDIR)$(BINDIR)/boop" 2>/dev/null | sed -n 's/.*Build ID: \(..\)\(.*\)/\1\/\2/p'); \
		if [ -n "$$id" ]; then rm -f "$(DESTDIR)$(DEBUGDIR)/.build-id/$$id.debug"; \
		rmdir "$(DESTDIR)$(DEBUGDIR)/.build-id/$${id%%/*}" "$(DESTDIR)$(DEBUGDIR)/.build-id" "$(DESTDIR)$(DEBUGDIR)" 2>/dev/null || true; fi
	rm -f "$(DESTDIR)$(BINDIR)/boop" "$(DESTDIR)$(MANDIR)/boop.1" "$(DESTDIR)$(BASHDIR)/boop" \
		"$(DESTDIR)$(ZSHDIR)/_boop" "$(DESTDIR)$(FISHDIR)/boop.fish"
	rm -f $(addprefix "$(DESTDIR)$(EXAMPLEDIR)/,$(addsuffix ",$(EXAMPLES)))
	-rmdir "$(DESTDIR)$(EXAMPLEDIR)" "$(DESTDIR)$(PREFIX)/share/pixelboop" 2>/dev/null
	@# CMake's manifest lists the library's files, the last one without a newline.
	@if [ -f $(LIBBUILD)/install_manifest.txt ]; then \
		awk 1 $(LIBBUILD)/install_manifest.txt | sed 's|^$(DESTDIR)||' | while read -r f; do rm -f "$(DESTDIR)$$f"; done; \
		for d in $$(awk 1 $(LIBBUILD)/install_manifest.txt | sed 's|^$(DESTDIR)||' | xargs -n1 dirname | sort -ru); do \
			case "$$d" in */pixelboop|*/cmake/PixelBoop|*/pkgconfig|*/cmake|*/lv2/boop.lv2) rmdir "$(DESTDIR)$$d" 2>/dev/null || true;; esac; \
		done; fi

# A Debian package of exactly what `make install PREFIX=/usr` installs; Depends computed by
# dpkg-shlibdeps from the libraries boop and libpixelboop actually link.
deb:
	$(MAKE) build docs
	$(MAKE) lib PREFIX=/usr
	rm -rf build-deb && mkdir -p build-deb/root
	$(MAKE) install DESTDIR="$(abspath build-deb/root)" PREFIX=/usr
	DEB_COMPRESSION="$(DEB_COMPRESSION)" scripts/make-deb.sh build-deb/root "$(VERSION)" build-deb

test:
	scripts/test.sh

clean:
	rm -rf $(DOCS) build-deb
