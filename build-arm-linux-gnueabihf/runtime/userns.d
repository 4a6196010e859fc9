build-arm-linux-gnueabihf/runtime/userns.o: runtime/userns.c \
 runtime/userns.h runtime/error.h runtime/plan.h runtime/idmap.h \
 runtime/spec.h runtime/seccomp.h runtime/seccomp_profile.h \
 runtime/trace.h runtime/cleanup.h
runtime/userns.h:
runtime/error.h:
runtime/plan.h:
runtime/idmap.h:
runtime/spec.h:
runtime/seccomp.h:
runtime/seccomp_profile.h:
runtime/trace.h:
runtime/cleanup.h:
