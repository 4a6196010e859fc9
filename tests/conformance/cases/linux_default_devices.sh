# linux_default_devices: the devices and /dev links every container has (runtime-linux.md:
# null, zero, full, random, urandom, tty, ptmx; /dev/fd, stdin, stdout, stderr)
. "$(dirname "$0")/../lib.sh"
cfg
workload 'for d in null zero full random urandom tty; do echo "$d $(stat -c "%F %t:%T" /dev/$d)"; done >/r/dev
[ -e /dev/ptmx ] && echo yes >/r/ptmx
for l in fd stdin stdout stderr; do echo "$l $(readlink /dev/$l)"; done >/r/links'
ct_run c || exit 0
for d in "null 1:3" "zero 1:5" "full 1:7" "random 1:8" "urandom 1:9" "tty 5:0"; do
	n=${d% *}
	check "$(grep "^$n " "$R/dev")" "$n character special file ${d#* }" "/dev/$n"
done
check "$(res ptmx)" yes "/dev/ptmx"
check "$(grep '^fd ' "$R/links")" "fd /proc/self/fd" "/dev/fd -> /proc/self/fd"
check "$(grep '^stdin ' "$R/links")" "stdin /proc/self/fd/0" "/dev/stdin"
check "$(grep '^stdout ' "$R/links")" "stdout /proc/self/fd/1" "/dev/stdout"
check "$(grep '^stderr ' "$R/links")" "stderr /proc/self/fd/2" "/dev/stderr"
