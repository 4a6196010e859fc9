build-arm-linux-gnueabihf/cmd/output.o: cmd/output.c cmd/output.h \
 cmd/../runtime/error.h
cmd/output.h:
cmd/../runtime/error.h:
