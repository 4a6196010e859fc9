build-aarch64-linux-gnu/runtime/bpf.o: runtime/bpf.c runtime/bpf.h
runtime/bpf.h:
