build-arm-linux-gnueabihf/runtime/seccomp_profile.o: \
 runtime/seccomp_profile.c runtime/seccomp_profile.h runtime/error.h \
 runtime/cleanup.h runtime/words.h \
 build-arm-linux-gnueabihf/seccomp-data.h
runtime/seccomp_profile.h:
runtime/error.h:
runtime/cleanup.h:
runtime/words.h:
build-arm-linux-gnueabihf/seccomp-data.h:
