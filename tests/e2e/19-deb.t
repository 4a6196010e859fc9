#!/bin/sh
# The Debian package (issue 19): rootfs-tools/mkdeb packages this crib, dpkg installs it into a
# scratch root, and the installed crib runs a container; removing the package leaves its
# conffiles (the AppArmor profiles) and purging leaves nothing. `make deb` builds the packages
# of every architecture and runs lintian on them.
. "$(dirname "$0")/../lib/libtest.sh"

requires root
if [ -z "${MKDEB:-}" ] || ! command -v dpkg-deb >/dev/null || ! command -v strip >/dev/null; then
	echo "1..0 # SKIP no rootfs-tools/mkdeb (MKDEB), dpkg-deb or strip here"
	exit 0
fi
if [ -n "${SANITIZE:-}" ]; then
	echo "1..0 # SKIP an instrumented crib (make check SANITIZE=1) is not what a package ships"
	exit 0
fi

arch=$(dpkg --print-architecture)
deb=$("$MKDEB" "$CRIB" "$arch" 0.1-1 "$T/out" 2>"$T/mkdeb.err")
assert_eq "$?:$(cat "$T/mkdeb.err")" "0:" "mkdeb packages crib for $arch"
assert_eq "$deb" "$T/out/crib_0.1-1_$arch.deb" "... as crib_VERSION_ARCH.deb"
fields=$(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')
assert_eq "$fields" "Package: crib Version: 0.1-1 Architecture: $arch " "its control fields"
files=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | sort | tr '\n' ' ')
for f in ./usr/bin/crib ./usr/share/man/man1/crib.1.gz ./usr/share/man/man5/crib.ini.5.gz \
	./etc/apparmor.d/crib ./etc/apparmor.d/crib-default ./usr/share/doc/crib/copyright \
	./usr/share/doc/crib/examples/example.ini ./usr/share/crib/rootfs-tools/mkrootfs; do
	assert_contains "$files" "$f " "the package has $f"
done
assert_contains "$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./etc/apparmor.d/crib)" \
	"@{crib}=/usr/bin/crib" "the crib profile names the installed path"

# into a scratch root: dpkg's own database there, maintainer scripts run outside it
R=$T/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
: >"$R/var/lib/dpkg/status"
dpkg --root="$R" --force-script-chrootless --log=/dev/null -i "$deb" >"$T/dpkg.out" 2>&1
assert_eq "$?" 0 "dpkg installs it into a scratch root"
assert_eq "$(dpkg --root="$R" -s crib 2>/dev/null | sed -n 's/^Status: //p')" "install ok installed" \
	"dpkg says it is installed"
assert_eq "$("$R/usr/bin/crib" version)" "crib 0.1" "the installed crib runs"
spec "$T/s.ini" <<'EOF2'
[process]
args = /bin/sh -c 'echo from-the-package; id -u'
EOF2
run_crib_installed() {
	out=$("$R/usr/bin/crib" run "$@" 2>"$T/.stderr" </dev/null)
	rc=$?
	err=$(strip_aa <"$T/.stderr")
}
run_crib_installed "$T/s.ini"
assert_eq "$rc:$(echo $out):$err" "0:from-the-package 0:" "the installed crib runs a container"

dpkg --root="$R" --force-script-chrootless --log=/dev/null -r crib >/dev/null 2>&1
assert_eq "$?:$(ls "$R/usr/bin" 2>/dev/null)" "0:" "removing it takes the binary away"
assert_eq "$(ls "$R/etc/apparmor.d" 2>/dev/null | tr '\n' ' ')" "crib crib-default " \
	"... and keeps the conffiles (the AppArmor profiles)"
dpkg --root="$R" --force-script-chrootless --log=/dev/null -P crib >/dev/null 2>&1
assert_eq "$?:$(find "$R" -path "$R/var" -prune -o -type f -print | wc -l)" "0:0" \
	"purging leaves no file outside dpkg's database"
done_testing
