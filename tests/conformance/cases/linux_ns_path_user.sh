# linux_ns_path_user: linux.namespaces joins an existing user namespace given by its path
. "$(dirname "$0")/../lib.sh"
ns_path_case user
