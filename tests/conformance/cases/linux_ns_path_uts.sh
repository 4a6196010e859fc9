# linux_ns_path_uts: linux.namespaces joins an existing uts namespace given by its path
. "$(dirname "$0")/../lib.sh"
ns_path_case uts
