build-arm-linux-gnueabihf-static/runtime/exec.o: runtime/exec.c \
 runtime/child.h runtime/error.h runtime/plan.h runtime/idmap.h \
 runtime/spec.h runtime/seccomp.h runtime/seccomp_profile.h \
 runtime/sync.h runtime/trace.h runtime/cleanup.h runtime/elf.h
runtime/child.h:
runtime/error.h:
runtime/plan.h:
runtime/idmap.h:
runtime/spec.h:
runtime/seccomp.h:
runtime/seccomp_profile.h:
runtime/sync.h:
runtime/trace.h:
runtime/cleanup.h:
runtime/elf.h:
