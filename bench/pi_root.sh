#!/usr/bin/env bash
# Rubicon on Raspberry Pi OS Bookworm (Debian 12 arm64, Python 3.11.2), checked under qemu-user:
# builds the root from the Debian archive (or reuses one), installs this source tree with
# systemd/install.sh twice (the second run must change nothing, and everything must still import),
# then runs `rubicon run` as the service does: user `rubicon`, the unit's environment, a read-only
# working directory, with the readers, the panel and the tray configured but absent, and prints
# what came up. Too slow for `make test` (a fresh root ~17 min, the first install ~5 min).
#
#   sudo bench/pi_root.sh [ROOT]          # default ROOT: /var/tmp/rubicon-pi-root-bench
#   PI_ROOT_FROM=/var/tmp/rubicon-pi-root sudo bench/pi_root.sh ROOT   # start from a copy of a built root
#
# Needs root (chroot, mounts), debootstrap and qemu-user-static with binfmt_misc (qemu-aarch64)
# on the host. No systemd runs inside: what the unit would do (StateDirectory=, User=,
# WorkingDirectory=, Environment=) is done by hand here.
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
ROOT="${1:-/var/tmp/rubicon-pi-root-bench}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
PORT=18080
UNIT="$SRC/systemd/rubicon.service"

say() { printf '\n### %s\n' "$*"; }
# A clean environment inside (this host's PIP_* settings are not the Pi's).
in_root() { chroot "$ROOT" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 TERM=dumb "$@"; }

if [ "$(id -u)" != 0 ]; then echo "pi_root.sh: run it as root (chroot)" >&2; exit 1; fi

say "the arm64 Bookworm root: $ROOT"
if [ ! -x "$ROOT/usr/bin/python3" ] && [ -n "${PI_ROOT_FROM:-}" ]; then
    echo "copying $PI_ROOT_FROM"
    cp -a "$PI_ROOT_FROM" "$ROOT"
fi
update-binfmts --enable qemu-aarch64 2>/dev/null || true
if [ ! -x "$ROOT/usr/bin/python3" ]; then
    debootstrap --arch=arm64 --foreign \
        --include=python3,python3-venv,python3-dev,build-essential,ca-certificates bookworm "$ROOT" "$MIRROR"
    cp /usr/bin/qemu-aarch64-static "$ROOT/usr/bin/"
    chroot "$ROOT" /debootstrap/debootstrap --second-stage
fi
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"   # this host's TLS set-up
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
cleanup() {
    [ -n "${RUN_PID:-}" ] && kill "$RUN_PID" 2>/dev/null || true
    umount "$ROOT/proc" 2>/dev/null || true
}
trap cleanup EXIT
echo "$(in_root uname -m), $(in_root python3 --version), $(in_root sh -c '. /etc/os-release; echo $PRETTY_NAME')"

say "the source tree, as a clone would have it: /usr/local/src/rubicon"
rm -rf "$ROOT/usr/local/src/rubicon"
mkdir -p "$ROOT/usr/local/src/rubicon"
git -C "$SRC" ls-files -z --cached --others --exclude-standard \
    | (cd "$SRC" && xargs -0 tar cf - --no-recursion 2>/dev/null) | tar xf - -C "$ROOT/usr/local/src/rubicon"
echo "$(git -C "$SRC" rev-parse --short HEAD) $(git -C "$SRC" status --porcelain | wc -l) uncommitted"

# Every file install.sh may write, with its content hash and time: a second run must leave all as it was.
manifest() {
    in_root sh -c 'find /opt/rubicon /etc/rubicon /etc/udev/rules.d /etc/systemd/system -type f -print0 2>/dev/null \
        | sort -z | xargs -0 -r stat -c "%n %Y %s" ; id rubicon 2>/dev/null || true' | sha256sum | cut -c1-16
}
for pass in 1 2; do
    say "install.sh --no-start, run $pass"
    before="$(manifest)"
    start=$(date +%s)
    in_root bash /usr/local/src/rubicon/systemd/install.sh --no-start 2>&1 | sed 's/^/  /'
    after="$(manifest)"
    echo "run $pass: $(( $(date +%s) - start )) s; installed files and user $([ "$before" = "$after" ] \
        && echo "UNCHANGED" || echo "changed") ($before -> $after)"
done

say "what the service imports, as user rubicon in / (read-only to it), with the unit's environment"
# What the unit sets (Environment= lines), and StateDirectory=: /var/lib/rubicon, the user's.
mapfile -t UNIT_ENV < <(sed -n 's/^Environment=//p' "$UNIT")
in_root install -d -o rubicon -g rubicon -m 0750 /var/lib/rubicon
SVC_UID="$(in_root id -u rubicon)" SVC_GID="$(in_root id -g rubicon)" SVC_GROUPS="$(in_root id -G rubicon | tr ' ' ,)"
# The unit's User=, SupplementaryGroups=, Environment= and a working directory, as a command: SVC.
# (A command, not a function: started with & it is then the process itself, which SIGTERM reaches.)
service_cmd() {
    SVC=(chroot --userspec="$SVC_UID:$SVC_GID" --groups="$SVC_GROUPS" "$ROOT" env -i PATH=/usr/bin:/bin
         HOME=/var/lib/rubicon STATE_DIRECTORY=/var/lib/rubicon "${UNIT_ENV[@]}" sh -c 'cd "$0" && exec "$@"' "$1")
}
as_service() { service_cmd "$1"; shift; "${SVC[@]}" "$@"; }
as_service / /opt/rubicon/venv/bin/python -c '
import importlib, os
for name in ("gpiozero", "lgpio", "spidev", "rubicon.cli", "web_ui", "firmware_bridge.panel"):
    importlib.import_module(name)
    print("  import", name, "ok")
os.environ["RPI_LGPIO_REVISION"] = "d04170"   # no device tree under qemu: say it is a Pi 5
import RPi.GPIO, mfrc522
print("  import RPi.GPIO ok:", RPi.GPIO.__file__, "(rpi-lgpio)"); print("  import mfrc522 ok")
' 2>&1
as_service / /opt/rubicon/venv/bin/pip list 2>/dev/null | grep -iE '^(gpiozero|lgpio|rpi-lgpio|rpi.gpio|mfrc522|spidev) ' \
    | sed 's/^/  /'
in_root ls -la /var/lib/rubicon | grep -F '.lgd' | sed 's/^/  lgpio pipe in the state directory: /' || true
echo "  RPi.GPIO (the distribution) installed: $(as_service / /opt/rubicon/venv/bin/pip show -q RPi.GPIO 2>/dev/null \
    && echo yes || echo no)"

# run_table NAME TOML: `rubicon run` with that [devices] section, until ready (or gone), then stopped.
run_table() {
    local name="$1" devices="$2" log="$ROOT/tmp/rubicon-$1.log" conf="/etc/rubicon/bench-$1.toml"
    say "rubicon run: $name"
    printf '[server]\nhost = "127.0.0.1"\nport = %s\n\n[devices]\n%s\n' "$PORT" "$devices" > "$ROOT$conf"
    sed 's/^/  | /' "$ROOT$conf"
    local start; start=$(date +%s.%N)
    service_cmd /
    "${SVC[@]}" env RUBICON_CONFIG="$conf" /opt/rubicon/venv/bin/rubicon run --no-virtual >"$log" 2>&1 &
    RUN_PID=$!
    local ready=""
    for _ in $(seq 1 600); do      # up to 60 s under emulation: a guard, not a measure
        if grep -q "^Ctrl-C stops" "$log"; then ready=1; break; fi
        kill -0 "$RUN_PID" 2>/dev/null || break
        sleep 0.1
    done
    if [ -n "$ready" ]; then
        printf '  ready after %.1f s (qemu-user)\n' "$(echo "$(date +%s.%N) - $start" | bc)"
        curl -fsS "http://127.0.0.1:$PORT/" -o /dev/null && echo "  GET / (the TV's page): 200"
        # The table part (devices and their messages) as the TV receives it.
        curl -fsS "http://127.0.0.1:$PORT/state" 2>/dev/null \
            | python3 -c 'import json, sys; t = json.load(sys.stdin).get("table") or {}
print("  TV: devices", json.dumps(t.get("devices"))); [print("  TV message:", m.get("text")) for m in t.get("messages") or []]' \
            || true
        kill -TERM "$RUN_PID"
    fi
    wait "$RUN_PID" && rc=0 || rc=$?
    RUN_PID=""
    sed 's/^/  > /' "$log"
    echo "  exit status $rc"
}
run_table "no-devices" ''
run_table "readers" 'pi_readers = true'
run_table "panel" 'panel_enabled = true'
run_table "tray" 'tray = "/dev/rubicon-tray"'
run_table "all-three" $'pi_readers = true\npanel_enabled = true\ntray = "/dev/rubicon-tray"'
