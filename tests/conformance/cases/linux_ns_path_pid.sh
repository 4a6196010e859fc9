# linux_ns_path_pid: linux.namespaces joins an existing pid namespace given by its path
. "$(dirname "$0")/../lib.sh"
ns_path_case pid
