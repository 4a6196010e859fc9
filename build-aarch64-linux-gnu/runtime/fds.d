build-aarch64-linux-gnu/runtime/fds.o: runtime/fds.c runtime/child.h \
 runtime/error.h runtime/plan.h runtime/idmap.h runtime/spec.h \
 runtime/seccomp.h runtime/seccomp_profile.h runtime/sync.h \
 runtime/trace.h
runtime/child.h:
runtime/error.h:
runtime/plan.h:
runtime/idmap.h:
runtime/spec.h:
runtime/seccomp.h:
runtime/seccomp_profile.h:
runtime/sync.h:
runtime/trace.h:
