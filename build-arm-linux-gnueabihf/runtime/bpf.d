build-arm-linux-gnueabihf/runtime/bpf.o: runtime/bpf.c runtime/bpf.h
runtime/bpf.h:
