build-arm-linux-gnueabihf/runtime/caps.o: runtime/caps.c runtime/child.h \
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
