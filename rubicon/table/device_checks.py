"""What an owner should check when a table device cannot be opened: the diagnosis of one failure.

`diagnose(kind, exc, ...)` looks at the machine (the device tree's model, /dev/gpiochip*,
/dev/spidev*, the serial port, their permissions, lgpio's working directory) and at the error,
and names the first thing that explains it: SPI not enabled in config.txt, a group the service
user lacks, an absent cable or udev name, not a Raspberry Pi at all. The result is a
`DeviceProblem`: a stable `device.*` code with JSON-safe params (the pages translate it:
web_ui/i18n/messages.py, docs/refusals.md) and its English `text` for the log and the terminal.

    problem = diagnose("readers", exc, spi=(0, 0))
    log.warning("%s", problem.text)      # "the RFID readers: no /dev/spidev0.0: enable SPI ..."
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_bridge.device_kinds import DeviceKind, DeviceSpecError, NoReaderAnswers, kind_of

DEVICE_NAMES = {"dice": "the dice tray", "board": "the board scanner", "readers": "the RFID readers",
                "panel": "the panel (Done buttons, LEDs, buzzer)"}
WIRING = {"readers": "hardware/WIRING-rfid.md", "panel": "hardware/", "dice": "hardware/", "board": "hardware/"}
LGPIO_PIPE = ".lgd-nfy"       # lgpio's notification pipe, made in its working directory at import


@dataclass(frozen=True)
class DeviceProblem:
    """One device that is not working, and what to check. `params["device"]` is its kind."""
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    text: str = ""

    def as_message(self) -> dict[str, Any]:
        """The table part's message item (code, params, English text; the pages translate it)."""
        return {"code": self.code, "rule": None, "params": dict(self.params), "text": self.text}


def _causes(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _problem(kind: str, code: str, what: str, **params: Any) -> DeviceProblem:
    return DeviceProblem(code, {"device": kind, **params}, f"{_name(kind)}: {what}")


def _name(kind: str) -> str:
    registered = _kind(kind)
    return DEVICE_NAMES.get(kind) or (registered.description if registered is not None else kind)


def _kind(kind: str) -> DeviceKind | None:
    try:
        return kind_of(kind)
    except DeviceSpecError:
        return None


def _no_access(path: Path) -> bool:
    return not os.access(path, os.R_OK | os.W_OK)


def diagnose(kind: str, exc: BaseException, *, url: str = "", spi: tuple[int, int] = (0, 0),
             dev: Path = Path("/dev"), model_file: Path = Path("/proc/device-tree/model")) -> DeviceProblem:
    """Why the device of `kind` (a registered kind: firmware_bridge.device_kinds) failed to open with
    `exc`; `url`: the port of a kind that has one, `spi`: the readers' (bus, device). `dev`,
    `model_file`: for tests."""
    registered = _kind(kind)
    if registered is not None and registered.port:
        return _serial(kind, exc, url)
    for cause in _causes(exc):
        if isinstance(cause, NoReaderAnswers):
            return _problem(kind, "device.no-answer",
                            f"no reader answers on SPI {cause.bus}: check the cable, the readers' 3.3 V and the "
                            f"reset line ({WIRING['readers']})", path=f"SPI {cause.bus}", wiring=WIRING["readers"])
        filename = str(getattr(cause, "filename", "") or "")
        if isinstance(cause, OSError) and LGPIO_PIPE in filename:
            where = os.environ.get("LG_WD") or os.getcwd()
            return _problem(kind, "device.gpio-workdir",
                            f"lgpio cannot make its pipe in {where}: set LG_WD to a writable directory "
                            f"(the service's WorkingDirectory=, the state directory)", path=where)
    if registered is None or not registered.pi_wired:
        return _problem(kind, "device.failed", f"cannot be opened ({exc}): check its cable and wiring "
                        f"({WIRING.get(kind, 'hardware/')})", error=str(exc), wiring=WIRING.get(kind, "hardware/"))
    try:
        model = model_file.read_bytes().rstrip(b"\0").decode(errors="replace").strip()
    except OSError:
        model = ""
    if not model.startswith("Raspberry Pi"):
        return _problem(kind, "device.not-a-pi",
                        f"this machine is not a Raspberry Pi ({model or 'no device tree model'})", model=model)
    chips = sorted(dev.glob("gpiochip*"))
    if not chips:
        return _problem(kind, "device.no-gpio", f"no GPIO chip in {dev} (/dev/gpiochip*): check the kernel "
                        f"and, for the service, DeviceAllow=char-gpiochip", path=str(dev / "gpiochip0"))
    if all(_no_access(chip) for chip in chips):
        return _permission(kind, chips[0], "gpio")
    if kind == "readers":
        spidev = dev / f"spidev{spi[0]}.{spi[1]}"
        if not spidev.exists():
            return _problem(kind, "device.spi-off",
                            f"no {spidev}: enable SPI (dtparam=spi=on in /boot/firmware/config.txt, or "
                            f"sudo raspi-config nonint do_spi 0) and reboot", path=str(spidev))
        if _no_access(spidev):
            return _permission(kind, spidev, "spi")
    return _problem(kind, "device.failed", f"cannot be opened ({exc}): check its cable and wiring "
                    f"({WIRING.get(kind, 'hardware/')})", error=str(exc), wiring=WIRING.get(kind, "hardware/"))


def _permission(kind: str, path: Path, group: str) -> DeviceProblem:
    return _problem(kind, "device.not-permitted",
                    f"not permitted to open {path}: the user running Rubicon must be in the group {group} "
                    f"(sudo usermod -a -G {group} rubicon; the service has SupplementaryGroups=)",
                    path=str(path), group=group)


def _serial(kind: str, exc: BaseException, url: str) -> DeviceProblem:
    path = Path(url)
    if "://" not in url and not path.exists():
        return _problem(kind, "device.serial-absent",
                        f"{url} is absent: check the USB cable and the udev name (systemd/99-rubicon.rules, "
                        f"install.sh --tray-serial / --scanner-serial)", path=url)
    if "://" not in url and _no_access(path):
        return _permission(kind, path, "dialout")
    return _problem(kind, "device.failed", f"cannot be opened ({exc}): check its cable",
                    error=str(exc), wiring=WIRING.get(kind, "hardware/"))
