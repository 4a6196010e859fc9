build-aarch64-linux-gnu-static/runtime/container.o: runtime/container.c \
 runtime/container.h runtime/error.h runtime/plan.h runtime/idmap.h \
 runtime/spec.h runtime/seccomp.h runtime/seccomp_profile.h \
 runtime/child.h runtime/sync.h runtime/trace.h runtime/cleanup.h \
 runtime/pty.h runtime/rlimits.h runtime/userns.h
runtime/container.h:
runtime/error.h:
runtime/plan.h:
runtime/idmap.h:
runtime/spec.h:
runtime/seccomp.h:
runtime/seccomp_profile.h:
runtime/child.h:
runtime/sync.h:
runtime/trace.h:
runtime/cleanup.h:
runtime/pty.h:
runtime/rlimits.h:
runtime/userns.h:
