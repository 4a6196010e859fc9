build-aarch64-linux-gnu-static/runtime/seccomp_profile.o: \
 runtime/seccomp_profile.c runtime/seccomp_profile.h runtime/error.h \
 runtime/cleanup.h runtime/words.h \
 build-aarch64-linux-gnu-static/seccomp-data.h
runtime/seccomp_profile.h:
runtime/error.h:
runtime/cleanup.h:
runtime/words.h:
build-aarch64-linux-gnu-static/seccomp-data.h:
