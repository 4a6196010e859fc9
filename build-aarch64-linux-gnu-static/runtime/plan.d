build-aarch64-linux-gnu-static/runtime/plan.o: runtime/plan.c \
 runtime/plan.h runtime/error.h runtime/idmap.h runtime/spec.h \
 runtime/seccomp.h runtime/seccomp_profile.h runtime/cleanup.h \
 runtime/apparmor.h
runtime/plan.h:
runtime/error.h:
runtime/idmap.h:
runtime/spec.h:
runtime/seccomp.h:
runtime/seccomp_profile.h:
runtime/cleanup.h:
runtime/apparmor.h:
