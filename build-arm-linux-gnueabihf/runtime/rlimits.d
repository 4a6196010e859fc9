build-arm-linux-gnueabihf/runtime/rlimits.o: runtime/rlimits.c \
 runtime/rlimits.h runtime/error.h runtime/plan.h runtime/idmap.h \
 runtime/spec.h runtime/seccomp.h runtime/seccomp_profile.h \
 runtime/trace.h
runtime/rlimits.h:
runtime/error.h:
runtime/plan.h:
runtime/idmap.h:
runtime/spec.h:
runtime/seccomp.h:
runtime/seccomp_profile.h:
runtime/trace.h:
