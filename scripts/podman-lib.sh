# Sourced by scripts/container-check, compose-check and systemd-check: podman as these machines need it.
# make-base.sh (../shared/tools/container-base) writes a podman configuration that runs here (no default
# ulimits, runc, cgroupfs); podman's own defaults are refused on some machines, where no container starts.

# Where make-base.sh writes that configuration.
PODMAN_CONF="${TMPDIR:-/tmp}/container-base/containers.conf"

# Use make-base.sh's configuration when it is there and CONTAINERS_CONF does not name another.
podman_use_conf() {
    if [ -z "${CONTAINERS_CONF:-}" ] && [ -f "$PODMAN_CONF" ]; then export CONTAINERS_CONF="$PODMAN_CONF"; fi
}

# Status 0, printing podman's last two lines of error, when podman cannot start a container of image $1
# here; status 1 when it can.
podman_run_refused() {
    local out
    if out="$(podman run --rm --network none "$1" true 2>&1)"; then return 1; fi
    echo "$out" | tail -n 2 | tr '\n' ' '
}
