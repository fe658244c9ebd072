#!/usr/bin/env bash
# Install Rubicon on a Raspberry Pi as a service: a venv in /opt/rubicon, the `rubicon` system
# user, /etc/rubicon/config.toml (kept if present), the systemd units (the table, and the camera
# dice tray with rpicam-apps) and the udev rule for the tray and scanner. Needs 64-bit Raspberry
# Pi OS (arm64) on a Pi: the locked numpy and OpenCV have no 32-bit ARM wheels. Idempotent: run it again after `git pull` to upgrade; a run with nothing new
# changes nothing (no package reinstalled, no file rewritten, the service not restarted). See
# systemd/README.md.
#
#   sudo systemd/install.sh [--dry-run] [--no-start] [--tray-serial S] [--scanner-serial S]
#
# --dry-run prints every command and file it would write, changes nothing, and needs no root.
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX=/opt/rubicon
VENV="$PREFIX/venv"
CONF_DIR=/etc/rubicon
UNIT=/etc/systemd/system/rubicon.service
CAMERA_UNIT=/etc/systemd/system/rubicon-dice-camera.service
RULES=/etc/udev/rules.d/99-rubicon.rules
USER_NAME=rubicon
GROUPS_NEEDED=(gpio spi dialout video)
DRY=0
START=1
CHANGED=0           # set when a run wrote or installed something: the service restarts only then
TRAY_SERIAL=""
SCANNER_SERIAL=""

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --no-start) START=0 ;;
        --tray-serial) TRAY_SERIAL="${2:?--tray-serial needs the Pico serial number}"; shift ;;
        --scanner-serial) SCANNER_SERIAL="${2:?--scanner-serial needs the Pico serial number}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

for serial in "$TRAY_SERIAL" "$SCANNER_SERIAL"; do
    if [ -n "$serial" ] && ! [[ "$serial" =~ ^[A-Za-z0-9_-]+$ ]]; then
        echo "install.sh: a Pico serial number is letters and digits (udevadm info shows ID_SERIAL_SHORT), not '$serial'" >&2
        exit 2
    fi
done

if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo systemd/install.sh), or with --dry-run to see what it does" >&2
    exit 1
fi

# run CMD...: carried out, or only shown with --dry-run.
run() {
    echo "+ $*"
    if [ "$DRY" = 0 ]; then "$@"; fi
}

# put MODE DEST: standard input becomes DEST (only when it differs, so a rerun changes nothing).
# Not at the end of a pipe (that would run it in a subshell, losing CHANGED): `cmd >"$GEN"; put M D <"$GEN"`
# (not `< <(cmd)` either: a bare root without /dev/fd has no process substitution).
put() {
    local mode="$1" dest="$2" tmp
    tmp="$(mktemp)"
    cat >"$tmp"
    if [ -f "$dest" ] && cmp -s "$tmp" "$dest"; then
        echo "= $dest unchanged"
    elif [ "$DRY" = 1 ]; then
        echo "+ write $dest (mode $mode):"
        sed 's/^/    /' "$tmp"
        CHANGED=1
    else
        install -D -m "$mode" "$tmp" "$dest"
        echo "+ wrote $dest"
        CHANGED=1
    fi
    rm -f "$tmp"
}

GEN="$(mktemp)"     # a file generated for put
trap 'rm -f "$GEN"' EXIT

echo "== the platform"
# The lock's numpy and opencv-python-headless (the camera tray's recognition) are on PyPI for
# x86_64 and aarch64 only, none for 32-bit ARM (armv7l): on a 32-bit Raspberry Pi OS the install
# cannot succeed, so it stops here and says why, before changing anything.
ARCH="$(uname -m)"
case "$ARCH" in
    armv7l|armv6l|armhf)
        echo "install.sh: this is a 32-bit system ($ARCH). Rubicon needs 64-bit Raspberry Pi OS (arm64):" >&2
        echo "  numpy and opencv-python-headless have no 32-bit ARM wheels on PyPI. Flash Raspberry Pi OS Lite" >&2
        echo "  (64-bit) with Raspberry Pi Imager (a Zero 2 W, 3, 4 and 5 all run it) and install again." >&2
        exit 1 ;;
    *) echo "= $ARCH" ;;
esac

echo "== Python and the venv in $VENV"
if ! python3 -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "install.sh: Python 3.11 or newer with venv is needed: sudo apt-get install -y python3 python3-venv" >&2
    exit 1
fi
if [ ! -x "$VENV/bin/python" ] || [ ! -x "$VENV/bin/pip" ]; then   # none yet, or an install cut short
    run python3 -m venv "$VENV"
    CHANGED=1
fi
# The locked versions only (requirements/, hashed; the same lock CI tests with): the installer
# and build tools first, then the app with its Pi extra, then Rubicon itself. One GPIO stack on
# every Pi (3, 4, 5, Zero 2 W): gpiozero on lgpio, and rpi-lgpio as the `RPi.GPIO` module of the
# mfrc522 library (the lock holds no RPi.GPIO: requirements/overrides.txt). An RPi.GPIO left by an
# older install owns the same files as rpi-lgpio: both go, and the lock brings rpi-lgpio back whole.
if [ -x "$VENV/bin/pip" ] && "$VENV/bin/pip" show -q RPi.GPIO 2>/dev/null; then
    run "$VENV/bin/pip" uninstall -q -y RPi.GPIO rpi-lgpio
    CHANGED=1
fi
# pip answers "already satisfied" for a locked version in place: a rerun installs nothing.
run "$VENV/bin/pip" install -q --require-hashes -r "$SRC/requirements/build.txt"
run "$VENV/bin/pip" install -q --require-hashes --no-deps --no-build-isolation -r "$SRC/requirements/runtime.txt"
# Rubicon itself only when its source changed (pip would rebuild and reinstall it on every run).
SOURCE_STAMP="$PREFIX/source.sha256"
stamp="$(cd "$SRC" && find pyproject.toml engine firmware_bridge rubicon web_ui -type f \
    ! -name '*.pyc' ! -path '*/__pycache__/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)"
if [ -f "$SOURCE_STAMP" ] && [ "$(cat "$SOURCE_STAMP")" = "$stamp" ] && [ -x "$VENV/bin/rubicon" ]; then
    echo "= rubicon unchanged in $VENV (source $SOURCE_STAMP)"
else
    # Bytecode is compiled now (pip's default), as root: the service's read-only /opt never writes it.
    run "$VENV/bin/pip" install -q --no-deps --no-build-isolation --force-reinstall "$SRC"
    printf '%s\n' "$stamp" >"$GEN"
    put 0644 "$SOURCE_STAMP" <"$GEN"
    CHANGED=1
fi
if [ "$DRY" = 0 ]; then
    "$SRC/tools/pip_check.sh" "$VENV/bin/pip"
else
    echo "+ $SRC/tools/pip_check.sh $VENV/bin/pip"
fi
put 0644 "$PREFIX/README.md" <"$SRC/systemd/README.md"

echo "== the $USER_NAME user and its groups"
for group in "${GROUPS_NEEDED[@]}"; do
    getent group "$group" >/dev/null || { run groupadd --system "$group"; CHANGED=1; }
done
if ! id "$USER_NAME" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir /var/lib/rubicon --no-create-home \
        --shell /usr/sbin/nologin "$USER_NAME"
    CHANGED=1
fi
missing=""
for group in "${GROUPS_NEEDED[@]}"; do
    id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx "$group" || missing=1
done
if [ -n "$missing" ]; then
    run usermod -a -G "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$USER_NAME"
    CHANGED=1
else
    echo "= $USER_NAME is in ${GROUPS_NEEDED[*]}"
fi

echo "== the configuration in $CONF_DIR"
if [ -f "$CONF_DIR/config.toml" ]; then
    echo "= $CONF_DIR/config.toml kept (yours)"
else
    put 0644 "$CONF_DIR/config.toml" <"$SRC/config.example.toml"
fi
if [ "$DRY" = 0 ]; then
    "$VENV/bin/rubicon" check-config "$CONF_DIR/config.toml"
else
    echo "+ $VENV/bin/rubicon check-config $CONF_DIR/config.toml"
fi

echo "== the udev rule (stable names /dev/rubicon-tray, /dev/rubicon-scanner)"
if [ -z "$TRAY_SERIAL" ] && [ -f "$RULES" ]; then   # keep the serials of an earlier install
    TRAY_SERIAL="$(sed -n 's/.*ATTRS{serial}=="\([^"@]*\)", SYMLINK+="rubicon-tray".*/\1/p' "$RULES")"
fi
if [ -z "$SCANNER_SERIAL" ] && [ -f "$RULES" ]; then
    SCANNER_SERIAL="$(sed -n 's/.*ATTRS{serial}=="\([^"@]*\)", SYMLINK+="rubicon-scanner".*/\1/p' "$RULES")"
fi
sed -e "s/@TRAY_SERIAL@/${TRAY_SERIAL:-@TRAY_SERIAL@}/" -e "s/@SCANNER_SERIAL@/${SCANNER_SERIAL:-@SCANNER_SERIAL@}/" \
    "$SRC/systemd/99-rubicon.rules" >"$GEN"
put 0644 "$RULES" <"$GEN"
[ -n "$TRAY_SERIAL" ] || echo "  (no --tray-serial: /dev/rubicon-tray is not created; the tray is still /dev/ttyACM*)"
[ -n "$SCANNER_SERIAL" ] || echo "  (no --scanner-serial: /dev/rubicon-scanner is not created)"
if [ "$CHANGED" = 1 ] && command -v udevadm >/dev/null; then
    if [ "$DRY" = 1 ] || udevadm control --ping 2>/dev/null; then
        run udevadm control --reload
        run udevadm trigger --subsystem-match=tty --action=change
    else
        echo "  (udevd is not running here: the rule applies when it starts, at the next boot)"
    fi
fi

echo "== the camera (rpicam-apps, for the camera dice tray)"
if command -v rpicam-vid >/dev/null 2>&1; then
    echo "= rpicam-vid is installed"
elif command -v apt-get >/dev/null 2>&1 && apt-cache show rpicam-apps >/dev/null 2>&1; then
    run apt-get install -y --no-install-recommends rpicam-apps
elif [ "$DRY" = 1 ]; then
    echo "+ apt-get install -y --no-install-recommends rpicam-apps"
else
    echo "  (no rpicam-apps package here (not Raspberry Pi OS): the camera tray can use a USB webcam, /dev/video0)"
fi

echo "== the service"
sed "s|^ExecStart=/opt/rubicon/venv/bin/rubicon|ExecStart=$VENV/bin/rubicon|" "$SRC/systemd/rubicon.service" >"$GEN"
put 0644 "$UNIT" <"$GEN"
if [ ! -d /run/systemd/system ] && [ "$DRY" = 0 ]; then     # sd_booted(): not booted with systemd
    echo "  (systemd is not running here: the unit is installed, nothing is started)"
    START=0
elif [ "$CHANGED" = 1 ]; then
    run systemctl daemon-reload
fi
sed "s|^ExecStart=/opt/rubicon/venv/bin/rubicon|ExecStart=$VENV/bin/rubicon|" "$SRC/systemd/rubicon-dice-camera.service" >"$GEN"
put 0644 "$CAMERA_UNIT" <"$GEN"
if [ "$CHANGED" = 1 ] && [ -d /run/systemd/system ] && [ "$DRY" = 0 ]; then
    systemctl daemon-reload
fi
# The camera tray's service runs only when the configuration names a camera.
CAMERA=0
if [ "$DRY" = 0 ] && "$VENV/bin/python" -c 'import sys; from rubicon.config import load_config
sys.exit(0 if load_config(sys.argv[1]).camera else 1)' "$CONF_DIR/config.toml" 2>/dev/null; then
    CAMERA=1
fi
if [ "$START" = 1 ]; then
    if [ "$CAMERA" = 1 ]; then
        run systemctl enable rubicon-dice-camera.service
        if [ "$CHANGED" = 1 ] || ! systemctl is-active -q rubicon-dice-camera.service; then
            run systemctl restart rubicon-dice-camera.service
        fi
    else
        echo "  (no [camera_tray] camera in $CONF_DIR/config.toml: rubicon-dice-camera.service installed, not enabled)"
    fi
    run systemctl enable rubicon.service
    if [ "$CHANGED" = 1 ] || ! systemctl is-active -q rubicon.service; then
        run systemctl restart rubicon.service
    fi
    echo "Rubicon runs as a service: systemctl status rubicon; journalctl -u rubicon -f shows its pairing links."
else
    echo "Installed, not started (--no-start): sudo systemctl enable --now rubicon"
fi
