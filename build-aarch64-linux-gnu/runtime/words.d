build-aarch64-linux-gnu/runtime/words.o: runtime/words.c runtime/words.h \
 runtime/error.h
runtime/words.h:
runtime/error.h:
