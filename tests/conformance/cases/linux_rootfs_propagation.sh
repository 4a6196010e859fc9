# linux_rootfs_propagation: rootfsPropagation is the propagation of the container's / (its
# optional fields in /proc/self/mountinfo): shared, slave, private, unbindable. The rootfs is a
# shared bind mount on the host here, so that a slave has a master.
. "$(dirname "$0")/../lib.sh"
mount --bind "$B/rootfs" "$B/rootfs" || skip_case "cannot bind-mount the rootfs"
at_exit umount -l "$B/rootfs"
mount --make-shared "$B/rootfs"
# the program prints the optional fields of the last mount at /: no bind mount of a result
# directory, which an unbindable / would refuse (EINVAL) whatever the runtime
C_RMOUNT=no
C_ARGS='["/bin/sh","/prop.sh"]'
echo 'awk '"'"'$5 == "/" { o = ""; for (i = 7; $i != "-"; i++) o = o " " $i; print o }'"'"' /proc/self/mountinfo | tail -n1' \
	>"$B/rootfs/prop.sh"
for p in shared slave private unbindable; do
	C_LINUX_EXTRA="\"rootfsPropagation\":\"$p\""
	cfg
	ct_run "$p" || continue
	got=$(cat "$W/$p.out")
	case "$p" in
	shared) check "$(echo "$got" | grep -c 'shared:')" 1 "shared: / is shared ($got)" ;;
	slave) check "$(echo "$got" | grep -c 'master:')" 1 "slave: / has a master ($got)" ;;
	private) check "$got" "" "private: / has no propagation" ;;
	unbindable) check "$(echo "$got" | grep -c unbindable)" 1 "unbindable: / is unbindable ($got)" ;;
	esac
done
