# linux_ns_path_cgroup: linux.namespaces joins an existing cgroup namespace given by its path
. "$(dirname "$0")/../lib.sh"
ns_path_case cgroup
