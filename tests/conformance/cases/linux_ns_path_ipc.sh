# linux_ns_path_ipc: linux.namespaces joins an existing ipc namespace given by its path
. "$(dirname "$0")/../lib.sh"
ns_path_case ipc
