# linux_ns_path_net: linux.namespaces joins an existing net namespace given by its path
. "$(dirname "$0")/../lib.sh"
ns_path_case net
