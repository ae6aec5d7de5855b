# PixelBoop for Linux — build, install and uninstall the `boop` command.
#
#   make                      release build of boop, plus man page and completions (build-docs/)
#   sudo make install         PREFIX=/usr/local by default; DESTDIR is honoured for packaging:
#   make install DESTDIR=/tmp/stage PREFIX=/usr
#   sudo make uninstall       removes exactly the files install put there
#   make test                 the project's test suite (scripts/test.sh)
#
# SwiftPM builds in $(SCRATCH) (default .build); JOBS limits parallel compile jobs.

PREFIX   ?= /usr/local
DESTDIR  ?=
SWIFT    ?= swift
SCRATCH  ?= .build
JOBS     ?= 2
INSTALL  ?= install

BINDIR     := $(PREFIX)/bin
MANDIR     := $(PREFIX)/share/man/man1
BASHDIR    := $(PREFIX)/share/bash-completion/completions
ZSHDIR     := $(PREFIX)/share/zsh/site-functions
FISHDIR    := $(PREFIX)/share/fish/vendor_completions.d
EXAMPLEDIR := $(PREFIX)/share/pixelboop/examples

BOOP_BIN ?= $(SCRATCH)/release/boop
DOCS     := build-docs
EXAMPLES := $(notdir $(wildcard examples/*.json))

.PHONY: all build docs install uninstall test clean

all: build docs

# SwiftPM decides what is out of date, so this always asks it.
build:
	$(SWIFT) build -c release --scratch-path $(SCRATCH) -j $(JOBS) --product boop

docs: build
	BOOP="$(abspath $(BOOP_BIN))" SCRATCH_PATH="$(abspath $(SCRATCH))" JOBS=$(JOBS) scripts/generate-docs.sh $(DOCS)

# Does not rebuild when everything is already there, so `make && sudo make install` leaves no
# root-owned files in the build folder.
install:
	@if [ ! -x "$(BOOP_BIN)" ] || [ ! -f "$(DOCS)/boop.1" ]; then $(MAKE) all; fi
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" "$(DESTDIR)$(BASHDIR)" \
		"$(DESTDIR)$(ZSHDIR)" "$(DESTDIR)$(FISHDIR)" "$(DESTDIR)$(EXAMPLEDIR)"
	$(INSTALL) -m 755 "$(BOOP_BIN)" "$(DESTDIR)$(BINDIR)/boop"
	$(INSTALL) -m 644 "$(DOCS)/boop.1" "$(DESTDIR)$(MANDIR)/boop.1"
	$(INSTALL) -m 644 "$(DOCS)/completions/boop.bash" "$(DESTDIR)$(BASHDIR)/boop"
	$(INSTALL) -m 644 "$(DOCS)/completions/_boop" "$(DESTDIR)$(ZSHDIR)/_boop"
	$(INSTALL) -m 644 "$(DOCS)/completions/boop.fish" "$(DESTDIR)$(FISHDIR)/boop.fish"
	$(INSTALL) -m 644 $(addprefix examples/,$(EXAMPLES)) "$(DESTDIR)$(EXAMPLEDIR)/"

# Only what install wrote; shared folders (bin, man1, completion dirs) stay. The pixelboop folders
# are removed only when empty.
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/boop" "$(DESTDIR)$(MANDIR)/boop.1" "$(DESTDIR)$(BASHDIR)/boop" \
		"$(DESTDIR)$(ZSHDIR)/_boop" "$(DESTDIR)$(FISHDIR)/boop.fish"
	rm -f $(addprefix "$(DESTDIR)$(EXAMPLEDIR)/,$(addsuffix ",$(EXAMPLES)))
	-rmdir "$(DESTDIR)$(EXAMPLEDIR)" "$(DESTDIR)$(PREFIX)/share/pixelboop" 2>/dev/null

test:
	scripts/test.sh

clean:
	rm -rf $(DOCS)
