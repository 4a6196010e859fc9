build-arm-linux-gnueabihf/runtime/pty.o: runtime/pty.c runtime/child.h \
 runtime/error.h runtime/plan.h runtime/idmap.h runtime/spec.h \
 runtime/seccomp.h runtime/seccomp_profile.h runtime/sync.h \
 runtime/trace.h runtime/cleanup.h runtime/pty.h
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
runtime/pty.h:
