build-arm-linux-gnueabihf/runtime/pivot.o: runtime/pivot.c \
 runtime/child.h runtime/error.h runtime/plan.h runtime/idmap.h \
 runtime/spec.h runtime/seccomp.h runtime/seccomp_profile.h \
 runtime/sync.h runtime/trace.h runtime/sys.h
runtime/child.h:
runtime/error.h:
runtime/plan.h:
runtime/idmap.h:
runtime/spec.h:
runtime/seccomp.h:
runtime/seccomp_profile.h:
runtime/sync.h:
runtime/trace.h:
runtime/sys.h:
