# crib - a minimal container launcher. Plain GNU make; objects under build/.
#
#   make            build build/crib
#   make check      build and run every test (unit, end-to-end as root and as a user, and the
#                   VM guests under QEMU when it is installed)
#   make check-vm   only the VM guests (x86_64, armhf, arm64)
#   make demo       build a busybox rootfs and run the example spec in it, as you
#   make install    PREFIX=/usr/local DESTDIR=
#   make format     apply .clang-format to every C file
#   make bench      start-up time of crib against `unshare`, side by side

CROSS      ?=
CC         := $(CROSS)gcc
# cross builds (CROSS=arm-linux-gnueabihf- or aarch64-linux-gnu-) find the target's libraries
# in Debian's multiarch directories
ifeq ($(CROSS),)
PKG_CONFIG ?= pkg-config
else
PKG_CONFIG ?= env PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS:%-=%)/pkgconfig:/usr/share/pkgconfig pkg-config
endif
PREFIX     ?= /usr/local
DESTDIR    ?=
BUILD      ?= build
VERSION    := 0.1

WARN := -Wall -Wextra -Wformat=2 -Wno-format-nonliteral -Wshadow -Wmissing-prototypes \
        -Wstrict-prototypes -Wpointer-arith -Wvla \
        -Werror=format-security -Werror=implicit-function-declaration \
        -Werror=missing-prototypes -Werror=shadow -Werror=incompatible-pointer-types \
        -Werror=int-conversion -Werror=return-type
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 $(WARN) -D_FORTIFY_SOURCE=2 -fstack-protector-strong -MMD -MP \
            -DCRIB_VERSION='"$(VERSION)"'
# crib is linked statically, libc included: every `crib run` starts a process and clones it,
# and a dynamic crib spent ~10% of each start mapping and relocating shared objects and binding
# symbols lazily again in the container's processes (measured with tests/bench/start-time).
# crib uses no NSS (runtime/account.h), so the static glibc needs no module at run time.
# LDFLAGS= builds a dynamic crib, with the four libraries still static.
LDFLAGS  ?= -static
LIBS     := $(shell $(PKG_CONFIG) --libs libcap libseccomp libapparmor zlib)
ifeq ($(filter -static,$(LDFLAGS)),)
LDLIBS   := -Wl,-Bstatic $(LIBS) -Wl,-Bdynamic
else
LDLIBS   := $(LIBS)
endif
CFLAGS   += $(shell $(PKG_CONFIG) --cflags libcap libseccomp libapparmor zlib)

RUNTIME_SRC := $(wildcard runtime/*.c)
CMD_SRC     := $(wildcard cmd/*.c)
RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ     := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC    := $(wildcard tests/unit/test_*.c)
UNIT_BIN    := $(UNIT_SRC:%.c=$(BUILD)/%)

.PHONY: all check check-unit check-e2e check-vm demo install uninstall install-apparmor uninstall-apparmor \
        format bench deps clean

all: $(BUILD)/crib

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(BUILD) -c -o $@ $<

# the example spec, embedded for `crib spec`
$(BUILD)/example.h: cmd/example.ini
	@mkdir -p $(@D)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/cmd/main.o: $(BUILD)/example.h

# the security levels, embedded as {"name", "text"} for runtime/levels.c
LEVELS := $(wildcard profiles/levels/*)
$(BUILD)/levels-data.h: $(LEVELS)
	@mkdir -p $(@D)
	for f in $(LEVELS); do \
		printf '{"%s",\n' "$$(basename $$f)"; \
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
		printf '},\n'; \
	done > $@
$(BUILD)/runtime/levels.o: $(BUILD)/levels-data.h

# the seccomp profiles, embedded the same way for runtime/seccomp_profile.c
SECCOMP_PROFILES := $(wildcard profiles/seccomp/*)
$(BUILD)/seccomp-data.h: $(SECCOMP_PROFILES)
	@mkdir -p $(@D)
	for f in $(SECCOMP_PROFILES); do \
		printf '{"%s",\n' "$$(basename $$f)"; \
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
		printf '},\n'; \
	done > $@
$(BUILD)/runtime/seccomp_profile.o: $(BUILD)/seccomp-data.h

$(BUILD)/libcrib.a: $(RUNTIME_OBJ)
	rm -f $@
	$(CROSS)ar rcs $@ $^

$(BUILD)/crib: $(CMD_OBJ) $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libcrib.a $(LDLIBS)

# unit tests: one TAP program per file, linked with the runtime library
$(BUILD)/tests/unit/%: $(BUILD)/tests/unit/%.o $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the seccomp equivalence checker (tests/seccomp/)
$(BUILD)/tests/seccomp/equiv: $(BUILD)/tests/seccomp/equiv.o $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/tools/ini-dump: $(BUILD)/tests/tools/ini-dump.o $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the rootfs-swapping attacker of tests/e2e/12-rootfs-devices.t, and a kernel before 5.2
$(BUILD)/tests/tools/swap-race: $(BUILD)/tests/tools/swap-race.o
	$(CC) $(LDFLAGS) -o $@ $^
$(BUILD)/tests/tools/old-kernel: $(BUILD)/tests/tools/old-kernel.o
	$(CC) $(LDFLAGS) -o $@ $^

# the probe that e2e tests run inside containers: static, so any rootfs can hold it
$(BUILD)/probe: tests/probe/probe.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $<

$(BUILD)/rootfs/.done: rootfs-tools/mkrootfs $(BUILD)/probe
	rootfs-tools/mkrootfs --probe $(BUILD)/probe $(BUILD)/rootfs
	touch $@

deps:
	rootfs-tools/install-deps check

check: deps
	$(MAKE) all $(UNIT_BIN) $(BUILD)/tests/seccomp/equiv $(BUILD)/tests/tools/ini-dump \
		$(BUILD)/tests/tools/swap-race $(BUILD)/tests/tools/old-kernel $(BUILD)/rootfs/.done
	tests/run-all $(BUILD)

check-unit: $(UNIT_BIN)
	prove -f -e '' $(UNIT_BIN)

check-vm: all $(BUILD)/probe $(BUILD)/rootfs/.done
	prove -f --comments -e '' tests/vm/run :: $(BUILD)

check-e2e: all $(BUILD)/rootfs/.done $(BUILD)/tests/tools/ini-dump $(BUILD)/tests/tools/swap-race \
		$(BUILD)/tests/tools/old-kernel
	tests/run-all --e2e-only $(BUILD)

demo:
	rootfs-tools/install-deps demo
	$(MAKE) all
	rootfs-tools/mkrootfs $(BUILD)/demo/rootfs
	$(BUILD)/crib spec > $(BUILD)/demo/demo.ini
	$(BUILD)/crib run $(BUILD)/demo/demo.ini

bench: all $(BUILD)/rootfs/.done
	@# the peers are optional: without root, say what is missing and measure what is there
	-rootfs-tools/install-deps bench
	$(BUILD)/crib bench --rootfs $(BUILD)/rootfs
	DOCKER_JSON=$(CURDIR)/../shared/reference/docker-default-seccomp.json tests/bench/start-time $(BUILD)

install: all
	install -D -m 0755 $(BUILD)/crib $(DESTDIR)$(PREFIX)/bin/crib
	install -D -m 0644 cmd/crib.1 $(DESTDIR)$(PREFIX)/share/man/man1/crib.1
	install -D -m 0644 cmd/crib.ini.5 $(DESTDIR)$(PREFIX)/share/man/man5/crib.ini.5

# AppArmor: install crib's two profiles and load them (root); crib only switches to them
APPARMOR_D ?= /etc/apparmor.d
install-apparmor:
	@command -v apparmor_parser >/dev/null || { echo "crib: apparmor_parser is missing; sudo apt-get install apparmor" >&2; exit 1; }
	install -D -m 0644 profiles/apparmor/crib-default $(DESTDIR)$(APPARMOR_D)/crib-default
	sed 's|^@{crib}=.*|@{crib}=$(PREFIX)/bin/crib|' profiles/apparmor/crib > $(DESTDIR)$(APPARMOR_D)/crib
	chmod 0644 $(DESTDIR)$(APPARMOR_D)/crib
	apparmor_parser -r $(DESTDIR)$(APPARMOR_D)/crib-default
	apparmor_parser -r $(DESTDIR)$(APPARMOR_D)/crib || \
		echo "crib: this apparmor_parser does not know 'userns,' (AppArmor 4): the crib profile is only needed where user namespaces are restricted" >&2

uninstall-apparmor:
	-apparmor_parser -R $(DESTDIR)$(APPARMOR_D)/crib-default
	-apparmor_parser -R $(DESTDIR)$(APPARMOR_D)/crib
	rm -f $(DESTDIR)$(APPARMOR_D)/crib-default $(DESTDIR)$(APPARMOR_D)/crib

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/crib $(DESTDIR)$(PREFIX)/share/man/man1/crib.1 \
	      $(DESTDIR)$(PREFIX)/share/man/man5/crib.ini.5

format:
	clang-format -i $(wildcard cmd/*.c cmd/*.h runtime/*.c runtime/*.h tests/*/*.c tests/*/*.h)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -path '$(BUILD)/vm-cache' -prune -o -type f -name '*.d' -print 2>/dev/null)
