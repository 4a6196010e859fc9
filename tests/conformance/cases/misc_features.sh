# misc_features: `features` prints the JSON runc 1.1+ prints (containerd reads it): the OCI
# versions, the hooks, mount options, namespaces and capabilities it knows
. "$(dirname "$0")/../lib.sh"
rt_ok "features exits 0" features || exit 0
echo "$out" >"$W/features.json"
check "$(jq -e . "$W/features.json" >/dev/null 2>&1 && echo json)" json "it prints JSON"
check "$(jq -r '.ociVersionMin // empty' "$W/features.json" 2>/dev/null | grep -c '^1\.')" 1 "ociVersionMin"
check "$(jq -r '.ociVersionMax // empty' "$W/features.json" 2>/dev/null | grep -c '^1\.')" 1 "ociVersionMax"
check "$(jq -r '.hooks // [] | index("poststop") != null' "$W/features.json" 2>/dev/null)" true "hooks lists poststop"
check "$(jq -r '.mountOptions // [] | index("ro") != null' "$W/features.json" 2>/dev/null)" true "mountOptions lists ro"
check "$(jq -r '.linux.namespaces // [] | index("network") != null' "$W/features.json" 2>/dev/null)" true "linux.namespaces lists network"
check "$(jq -r '.linux.capabilities // [] | index("CAP_KILL") != null' "$W/features.json" 2>/dev/null)" true "linux.capabilities lists CAP_KILL"
