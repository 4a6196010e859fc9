build-arm-linux-gnueabihf/runtime/words.o: runtime/words.c \
 runtime/words.h runtime/error.h
runtime/words.h:
runtime/error.h:
