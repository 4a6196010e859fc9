build-arm-linux-gnueabihf/runtime/check.o: runtime/check.c \
 runtime/check.h runtime/spec.h runtime/error.h runtime/cleanup.h \
 runtime/idmap.h runtime/userns.h runtime/plan.h runtime/seccomp.h \
 runtime/seccomp_profile.h runtime/trace.h
runtime/check.h:
runtime/spec.h:
runtime/error.h:
runtime/cleanup.h:
runtime/idmap.h:
runtime/userns.h:
runtime/plan.h:
runtime/seccomp.h:
runtime/seccomp_profile.h:
runtime/trace.h:
