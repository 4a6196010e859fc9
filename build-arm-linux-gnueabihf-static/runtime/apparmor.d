build-arm-linux-gnueabihf-static/runtime/apparmor.o: runtime/apparmor.c \
 runtime/apparmor.h runtime/child.h runtime/error.h runtime/plan.h \
 runtime/idmap.h runtime/spec.h runtime/seccomp.h \
 runtime/seccomp_profile.h runtime/sync.h runtime/trace.h
runtime/apparmor.h:
runtime/child.h:
runtime/error.h:
runtime/plan.h:
runtime/idmap.h:
runtime/spec.h:
runtime/seccomp.h:
runtime/seccomp_profile.h:
runtime/sync.h:
runtime/trace.h:
