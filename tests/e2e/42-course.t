#!/bin/sh
# The course (docs/course, issue 37 item 5) as a doc test: every command of every page runs, as
# this role, and its output is held against the page's (tests/course/run says the format). First
# the runner's own fixture (tests/data/course/wrong.md): it must report each wrong expected
# output as a failure, with the page, line, command, expected and got, so a runner that cannot
# fail fails here. Blocks a page marks as needing what this host lacks are skips, with crib
# check's reason. tests/run-all stages the runner in course/ and the pages in course/pages/.
# Where there is no Python (the VM guests: busybox), tests/course/replay runs the pages as the
# host compiled them (tests/vm/run stages them in course/compiled: `run --emit`), the fixture
# first as here: in the Pi Zero guest (armel, as the user there).
here=$(cd "$(dirname "$0")" && pwd)
run=$here/../course/run
pages=$here/../course/pages
compiled=$here/../course/compiled
: "${CRIB:?set by tests/run-all}" "${ROOTFS:?}" "${ROLE:?}" "${TESTDATA:?}"
if command -v python3 >/dev/null 2>&1 && [ -x "$run" ] && [ -d "$pages" ]; then
	exec python3 "$run" --self-test "$TESTDATA/course/wrong.md" "$pages"/README.md "$pages"/[0-9]*.md
fi
if [ -d "$compiled" ] && [ -x "$here/../course/replay" ]; then
	case $(uname -m) in
	armv6l) exec sh "$here/../course/replay" "$compiled" ;;
	*)
		echo "1..0 # SKIP the course's replay runs in the Pi Zero guest (armel); this guest's minutes go to the rest"
		exit 0
		;;
	esac
fi
if [ ! -x "$run" ] || [ ! -d "$pages" ]; then
	echo "1..0 # SKIP the course and its runner are not staged here (tests/run-all stages them; tests/vm/run the compiled pages)"
	exit 0
fi
echo "1..0 # SKIP no python3 to run tests/course/run (rootfs-tools/install-deps check installs it)"
