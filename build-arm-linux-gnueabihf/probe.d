build-arm-linux-gnueabihf/probe: tests/probe/probe.c
