#!/bin/sh
# `pip check` of a Rubicon venv, but for the one requirement the locks replace on purpose: mfrc522
# declares RPi.GPIO, and its `RPi.GPIO` module comes from rpi-lgpio instead (requirements/overrides.txt).
# Any other missing or conflicting requirement is printed and fails, as plain `pip check` would.
#
#   tools/pip_check.sh VENV/bin/pip
set -u
pip="${1:?usage: tools/pip_check.sh VENV/bin/pip}"
found="$("$pip" check 2>&1)"
left="$(printf '%s\n' "$found" | grep -viE \
    -e '^No broken requirements found\.$' \
    -e '^mfrc522 [^ ]+ requires rpi[-_.]gpio, which is not installed\.$')"
if [ -n "$left" ]; then
    printf '%s\n' "$left" >&2
    exit 1
fi
echo "pip check: no broken requirements (mfrc522's RPi.GPIO is rpi-lgpio's module)"
