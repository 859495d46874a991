#!/bin/sh
# Install Debian packages for a make target (bubblewrap, chromium, postgresql, nodejs...), waiting for
# another apt-get or dpkg (unattended upgrades, a colleague) instead of failing at once: the package
# lists' lock (apt-get update, which DPkg::Lock::Timeout does not cover) is retried every 2 s and the
# dpkg lock is waited for by apt itself, each up to APT_LOCK_WAIT seconds (default 600).
#     tools/apt_install.sh PACKAGE...        (as root; APT_OPTIONS: more apt-get options, the test's)
set -u
wait=${APT_LOCK_WAIT:-600}
apt="apt-get -o DPkg::Lock::Timeout=$wait ${APT_OPTIONS:-}"
start=$(date +%s)
said=
while ! err=$($apt update -qq 2>&1 >/dev/null); do
    case $err in
        *"Could not get lock"*) ;;
        *) printf '%s\n' "$err" >&2; exit 1 ;;
    esac
    if [ $(($(date +%s) - start)) -ge "$wait" ]; then
        printf '%s\napt-get update: the package lists were still locked after %s s\n' "$err" "$wait" >&2
        exit 1
    fi
    [ -n "$said" ] || echo "waiting for another apt-get or dpkg to finish (the package lists are locked)..." >&2
    said=1
    sleep 2
done
DEBIAN_FRONTEND=noninteractive exec $apt install -y -qq "$@"
