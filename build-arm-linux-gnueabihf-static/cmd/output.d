build-arm-linux-gnueabihf-static/cmd/output.o: cmd/output.c cmd/output.h \
 cmd/../runtime/error.h
cmd/output.h:
cmd/../runtime/error.h:
