# crib - a minimal container launcher. Plain GNU make; objects under build/.
#
#   make            build build/crib
#   make check      build and run every test (unit, end-to-end as root and as a user, and the
#                   VM guests under QEMU when it is installed)
#   make check-vm   only the VM guests (x86_64, armhf, arm64, armel: a Raspberry Pi Zero), and
#                   the kernel matrix of their crib check reports: build/kernel-matrix.md, .json
#   make kernel-matrix-readme  README's kernel matrix rewritten from build/kernel-matrix.md
#   make conformance  as root: the OCI runtime cases (tests/conformance) against crib, runc and
#                   crun where installed, in a table (not part of make check)
#   make demo       build a busybox rootfs and run the example spec in it, as you
#   make install    PREFIX=/usr/local DESTDIR=
#   make format     apply .clang-format to every C file
#   make bench      start-up time of crib against `unshare`, image import time against
#                   umoci and podman, pull + first run and the store's disk use against
#                   podman, side by side
#   make deb        Debian packages of crib for amd64, arm64, armhf and armel (build/deb/)

CROSS      ?=
CC         := $(CROSS)gcc
TRIPLET    := $(CROSS:%-=%)
# DEB=yes: the build a Debian package ships (make deb): crib-image linked statically as crib is,
# and a cross build's libraries include the helpers' (crib-image's and crib-scope's)
DEB        ?=
# cross builds (CROSS=arm-linux-gnueabihf- or aarch64-linux-gnu-) find the target's libraries
# in Debian's multiarch directories, where their -dev packages are installed. Where they are not
# (rootfs-tools/install-deps installs none: armel's, the crib of every Raspberry Pi, do not
# install beside a newer host's, nor any while a mirror is half-synced),
# rootfs-tools/cross-sysroot unpacks them into a sysroot under build/sysroots, and pkg-config
# is pointed there; libc is the cross compiler's own. With DEB=yes the sysroot holds the
# helpers' libraries too (cross-sysroot --helpers); where apt cannot fetch them (cross-sysroot
# says why), crib's alone, and make deb says which helper its package lacks.
CROSS_PC   := libseccomp $(if $(filter yes,$(DEB)),libarchive libcrypto libzstd liblzma libsystemd libcurl)
ifeq ($(CROSS),)
PKG_CONFIG ?= pkg-config
else ifeq ($(words $(wildcard $(CROSS_PC:%=/usr/lib/$(TRIPLET)/pkgconfig/%.pc))),$(words $(CROSS_PC)))
PKG_CONFIG ?= env PKG_CONFIG_LIBDIR=/usr/lib/$(TRIPLET)/pkgconfig:/usr/share/pkgconfig pkg-config
else ifeq ($(filter-out clean format deps,$(or $(MAKECMDGOALS),all)),)
PKG_CONFIG ?= true # goals that compile nothing need no sysroot
else
SYSROOT    := $(if $(filter yes,$(DEB)),$(shell rootfs-tools/cross-sysroot --helpers $(TRIPLET) build/sysroots))
SYSROOT    := $(or $(SYSROOT),$(shell rootfs-tools/cross-sysroot $(TRIPLET) build/sysroots))
$(if $(SYSROOT),,$(error no libraries for $(TRIPLET): rootfs-tools/cross-sysroot failed (above)))
PKG_CONFIG ?= env PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
              PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(TRIPLET)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig \
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
# unit and e2e suite again with SANITIZE=1 (each e2e test in one role), while the VM guests boot
# (tests/run-all's CHECK_BESIDE_VM); SANITIZE=1 runs only that pass, SANITIZE=0 skips it
CHECK_EXTRA     = $(if $(filter 1 fuzz,$(SANITIZE)),,fuzz-bin)
CHECK_SANITIZE  = $(if $(SANITIZE),,$(MAKE) check SANITIZE=1 BUILD=$(BUILD)/asan)
# the plain pass makes the host's Debian packages, which tests/e2e/19-deb.t installs and runs
CHECK_DEB       = $(if $(SANITIZE),,$(if $(filter $(DEB_HOST),amd64 arm64 armhf armel),$(MAKE) deb-packages \
		  DEB_ARCHES=$(DEB_HOST),echo "check: no Debian package: make deb knows no '$(DEB_HOST)'"))
# --- end of the proof-suite block (its targets are at the end of this file) --------------------
BUILD      ?= build
VERSION    := 0.1
# the busybox rootfs of the tests and make bench, in a directory of its owner's alone (below)
TEST_ROOTFS := $(BUILD)/private/rootfs

WARN := -Wall -Wextra -Wformat=2 -Wno-format-nonliteral -Wshadow -Wmissing-prototypes \
        -Wstrict-prototypes -Wpointer-arith -Wvla \
        -Werror=format-security -Werror=implicit-function-declaration \
        -Werror=missing-prototypes -Werror=shadow -Werror=incompatible-pointer-types \
        -Werror=int-conversion -Werror=return-type
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 $(WARN) -D_FORTIFY_SOURCE=2 -fstack-protector-strong -MMD -MP \
            -DCRIB_VERSION='"$(VERSION)"'
# a section per function and per datum, so that the links drop what nothing calls (--gc-sections)
CFLAGS   += -ffunction-sections -fdata-sections
# crib is linked statically, libc included: every `crib run` starts a process and clones it,
# and a dynamic crib spent ~10% of each start mapping and relocating shared objects and binding
# symbols lazily again in the container's processes (measured with tests/bench/start-time).
# crib uses no NSS (runtime/host/account.h), so the static glibc needs no module at run time.
# LDFLAGS= builds a dynamic crib, with the four libraries still static.
LDFLAGS  ?= -static
LIBS     := $(shell $(PKG_CONFIG) --libs libseccomp libapparmor zlib json-c)
ifeq ($(filter -static,$(LDFLAGS)),)
LDLIBS   := -Wl,-Bstatic $(LIBS) -Wl,-Bdynamic
else
LDLIBS   := $(LIBS)
endif
CFLAGS   += $(shell $(PKG_CONFIG) --cflags libseccomp libapparmor zlib json-c)

# BUILD/.config: how this build directory's objects were made. When a make's compiler, flags,
# DEB= or CROSS= differ from the last one's there, it is rewritten, and every object, which
# depends on it, is made again: a build directory is never a mix (an armel crib linked from
# objects of a DEB=yes make and of a plain one died of SIGSEGV)
BUILD_CONFIG := $(BUILD)/.config
build_config := CC=$(CC) CROSS=$(CROSS) DEB=$(DEB) CFLAGS=$(CFLAGS) $(SAN_CFLAGS) LDFLAGS=$(LDFLAGS) LIBS=$(LIBS)
ifneq ($(build_config),$(file <$(BUILD_CONFIG)))
$(shell mkdir -p $(BUILD))
$(file >$(BUILD_CONFIG),$(build_config))
endif

# runtime/ is grouped by layer in subdirectories (docs/architecture.md); a file names a header
# of another folder by its folder ("plan/plan.h"), one of its own by its name alone
RUNTIME_DIRS := runtime $(patsubst %/,%,$(sort $(dir $(wildcard runtime/*/*.c runtime/*/*.h))))
# runtime/image/'s parts that read archives (libarchive) and hash (libcrypto) are crib-image's
# alone (below); its pure parts (platform, names, spec) are in libcrib.a, unit tested
IMAGE_SRC   := $(addprefix runtime/image/,layer.c storewrite.c storeremove.c source.c import.c archive.c digest.c ocilayout.c dockersave.c)
# and its parts that speak HTTP (libcurl) and hash (libcrypto) are crib-pull's alone (below);
# the references, the credentials and the manifests' JSON are pure, in libcrib.a
PULL_SRC    := $(addprefix runtime/image/,registry.c fetch.c pull.c)
RUNTIME_SRC := $(filter-out $(IMAGE_SRC) $(PULL_SRC),$(wildcard $(addsuffix /*.c,$(RUNTIME_DIRS))))
INCLUDES    := -iquote runtime
# runtime_obj NAME: the object of runtime's NAME.c, wherever its layer puts it
runtime_obj = $(patsubst %.c,$(BUILD)/%.o,$(filter %/$(1).c,$(RUNTIME_SRC)))
CMD_SRC     := $(wildcard cmd/*.c)
RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ     := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC    := $(wildcard tests/unit/test_*.c)
UNIT_BIN    := $(UNIT_SRC:%.c=$(BUILD)/%)

.PHONY: all check check-unit check-e2e check-vm kernel-matrix-readme conformance demo install uninstall install-apparmor uninstall-apparmor \
        format bench deps clean

all: $(BUILD)/crib

# crib-scope asks the user's systemd for a delegated scope (runtime/cgroup/systemd.c): a program
# of its own, dynamic, as Debian ships libsystemd (sd-bus) only as a shared library; built where
# libsystemd-dev is installed (rootfs-tools/install-deps), and found by crib beside itself.
# Bound now (-z now) and its relocations read-only (relro), as Debian builds its programs; a
# cross build from a sysroot does not check libsystemd's own libraries, which are not there
# (the target's dynamic linker finds them)
comma := ,
HAVE_LIBSYSTEMD := $(shell $(PKG_CONFIG) --exists libsystemd 2>/dev/null && echo yes)
ifeq ($(HAVE_LIBSYSTEMD),yes)
all: $(BUILD)/crib-scope
endif
$(BUILD)/crib-scope: cmd/scope/crib-scope.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(shell $(PKG_CONFIG) --cflags libsystemd) -o $@ $< \
		-Wl,-z,relro,-z,now$(if $(SYSROOT),$(comma)--allow-shlib-undefined) \
		$(shell $(PKG_CONFIG) --libs libsystemd)

# crib-image (`crib image import`) reads saved images with libarchive and checks their digests
# with libcrypto: a program of its own, built where libarchive-dev and libssl-dev are installed
# (rootfs-tools/install-deps), so crib stays static and cross-builds without them; crib finds it
# beside itself, or in ../lib/crib/ (make install, the package). Dynamic, except with DEB=yes:
# a package's is static as crib is, so that one binary runs on every system of its
# architecture, Raspberry Pi OS's included (an armel one's libraries would be armel's, which an
# armhf system cannot install beside its own). It reads tar with gzip, xz and zstd only, so of
# libarchive's libraries it needs liblzma's and libzstd's (liblzma-dev, libzstd-dev); OpenSSL's
# libcrypto, with its own (armel's needs libatomic), is ~3 of its ~5 MB. The static link's
# warnings about dlopen, getaddrinfo and gethostbyname are libcrypto's engines and sockets,
# which crib-image never reaches.
ifeq ($(DEB),yes)
HAVE_LIBARCHIVE := $(shell $(PKG_CONFIG) --exists libarchive libcrypto libzstd liblzma 2>/dev/null && echo yes)
IMAGE_LINK   = $(CC) -static -Wl,--gc-sections -o $@ $^ \
		$(shell $(PKG_CONFIG) --libs-only-L libarchive) -larchive -lzstd -llzma \
		$(shell $(PKG_CONFIG) --static --libs libcrypto) $(LIBS)
else
HAVE_LIBARCHIVE := $(shell $(PKG_CONFIG) --exists libarchive libcrypto 2>/dev/null && echo yes)
IMAGE_LINK   = $(CC) $(filter-out -static,$(LDFLAGS)) -o $@ $^ -Wl,-Bstatic $(LIBS) -Wl,-Bdynamic \
		$(shell $(PKG_CONFIG) --libs libarchive libcrypto)
endif
ifeq ($(HAVE_LIBARCHIVE),yes)
all: $(BUILD)/crib-image
endif
IMAGE_OBJ := $(IMAGE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/cmd/image/crib-image.o $(BUILD)/cmd/image/storecmd.o $(BUILD)/cmd/output.o
# (a sysroot's multiarch headers: OpenSSL's configuration is there)
$(IMAGE_OBJ): CFLAGS += $(shell $(PKG_CONFIG) --cflags libarchive libcrypto 2>/dev/null) -iquote cmd \
		$(if $(SYSROOT),-I$(SYSROOT)/usr/include/$(TRIPLET))
$(BUILD)/crib-image: $(IMAGE_OBJ) $(BUILD)/libcrib.a
	$(IMAGE_LINK)

# crib-pull (`crib pull`) fetches images from registries with libcurl (HTTP, TLS) and checks
# their digests with libcrypto: a program of its own, as crib-scope is, dynamic, since Debian
# ships libcurl only as a shared library (its TLS, its resolver and their libraries would not
# link statically); built where libcurl4-openssl-dev and libssl-dev are installed
# (rootfs-tools/install-deps), found by crib beside itself or in ../lib/crib/, and it runs
# crib-image store-add from beside itself. Bound now and relro, as crib-scope.
HAVE_LIBCURL := $(shell $(PKG_CONFIG) --exists libcurl libcrypto 2>/dev/null && echo yes)
ifeq ($(HAVE_LIBCURL),yes)
all: $(BUILD)/crib-pull
endif
PULL_OBJ := $(PULL_SRC:%.c=$(BUILD)/%.o) $(BUILD)/cmd/pull/crib-pull.o $(BUILD)/cmd/output.o
$(PULL_OBJ): CFLAGS += $(shell $(PKG_CONFIG) --cflags libcurl libcrypto 2>/dev/null) -iquote cmd \
		$(if $(SYSROOT),-I$(SYSROOT)/usr/include/$(TRIPLET))
$(BUILD)/crib-pull: $(PULL_OBJ) $(BUILD)/libcrib.a
	$(CC) $(filter-out -static,$(LDFLAGS)) -o $@ $^ -Wl,-z,relro,-z,now$(if $(SYSROOT),$(comma)--allow-shlib-undefined) \
		-Wl,-Bstatic $(LIBS) -Wl,-Bdynamic $(shell $(PKG_CONFIG) --libs libcurl libcrypto)

$(BUILD)/%.o: %.c $(BUILD_CONFIG)
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
# and their names alone, for runtime/spec/security.c, which checks a spec's `seccomp = NAME`: the
# spec sits under seccomp/ in the layers, so it knows the names, not the profiles
$(BUILD)/seccomp-names.h: $(SECCOMP_PROFILES)
	@mkdir -p $(@D)
	for f in $(SECCOMP_PROFILES); do printf '"%s",\n' "$$(basename $$f)"; done > $@
$(call runtime_obj,security): $(BUILD)/seccomp-names.h

# the built-in seccomp profiles compiled at build time (runtime/seccomp/seccomp_builtin.c): the generator
# runs on the build host, so it is built with the host's compiler and libseccomp, and is told
# the target's architecture (from the compiler's triplet), so a cross build embeds the target's
HOSTCC          ?= gcc
HOST_PKG_CONFIG ?= pkg-config
SECCOMP_ARCH    ?= $(patsubst i%86,x86,$(patsubst arm%,arm,$(patsubst powerpc64le,ppc64le,\
                   $(firstword $(subst -, ,$(shell $(CC) -dumpmachine))))))
SECCOMP_GEN_SRC := tools/seccomp-gen.c $(filter $(addprefix %/,seccomp_profile.c seccomp_canonical.c seccomp_arch.c \
                   seccomp_compile.c bpf_run.c bpf_guard.c bpf_fold.c words.c error.c capname.c),\
                   $(RUNTIME_SRC))
$(BUILD)/host/%.o: %.c
	@mkdir -p $(@D)
	$(HOSTCC) -O2 -std=gnu11 $(WARN) -MMD -MP -I$(BUILD) $(INCLUDES) \
		$(shell $(HOST_PKG_CONFIG) --cflags libseccomp) -c -o $@ $<
$(filter %/seccomp_profile.o,$(SECCOMP_GEN_SRC:%.c=$(BUILD)/host/%.o)): $(BUILD)/seccomp-data.h
$(BUILD)/host/seccomp-gen: $(SECCOMP_GEN_SRC:%.c=$(BUILD)/host/%.o)
	$(HOSTCC) -o $@ $^ $(shell $(HOST_PKG_CONFIG) --libs libseccomp)
$(BUILD)/seccomp-programs.h: $(BUILD)/host/seccomp-gen profiles/levels/default $(BUILD)/seccomp-podman
	$< $(SECCOMP_ARCH) profiles/levels/default $(notdir $(SECCOMP_PROFILES)) \
		--known podman $(PODMAN_SECCOMP) $(BUILD)/seccomp-podman > $@.tmp
	mv $@.tmp $@

# podman's seccomp profile, as the build host's podman has it: Debian ships the JSON
# (golang-github-containers-common), crib's repository carries none of it. tools/seccomp-json2crib
# writes it in crib's language with podman's default capabilities, and seccomp-gen embeds its
# program as podman resolves it (runtime/seccomp/seccomp_builtin.c), so that podman's containers
# skip libseccomp's ~13 ms at create. No file, no python3, or a file the converter cannot say
# exactly: an empty BUILD/seccomp-podman, and no such program. The files' checksum is kept in
# BUILD/podman-seccomp.sum, with where python3 is, so installing or upgrading either makes the
# programs again.
PODMAN_SECCOMP ?= /usr/share/containers/seccomp.json
PODMAN_CONF    ?= /usr/share/containers/containers.conf
podman_seccomp_sum := $(if $(wildcard $(PODMAN_SECCOMP)),$(firstword $(shell cat $(PODMAN_SECCOMP) \
                      $(wildcard $(PODMAN_CONF)) | sha256sum)) $(shell command -v python3),none)
ifneq ($(podman_seccomp_sum),$(file <$(BUILD)/podman-seccomp.sum))
$(shell mkdir -p $(BUILD))
$(file >$(BUILD)/podman-seccomp.sum,$(podman_seccomp_sum))
endif
$(BUILD)/seccomp-podman: $(BUILD)/podman-seccomp.sum tools/seccomp-json2crib
	if [ -f $(PODMAN_SECCOMP) ] && command -v python3 >/dev/null; then \
		tools/seccomp-json2crib $(PODMAN_SECCOMP) $(PODMAN_CONF) > $@.tmp || \
		{ echo "podman's seccomp profile is left out of this crib: compiled at each create"; : > $@.tmp; }; \
	elif [ -f $(PODMAN_SECCOMP) ]; then \
		echo "no python3 to convert $(PODMAN_SECCOMP): podman's profile is compiled at each create"; \
		: > $@.tmp; \
	else : > $@.tmp; fi
	mv $@.tmp $@
$(call runtime_obj,seccomp_builtin): $(BUILD)/seccomp-programs.h

$(BUILD)/libcrib.a: $(RUNTIME_OBJ)
	rm -f $@
	$(CROSS)ar rcs $@ $^

$(BUILD)/crib: $(CMD_OBJ) $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -Wl,--gc-sections -o $@ $(CMD_OBJ) $(BUILD)/libcrib.a $(LDLIBS)

# Test hooks exist only in test builds. CRIB_TEST_STOP_AT (runtime/steps/step.c: the setup
# process waits before the step it names until crib is gone; tests/e2e/13-faults.t and the
# tests that stop a container midway; runtime/host/nsfiles.c: the child that reads a joined
# user namespace's maps stays in it 2 s, tests/e2e/25-oci-join.t) and CRIB_TEST_TEMPLATE
# (runtime/seccomp/seccomp_template.c: a seccomp template holding an allow-all filter, which the
# clone path must refuse; the VM guests) are compiled only with -DCRIB_TEST_HOOKS. The files that have them are
# compiled a second time with it, into BUILD/hooks/, and linked ahead of libcrib.a (whose own
# copies then stay out of the link) into BUILD/tests/crib-hooks, crib for those tests, and
# into the test tools that drive the same steps (tests/tools/enter). BUILD/crib, which make
# builds and installs, has no hook: `strings BUILD/crib | grep CRIB_TEST` prints nothing.
# tests/run-all gives the tests the test build as CRIB_HOOKS; they skip without it.
HOOK_SRC := $(filter %/step.c %/seccomp_template.c %/nsfiles.c %/imgrootfs.c,$(RUNTIME_SRC))
HOOK_OBJ := $(HOOK_SRC:%.c=$(BUILD)/hooks/%.o)
$(BUILD)/hooks/%.o: %.c $(BUILD_CONFIG)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DCRIB_TEST_HOOKS -I$(BUILD) $(INCLUDES) -c -o $@ $<
$(BUILD)/tests/crib-hooks: $(CMD_OBJ) $(HOOK_OBJ) $(BUILD)/libcrib.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(HOOK_OBJ) $(BUILD)/libcrib.a $(LDLIBS)

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
# a container's sd_notify, for tests/e2e/43-notify.t and the systemd VM guest's notify =
# container tests: it runs inside containers, so static and uninstrumented as the probe is (the
# sanitizer pass's dynamic ASan build of it could not start in the busybox rootfs)
$(BUILD)/tests/tools/notify-send: tests/tools/notify-send.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $<
# the OCI front end's seccomp translation, for tests/seccomp/oci-podman.t
$(BUILD)/tests/tools/oci-profile: $(BUILD)/tests/tools/oci-profile.o $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# the kernel side of SECCOMP_CLONE_FILTER, for the patched x86_64:clone guest (tests/vm/kernel/)
$(BUILD)/tests/tools/clone-filter: $(BUILD)/tests/tools/clone-filter.o
	$(CC) $(LDFLAGS) -o $@ $^
# the driver of container_enter() (`crib exec`'s mechanism) for tests/e2e/20-exec.t
# (with the test hooks: 20-exec.t holds its joiner before a step)
$(BUILD)/tests/tools/enter: $(BUILD)/tests/tools/enter.o $(HOOK_OBJ) $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the kernel's part of the default level alone, for tests/bench/start-time's floor row
$(BUILD)/tests/bench/floor: $(BUILD)/tests/bench/floor.o $(BUILD)/libcrib.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the probe that e2e tests run inside containers: static, so any rootfs can hold it
$(BUILD)/probe: tests/probe/probe.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $<

# crib runs a writable rootfs (the tests, make bench) only where other users cannot reach it (a
# setuid file its container made would be root's, or the user's; see the demo below): the test
# rootfs lives in BUILD/private, its owner's alone, while BUILD and its programs stay open to
# every user (a 0700 BUILD left `sudo make check`'s build/crib out of its own user's reach).
# A rootfs of the old layout, BUILD/rootfs in a 0700 BUILD, is removed and BUILD opened again.
$(TEST_ROOTFS)/.done: rootfs-tools/mkrootfs $(BUILD)/probe
	mkdir -p -m 0700 $(BUILD)/private
	chmod 0700 $(BUILD)/private
	if [ -d $(BUILD)/rootfs ]; then rm -rf $(BUILD)/rootfs && chmod 0755 $(BUILD); fi
	rootfs-tools/mkrootfs --probe $(BUILD)/probe $(TEST_ROOTFS)
	touch $@

deps:
	rootfs-tools/install-deps check

check: deps
	$(MAKE) all $(UNIT_BIN) $(BUILD)/tests/seccomp/equiv $(BUILD)/tests/tools/oci-profile $(BUILD)/tests/tools/ini-dump \
		$(BUILD)/tests/tools/swap-race $(BUILD)/tests/tools/old-kernel $(BUILD)/tests/tools/enter $(TEST_ROOTFS)/.done \
		$(BUILD)/tests/crib-hooks $(BUILD)/tests/tools/notify-send $(CHECK_EXTRA)
	$(CHECK_DEB)
	CHECK_BESIDE_VM='$(CHECK_SANITIZE)' tests/run-all $(BUILD)

check-unit: $(UNIT_BIN)
	prove -f -e '' $(UNIT_BIN)

check-vm: all $(BUILD)/probe $(TEST_ROOTFS)/.done
	prove -f --comments -e '' tests/vm/run :: $(BUILD)

# README's kernel matrix from the last VM run's build/kernel-matrix.md (the columns that run
# booted; tests/vm/run's last test fails while README's differ)
kernel-matrix-readme:
	tests/vm/matrix readme $(BUILD)

# the OCI runtime conformance table: crib (as crib-runc) beside the peers this host has
conformance: all
	tests/conformance/run $(BUILD)/crib $(wildcard /usr/sbin/runc /usr/bin/crun)

check-e2e: all $(TEST_ROOTFS)/.done $(BUILD)/tests/tools/ini-dump $(BUILD)/tests/tools/swap-race \
		$(BUILD)/tests/tools/old-kernel $(BUILD)/tests/tools/enter $(BUILD)/tests/crib-hooks \
		$(BUILD)/tests/tools/notify-send
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

# BASELINE=PATH/crib: another crib (an older build) measured beside this one, start time and memory
bench: all $(TEST_ROOTFS)/.done $(BUILD)/tests/bench/floor
	@# the peers are optional: without root, say what is missing and measure what is there
	-rootfs-tools/install-deps bench
	$(BUILD)/crib bench --rootfs $(TEST_ROOTFS)
	DOCKER_JSON=$(CURDIR)/../shared/reference/docker-default-seccomp.json BASELINE=$(BASELINE) \
		tests/bench/start-time $(BUILD)
	-tests/bench/phases $(BUILD)
	tests/bench/image-import $(BUILD)
	tests/bench/image-store $(BUILD)
	tests/bench/network $(BUILD)
	DOCKER_JSON=$(CURDIR)/../shared/reference/docker-default-seccomp.json BASELINE=$(BASELINE) tests/bench/oci-engines $(BUILD)

install: all
	install -D -m 0755 $(BUILD)/crib $(DESTDIR)$(PREFIX)/bin/crib
	if [ -x $(BUILD)/crib-scope ]; then install -D -m 0755 $(BUILD)/crib-scope $(DESTDIR)$(PREFIX)/lib/crib/crib-scope; fi
	if [ -x $(BUILD)/crib-image ]; then install -D -m 0755 $(BUILD)/crib-image $(DESTDIR)$(PREFIX)/lib/crib/crib-image; fi
	if [ -x $(BUILD)/crib-pull ]; then install -D -m 0755 $(BUILD)/crib-pull $(DESTDIR)$(PREFIX)/lib/crib/crib-pull; fi
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

# Debian packages (rootfs-tools/mkdeb says what is in them, and why): for each architecture a
# build in build/deb-ARCH with DEB=yes (a cross build but for the host's own), packed into
# build/deb/ as crib_VERSION_ARCH.deb, crib-scope_VERSION_ARCH.deb and crib-pull_VERSION_ARCH.deb;
# lintian checks them.
# DEB_ARCHES=amd64 builds one; make check builds the host's, which tests/e2e/19-deb.t installs.
DEB_VERSION := $(VERSION)-1
DEB_ARCHES  ?= amd64 arm64 armhf armel
DEB_HOST    := $(shell dpkg --print-architecture 2>/dev/null)
DEB_OUT     := build/deb
.PHONY: deb deb-packages deb-arch
deb:
	-rootfs-tools/install-deps deb
	$(MAKE) deb-packages
	if command -v lintian >/dev/null; then lintian --fail-on error $(DEB_OUT)/*.deb; \
	else echo "make deb: lintian is not installed; the packages are not checked" >&2; fi

deb-packages:
	rm -f $(DEB_OUT)/*.deb
	@set -e; for a in $(DEB_ARCHES); do \
		case $$a in $(DEB_HOST)) c= ;; amd64) c=x86_64-linux-gnu- ;; \
			arm64) c=aarch64-linux-gnu- ;; armhf) c=arm-linux-gnueabihf- ;; \
			armel) c=arm-linux-gnueabi- ;; \
			*) echo "make deb: no such architecture '$$a' (amd64, arm64, armhf, armel)" >&2; exit 2 ;; \
		esac; \
		$(MAKE) BUILD=build/deb-$$a CROSS=$$c DEB=yes DEB_ARCH=$$a deb-arch; \
	done

# one architecture's packages (from deb-packages: DEB=yes, its BUILD and CROSS): crib, and each
# helper whose libraries this build has; a helper that cannot be built is named, and left out
DEB_HELPERS := $(if $(filter yes,$(HAVE_LIBARCHIVE)),$(BUILD)/crib-image) \
               $(if $(filter yes,$(HAVE_LIBSYSTEMD)),$(BUILD)/crib-scope) \
               $(if $(filter yes,$(HAVE_LIBCURL)),$(BUILD)/crib-pull)
deb-arch: $(BUILD)/crib $(DEB_HELPERS)
	$(if $(filter yes,$(DEB)),,$(error deb-arch is make deb-packages' step; run make deb))
	@[ "$(HAVE_LIBARCHIVE)" = yes ] || { rm -f $(BUILD)/crib-image; echo "make deb: $(DEB_ARCH): no crib-image, so this package cannot import images: the $(DEB_ARCH) libraries of libarchive, libcrypto, libzstd or liblzma are missing (as root: rootfs-tools/install-deps deb)" >&2; }
	@[ "$(HAVE_LIBSYSTEMD)" = yes ] || { rm -f $(BUILD)/crib-scope; echo "make deb: $(DEB_ARCH): no crib-scope package: the $(DEB_ARCH) library of libsystemd is missing (as root: rootfs-tools/install-deps deb)" >&2; }
	@[ "$(HAVE_LIBCURL)" = yes ] || { rm -f $(BUILD)/crib-pull; echo "make deb: $(DEB_ARCH): no crib-pull package, so crib pull is missing: the $(DEB_ARCH) libraries of libcurl or libcrypto are missing (as root: rootfs-tools/install-deps deb)" >&2; }
	STRIP=$(CROSS)strip SHLIBS_ROOT=$(SYSROOT) rootfs-tools/mkdeb $(BUILD) $(DEB_ARCH) $(DEB_VERSION) $(DEB_OUT)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/crib $(DESTDIR)$(PREFIX)/share/man/man1/crib.1 \
	      $(DESTDIR)$(PREFIX)/share/man/man5/crib.ini.5 $(DESTDIR)$(PREFIX)/lib/crib/crib-scope \
	      $(DESTDIR)$(PREFIX)/lib/crib/crib-image $(DESTDIR)$(PREFIX)/lib/crib/crib-pull

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
