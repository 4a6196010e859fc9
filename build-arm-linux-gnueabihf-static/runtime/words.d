build-arm-linux-gnueabihf-static/runtime/words.o: runtime/words.c \
 runtime/words.h runtime/error.h
runtime/words.h:
runtime/error.h:
