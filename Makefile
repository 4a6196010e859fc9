# crib - a minimal container launcher. Plain GNU make; objects under build/.
#
#   make            build build/crib
#   make check      build and run every test (unit, end-to-end as root and as a user, and the
#                   VM guests under QEMU when it is installed)
#   make check-vm   only the VM guests (x86_64, armhf, arm64, armel: a Raspberry Pi Zero)
#   make demo       build a busybox rootfs and run the example spec in it, as you
#   make install    PREFIX=/usr/local DESTDIR=
#   make format     apply .clang-format to every C file
#   make hot-layout (as root) re-profile which code a start touches (tools/hot-layout)
#   make bench      start-up time of crib against `unshare`, and image import time against
#                   umoci and podman, side by side
#   make deb        Debian packages of crib for amd64, arm64, armhf and armel (build/deb/)

CROSS      ?=
CC         := $(CROSS)gcc
# cross builds (CROSS=arm-linux-gnueabihf- or aarch64-linux-gnu-) find the target's libraries
# in Debian's multiarch directories, where their -dev packages are installed. Where they are not
# (rootfs-tools/install-deps installs none: armel's, the crib of every Raspberry Pi, do not
# install beside a newer host's, nor any while a mirror is half-synced),
# rootfs-tools/cross-sysroot unpacks them into a sysroot under build/sysroots, and pkg-config
# is pointed there; libc is the cross compiler's own.
ifeq ($(CROSS),)
PKG_CONFIG ?= pkg-config
else ifneq ($(wildcard /usr/lib/$(CROSS:%-=%)/pkgconfig/libseccomp.pc),)
PKG_CONFIG ?= env PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS:%-=%)/pkgconfig:/usr/share/pkgconfig pkg-config
else ifeq ($(filter-out clean format deps,$(or $(MAKECMDGOALS),all)),)
PKG_CONFIG ?= true # goals that compile nothing need no sysroot
else
SYSROOT    := $(shell rootfs-tools/cross-sysroot $(CROSS:%-=%) build/sysroots)
$(if $(SYSROOT),,$(error no libraries for $(CROSS:%-=%): rootfs-tools/cross-sysroot failed (above)))
PKG_CONFIG ?= env PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
              PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(CROSS:%-=%)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig \
              pkg-config
endif
PREFIX     ?= /usr/local
DESTDIR    ?=
# --- proof suite: sanitizers and fuzzing (tests/fuzz/) ----------------------------------------
#   make check SANITIZE=1   crib, unit tests and tools with ASan + UBSan, in build/asan, dynamic
#                           (make check runs this pass after the plain one; SANITIZE=0 skips it)
#   make fuzz FUZZ_SECONDS=N  each libFuzzer target of tests/fuzz/ for N seconds (default 60)
# SANITIZE=fuzz is the build the fuzz targets link with (build/fuzz): the runtime instrumented for
# libFuzzer's coverage too. Both use clang (libFuzzer is clang's) and link dynamically: the
# sanitizer runtimes do not support -static. The test probe stays static and uninstrumented (it
# runs inside containers, any rootfs).
SANITIZE     ?=
FUZZ_SECONDS ?= 60
SAN_CFLAGS   :=
ifeq ($(SANITIZE),1)
SAN_CFLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS      := -fsanitize=address,undefined
BUILD        ?= build/asan
endif
ifeq ($(SANITIZE),fuzz)
SAN_CFLAGS   := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
LDFLAGS      := -fsanitize=address,undefined
BUILD        ?= build/fuzz
endif
ifneq ($(SAN_CFLAGS),)
CC           := clang
endif
# `make check` = the plain build with the fuzz targets (tests/run-all runs them), then the whole
# unit and e2e suite again with SANITIZE=1; SANITIZE=1 runs only that pass, SANITIZE=0 skips it
CHECK_EXTRA     = $(if $(filter 1 fuzz,$(SANITIZE)),,fuzz-bin)
CHECK_SANITIZE  = $(if $(SANITIZE),,$(MAKE) check SANITIZE=1 BUILD=$(BUILD)/asan)
# the plain pass, as root, tries the profiler of crib's hot layout too (it sets the disk's read-ahead)
CHECK_LAYOUT    = $(if $(SANITIZE),,if [ "$$(id -u)" = 0 ]; then $(MAKE) check-hot-layout; \
		  else echo "check-hot-layout: skipped: tools/hot-layout runs as root only"; fi)
# --- end of the proof-suite block (its targets are at the end of this file) --------------------
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
# a section per function and per datum, so that crib's link can put what a start touches first
# (HOT_LAYOUT, below)
CFLAGS   += -ffunction-sections -fdata-sections
# crib is linked statically, libc included: every `crib run` starts a process and clones it,
# and a dynamic crib spent ~10% of each start mapping and relocating shared objects and binding
# symbols lazily again in the container's processes (measured with tests/bench/start-time).
# crib uses no NSS (runtime/base/account.h), so the static glibc needs no module at run time.
# LDFLAGS= builds a dynamic crib, with the four libraries still static.
LDFLAGS  ?= -static
LIBS     := $(shell $(PKG_CONFIG) --libs libseccomp libapparmor zlib json-c)
ifeq ($(filter -static,$(LDFLAGS)),)
LDLIBS   := -Wl,-Bstatic $(LIBS) -Wl,-Bdynamic
else
LDLIBS   := $(LIBS)
endif
CFLAGS   += $(shell $(PKG_CONFIG) --cflags libseccomp libapparmor zlib json-c)

# runtime/ is grouped by layer in subdirectories (README: Layout); every one is on the include
# path, so a file names a header by its name alone
RUNTIME_DIRS := runtime $(patsubst %/,%,$(sort $(dir $(wildcard runtime/*/*.c runtime/*/*.h))))
# runtime/image/'s parts that read archives (libarchive) and hash (libcrypto) are crib-image's
# alone (below); its pure parts (platform, names, spec) are in libcrib.a, unit tested
IMAGE_SRC   := runtime/image/layer.c runtime/image/source.c runtime/image/import.c
RUNTIME_SRC := $(filter-out $(IMAGE_SRC),$(wildcard $(addsuffix /*.c,$(RUNTIME_DIRS))))
INCLUDES    := $(addprefix -iquote ,$(RUNTIME_DIRS))
# runtime_obj NAME: the object of runtime's NAME.c, wherever its layer puts it
runtime_obj = $(patsubst %.c,$(BUILD)/%.o,$(filter %/$(1).c,$(RUNTIME_SRC)))
CMD_SRC     := $(wildcard cmd/*.c)
RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ     := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC    := $(wildcard tests/unit/test_*.c)
UNIT_BIN    := $(UNIT_SRC:%.c=$(BUILD)/%)

.PHONY: all check check-unit check-e2e check-vm demo install uninstall install-apparmor uninstall-apparmor \
        format bench deps clean hot-layout check-hot-layout

all: $(BUILD)/crib

# crib-scope asks the user's systemd for a delegated scope (runtime/cgroup/systemd.c): a program
# of its own, dynamic, as Debian ships libsystemd (sd-bus) only as a shared library; built where
# libsystemd-dev is installed (rootfs-tools/install-deps), and found by crib beside itself
HAVE_LIBSYSTEMD := $(shell $(PKG_CONFIG) --exists libsystemd 2>/dev/null && echo yes)
ifeq ($(HAVE_LIBSYSTEMD),yes)
all: $(BUILD)/crib-scope
endif
$(BUILD)/crib-scope: cmd/scope/crib-scope.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(shell $(PKG_CONFIG) --cflags libsystemd) -o $@ $< \
		$(shell $(PKG_CONFIG) --libs libsystemd)

# crib-image (`crib image import`) reads saved images with libarchive and checks their digests
# with libcrypto: a program of its own, dynamic, built where libarchive-dev and libssl-dev are
# installed (rootfs-tools/install-deps), so crib stays static and cross-builds without them;
# crib finds it beside itself, or in ../lib/crib/ (make install)
HAVE_LIBARCHIVE := $(shell $(PKG_CONFIG) --exists libarchive libcrypto 2>/dev/null && echo yes)
ifeq ($(HAVE_LIBARCHIVE),yes)
all: $(BUILD)/crib-image
endif
IMAGE_OBJ := $(IMAGE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/cmd/image/crib-image.o $(BUILD)/cmd/output.o
$(IMAGE_OBJ): CFLAGS += $(shell $(PKG_CONFIG) --cflags libarchive libcrypto 2>/dev/null) -iquote cmd
$(BUILD)/crib-image: $(IMAGE_OBJ) $(BUILD)/libcrib.a
	$(CC) $(filter-out -static,$(LDFLAGS)) -o $@ $^ -Wl,-Bstatic $(LIBS) -Wl,-Bdynamic \
		$(shell $(PKG_CONFIG) --libs libarchive libcrypto)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(BUILD) $(INCLUDES) -c -o $@ $<

# the example spec, embedded for `crib spec`
$(BUILD)/example.h: cmd/example.ini
	@mkdir -p $(@D)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/cmd/main.o: $(BUILD)/example.h

# the security levels, embedded as {"name", "text"} for runtime/spec/levels.c; their comment
# lines are emptied (every start parses the default level: the lines keep their numbers)
LEVELS := $(wildcard profiles/levels/*)
$(BUILD)/levels-data.h: $(LEVELS)
	@mkdir -p $(@D)
	for f in $(LEVELS); do \
		printf '{"%s",\n' "$$(basename $$f)"; \
		sed -e 's/^#.*//' -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
		printf '},\n'; \
	done > $@
$(call runtime_obj,levels): $(BUILD)/levels-data.h

# the seccomp profiles, embedded the same way for runtime/seccomp/seccomp_profile.c
SECCOMP_PROFILES := $(wildcard profiles/seccomp/*)
$(BUILD)/seccomp-data.h: $(SECCOMP_PROFILES)
	@mkdir -p $(@D)
	for f in $(SECCOMP_PROFILES); do \
		printf '{"%s",\n' "$$(basename $$f)"; \
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
		printf '},\n'; \
	done > $@
$(call runtime_obj,seccomp_profile): $(BUILD)/seccomp-data.h

# the built-in seccomp profiles compiled at build time (runtime/seccomp/seccomp_builtin.c): the generator
# runs on the build host, so it is built with the host's compiler and libseccomp, and is told
# the target's architecture (from the compiler's triplet), so a cross build embeds the target's
HOSTCC          ?= gcc
HOST_PKG_CONFIG ?= pkg-config
SECCOMP_ARCH    ?= $(patsubst i%86,x86,$(patsubst arm%,arm,$(patsubst powerpc64le,ppc64le,\
                   $(firstword $(subst -, ,$(shell $(CC) -dumpmachine))))))
SECCOMP_GEN_SRC := tools/seccomp-gen.c $(filter $(addprefix %/,seccomp_profile.c seccomp_arch.c \
                   seccomp_compile.c bpf_run.c bpf_guard.c bpf_fold.c words.c error.c capname.c),\
                   $(RUNTIME_SRC))
$(BUILD)/host/%.o: %.c
	@mkdir -p $(@D)
	$(HOSTCC) -O2 -std=gnu11 $(WARN) -MMD -MP -I$(BUILD) $(INCLUDES) \
		$(shell $(HOST_PKG_CONFIG) --cflags libseccomp) -c -o $@ $<
$(filter %/seccomp_profile.o,$(SECCOMP_GEN_SRC:%.c=$(BUILD)/host/%.o)): $(BUILD)/seccomp-data.h
$(BUILD)/host/seccomp-gen: $(SECCOMP_GEN_SRC:%.c=$(BUILD)/host/%.o)
	$(HOSTCC) -o $@ $^ $(shell $(HOST_PKG_CONFIG) --libs libseccomp)
$(BUILD)/seccomp-programs.h: $(BUILD)/host/seccomp-gen profiles/levels/default
	$< $(SECCOMP_ARCH) profiles/levels/default $(notdir $(SECCOMP_PROFILES)) > $@.tmp
	mv $@.tmp $@
$(call runtime_obj,seccomp_builtin): $(BUILD)/seccomp-programs.h

$(BUILD)/libcrib.a: $(RUNTIME_OBJ)
	rm -f $@
	$(CROSS)ar rcs $@ $^

# crib's link puts the code and data a `crib run` touches first: the kernel maps a cached file's
# pages 64 KB around each fault, so scattered, they had made all 1.2 MB of crib's code resident
# in each of its processes. `make hot-layout` (as root) profiles a start and rewrites the list;
# tools/hot-layout says how. A stale list costs memory, never correctness.
HOT_LAYOUT := tools/hot-layout.ld
CRIB_LINK   = $(CC) $(LDFLAGS) -o $(1) $(CMD_OBJ) $(BUILD)/libcrib.a $(LDLIBS)
$(BUILD)/crib: $(CMD_OBJ) $(BUILD)/libcrib.a $(HOT_LAYOUT)
	$(call CRIB_LINK,$@) -Wl,-T,$(HOT_LAYOUT)

hot-layout: $(CMD_OBJ) $(BUILD)/libcrib.a $(BUILD)/rootfs/.done
	tools/hot-layout --build $(BUILD) --out $(HOT_LAYOUT) -- $(call CRIB_LINK,{out})

# make check, as root: the profiler itself, two short passes from the committed list (its
# output goes to the build directory; tools/hot-layout --check says what must hold)
check-hot-layout: $(CMD_OBJ) $(BUILD)/libcrib.a $(BUILD)/rootfs/.done
	cp $(HOT_LAYOUT) $(BUILD)/hot-layout.check.ld
	tools/hot-layout --check --rounds 1 --passes 2 --build $(BUILD) \
		--out $(BUILD)/hot-layout.check.ld -- $(call CRIB_LINK,{out})

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
$(BUILD)/tests/tools/old-kernel: $(BUILD)/tests/tools/old-kernel.o $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# the OCI front end's seccomp translation, for tests/seccomp/oci-podman.t
$(BUILD)/tests/tools/oci-profile: $(BUILD)/tests/tools/oci-profile.o $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# the kernel side of SECCOMP_CLONE_FILTER, for the patched x86_64:clone guest (tests/vm/kernel/)
$(BUILD)/tests/tools/clone-filter: $(BUILD)/tests/tools/clone-filter.o
	$(CC) $(LDFLAGS) -o $@ $^
# the driver of container_enter() (`crib exec`'s mechanism) for tests/e2e/20-exec.t
$(BUILD)/tests/tools/enter: $(BUILD)/tests/tools/enter.o $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the kernel's part of the default level alone, for tests/bench/start-time's floor row
$(BUILD)/tests/bench/floor: $(BUILD)/tests/bench/floor.o $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the probe that e2e tests run inside containers: static, so any rootfs can hold it
$(BUILD)/probe: tests/probe/probe.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $<

# crib runs a writable rootfs (make bench, crib check) only where other users cannot reach it
# (a setuid file its container made would be root's, or the user's; see the demo below), so
# the build directory is its owner's alone
$(BUILD)/rootfs/.done: rootfs-tools/mkrootfs $(BUILD)/probe
	chmod 0700 $(BUILD)
	rootfs-tools/mkrootfs --probe $(BUILD)/probe $(BUILD)/rootfs
	touch $@

deps:
	rootfs-tools/install-deps check

check: deps
	$(MAKE) all $(UNIT_BIN) $(BUILD)/tests/seccomp/equiv $(BUILD)/tests/tools/oci-profile $(BUILD)/tests/tools/ini-dump \
		$(BUILD)/tests/tools/swap-race $(BUILD)/tests/tools/old-kernel $(BUILD)/tests/tools/enter $(BUILD)/rootfs/.done \
		$(CHECK_EXTRA)
	tests/run-all $(BUILD)
	$(CHECK_LAYOUT)
	$(CHECK_SANITIZE)

check-unit: $(UNIT_BIN)
	prove -f -e '' $(UNIT_BIN)

check-vm: all $(BUILD)/probe $(BUILD)/rootfs/.done
	prove -f --comments -e '' tests/vm/run :: $(BUILD)

check-e2e: all $(BUILD)/rootfs/.done $(BUILD)/tests/tools/ini-dump $(BUILD)/tests/tools/swap-race \
		$(BUILD)/tests/tools/old-kernel $(BUILD)/tests/tools/enter
	tests/run-all --e2e-only $(BUILD)

demo:
	rootfs-tools/install-deps demo
	$(MAKE) all
	@# as root, crib refuses a root-owned rootfs other users can reach (a setuid file the
	@# container made there would be host root's): the demo's lives in a 0700 directory
	mkdir -p $(BUILD)/demo && chmod 0700 $(BUILD)/demo
	rootfs-tools/mkrootfs $(BUILD)/demo/rootfs
	$(BUILD)/crib spec > $(BUILD)/demo/demo.ini
	$(BUILD)/crib run $(BUILD)/demo/demo.ini

bench: all $(BUILD)/rootfs/.done $(BUILD)/tests/bench/floor
	@# the peers are optional: without root, say what is missing and measure what is there
	-rootfs-tools/install-deps bench
	$(BUILD)/crib bench --rootfs $(BUILD)/rootfs
	DOCKER_JSON=$(CURDIR)/../shared/reference/docker-default-seccomp.json tests/bench/start-time $(BUILD)
	-tests/bench/phases $(BUILD)
	tests/bench/image-import $(BUILD)
	tests/bench/network $(BUILD)
	tests/bench/oci-engines $(BUILD)

install: all
	install -D -m 0755 $(BUILD)/crib $(DESTDIR)$(PREFIX)/bin/crib
	if [ -x $(BUILD)/crib-scope ]; then install -D -m 0755 $(BUILD)/crib-scope $(DESTDIR)$(PREFIX)/lib/crib/crib-scope; fi
	if [ -x $(BUILD)/crib-image ]; then install -D -m 0755 $(BUILD)/crib-image $(DESTDIR)$(PREFIX)/lib/crib/crib-image; fi
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

# Debian packages (rootfs-tools/mkdeb): crib is one static binary, so each architecture's is a
# cross build in build/deb-ARCH; lintian checks them (its one override is explained in mkdeb).
# DEB_ARCHES=amd64 builds one.
DEB_VERSION := $(VERSION)-1
DEB_ARCHES  ?= amd64 arm64 armhf armel
DEB_HOST    := $(shell dpkg --print-architecture 2>/dev/null)
.PHONY: deb
deb:
	-rootfs-tools/install-deps deb
	@set -e; for a in $(DEB_ARCHES); do \
		case $$a in $(DEB_HOST)) c= ;; amd64) c=x86_64-linux-gnu- ;; \
			arm64) c=aarch64-linux-gnu- ;; armhf) c=arm-linux-gnueabihf- ;; \
			armel) c=arm-linux-gnueabi- ;; esac; \
		$(MAKE) BUILD=build/deb-$$a CROSS=$$c build/deb-$$a/crib; \
		STRIP=$${c}strip rootfs-tools/mkdeb build/deb-$$a/crib $$a $(DEB_VERSION) build/deb; \
	done
	if command -v lintian >/dev/null; then lintian --fail-on error build/deb/*.deb; \
	else echo "make deb: lintian is not installed; the packages are not checked" >&2; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/crib $(DESTDIR)$(PREFIX)/share/man/man1/crib.1 \
	      $(DESTDIR)$(PREFIX)/share/man/man5/crib.ini.5 $(DESTDIR)$(PREFIX)/lib/crib/crib-scope \
	      $(DESTDIR)$(PREFIX)/lib/crib/crib-image

format:
	clang-format -i $(wildcard cmd/*.c cmd/*.h cmd/scope/*.c cmd/image/*.c $(addsuffix /*.[ch],$(RUNTIME_DIRS)) tools/*.c \
		tests/*/*.c tests/*/*.h)

clean:
	rm -rf $(BUILD)

# --- proof suite: sanitizer and fuzz targets (the variables are in the block at the top) ------
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/bin/%)
ifneq ($(SAN_CFLAGS),)
$(BUILD)/%.o: CFLAGS += $(SAN_CFLAGS)
# tests/run-all reads this to know the build is instrumented (and which way)
$(BUILD)/crib: $(BUILD)/sanitizers
$(BUILD)/sanitizers:
	@mkdir -p $(@D)
	echo '$(SAN_CFLAGS)' > $@
endif
# one libFuzzer program per tests/fuzz/fuzz_*.c, linked with the runtime built for fuzzing
build/fuzz/bin/%: build/fuzz/tests/fuzz/%.o build/fuzz/libcrib.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

.SECONDARY: $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/tests/fuzz/%.o)
.PHONY: fuzz fuzz-bin check-fuzz check-sanitize
# the fuzz build is always SANITIZE=fuzz in build/fuzz, whatever this make was called with
fuzz-bin:
	$(MAKE) SANITIZE=fuzz BUILD=build/fuzz $(FUZZ_BIN)
fuzz: fuzz-bin
	tests/fuzz/run --seconds $(FUZZ_SECONDS) build/fuzz
# the fuzz targets as make check runs them: a bounded time each (tests/run-all does the same)
check-fuzz: fuzz-bin
	prove -f --comments -e '' tests/fuzz/run :: --seconds $(or $(FUZZ_CHECK_SECONDS),20) build/fuzz
check-sanitize:
	$(MAKE) check SANITIZE=1

-include $(shell find $(BUILD) -path '$(BUILD)/vm-cache' -prune -o -type f -name '*.d' -print 2>/dev/null)
