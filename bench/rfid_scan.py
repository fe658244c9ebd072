"""Benchmark: SPI traffic and scan time of one full-board RFID pass, against the protocol minimum.

Board: all readers of readers.toml (60 on the shipped sensing-board layout: 59 antennas and the scan
pad), 30 tags in stacks of up to 6 (a third with 7-byte
UIDs), everything else empty. The pass runs the real driver (reader_array -> iso14443 ->
mfrc522 library) on the register-level emulator, which counts every SPI transfer and byte and
every ISO 14443A frame with its air time (106 kbit/s, frame delay, 1 ms no-answer timer).

Estimated pass time on a Pi = SPI wire time (bytes * 8 / clock) + per-transfer overhead (one
ioctl per xfer2 from Python; --xfer-overhead-us, an assumption, default 25 us) + GPIO writes for
the chip-select lines (--gpio-overhead-us, default 10 us) + RF air time + the field settle time
of every reader (one field at a time: each antenna is switched on and left unmodulated 5.1 ms
before its first request, ISO/IEC 14443-3 §5.2.1; the emulated clock skips the wait). With
--fields N (> 1) the driver warms up to N-1 fields ahead of their turn, at least 120 mm from every
reader read meanwhile (field_schedule.py), the antennas placed at the map's locations scaled to the
864 mm board (game-data's map_xy, a 2560-px-wide image); then the settle counted is what the driver
still waited, measured on an emulated clock that advances only by the frames' air time (SPI time
would hide more of it: an upper bound).
Protocol minimum for the same frames: per frame one FIFO burst write (1 + n bytes), StartSend
(2; the chip stays in Transceive), IRQ clear (2), one IRQ poll (2), and when answered one burst
read of ErrorReg/FIFOLevelReg/ControlReg (4) and one FIFO burst read (1 + m). Its time uses the
same overheads per transfer and the same air time.

Usage: .venv/bin/python bench/rfid_scan.py [--passes N] [--fields N] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from engine import BOARD  # noqa: E402
from firmware_bridge.board.reader_map import ReaderMap  # noqa: E402
from firmware_bridge.emulation.radio import Clock  # noqa: E402
from firmware_bridge.emulation.rig import EmulatedRig  # noqa: E402

MM_PER_MAP_PX = 864 / 2560     # the 34" board over game-data's map image


def antenna_positions(reader_map: ReaderMap) -> dict[int, tuple[float, float]]:
    """Each map location's reader under its dot, in mm on the board (pools and the scan pad: unknown)."""
    out = {}
    for place in reader_map.places:
        if place.kind in ("city", "sea"):
            x, y = BOARD.map_xy[BOARD.location(place.location)]
            out[place.index] = (x * MM_PER_MAP_PX, y * MM_PER_MAP_PX)
    return out

STACKS = [6, 5, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1]  # 30 tags


def min_spi(exchanges) -> tuple[int, int]:
    """(bytes, transfers) a minimal driver needs for these frames."""
    total_bytes = transfers = 0
    for sent_bits, answered_bits in exchanges:
        total_bytes += (1 + (sent_bits + 7) // 8) + 2 + 2 + 2
        transfers += 4
        if answered_bits is not None:
            total_bytes += 4 + 1 + (answered_bits + 7) // 8
            transfers += 2
    return total_bytes, transfers


def build(seed: int):
    reader_map = ReaderMap.load()
    readers = reader_map.indices
    pins = MockFactory()
    rig = EmulatedRig(readers, reader_map.bus.address_pins, pin_factory=pins, clock=Clock(real=False))
    rng = random.Random(seed)
    n = 0
    for reader, size in zip(rng.sample(readers, len(STACKS)), STACKS, strict=True):
        for _ in range(size):
            length = 7 if n % 3 == 2 else 4
            if length == 7:
                uid = bytes([0x04]) + rng.randbytes(6)
            else:
                uid = bytes([rng.choice([b for b in range(256) if b != 0x88])]) + rng.randbytes(3)
            rig.place(uid.hex(), reader)
            n += 1
    return reader_map, readers, pins, rig


def gpio_writes(readers: list[int]) -> int:
    """Chip-select line changes of one pass in this order (warming ahead adds a few more, not counted)."""
    order = readers + readers[:1]  # the next pass starts over
    return sum(bin(a ^ b).count("1") for a, b in pairwise(order))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=705)
    parser.add_argument("--xfer-overhead-us", type=float, default=25.0)
    parser.add_argument("--gpio-overhead-us", type=float, default=10.0)
    parser.add_argument("--fields", type=int, default=1, help="fields on at once (warmed ahead; default 1)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    reader_map, readers, pins, rig = build(args.seed)
    with rig.installed():
        from firmware_bridge.rfid.reader_array import ReaderArray

        positions = antenna_positions(reader_map) if args.fields > 1 else None
        array = ReaderArray(reader_map.bus, readers, pin_factory=pins, clock=rig.clock, fields_at_once=args.fields,
                            positions=positions)
        first = array.scan_all()  # initialises every reader
        assert sum(len(s.uids) for s in first.values()) == 30, "the benchmark board must read all 30 tags"
        rig.reset_counters()
        array.settle_waited_s = 0.0
        started = time.perf_counter()
        for _ in range(args.passes):
            scans = array.scan_all()
        python_s = (time.perf_counter() - started) / args.passes
        settle = array.settle_waited_s / args.passes
        assert sum(len(s.uids) for s in scans.values()) == 30
        empty = next(r for r in readers if not rig.field(r).tags)
        array.chip_select.select(empty)
        before = rig.bus.transfers, rig.bus.bytes
        array.chip.MFRC522_Request(array.chip.PICC_REQIDL)  # the library's own request, for comparison
        library_empty = (rig.bus.transfers - before[0], rig.bus.bytes - before[1])
        before = rig.bus.transfers, rig.bus.bytes
        array.scan(empty)
        ours_empty = (rig.bus.transfers - before[0], rig.bus.bytes - before[1])
        array.close()
    exchanges = [e for chip in rig.chips.values() for e in chip.field.exchanges]
    per_pass = {
        "spi_bytes": rig.bus.bytes / args.passes,
        "spi_transfers": rig.bus.transfers / args.passes,
        "frames": len(exchanges) / args.passes,
        "air_time_s": rig.air_time_s / args.passes,
    }
    minimum_bytes, minimum_transfers = (v / args.passes for v in min_spi(exchanges))
    gpio = gpio_writes(array.order)
    result = {"readers": len(readers), "tags": 30, "stacks": STACKS, "passes": args.passes, **per_pass,
              "gpio_writes": gpio, "min_spi_bytes": minimum_bytes, "min_spi_transfers": minimum_transfers,
              "bytes_ratio": per_pass["spi_bytes"] / minimum_bytes,
              "emulated_python_s_per_pass": python_s, "empty_reader_library": library_empty,
              "empty_reader_ours": ours_empty, "settle_s": settle, "fields": args.fields,
              "max_fields_on": rig.radio.max_on, "at": {}}
    for hz in (1_000_000, 4_000_000):
        overhead = gpio * args.gpio_overhead_us * 1e-6 + settle
        ours = per_pass["spi_bytes"] * 8 / hz + per_pass["spi_transfers"] * args.xfer_overhead_us * 1e-6
        least = minimum_bytes * 8 / hz + minimum_transfers * args.xfer_overhead_us * 1e-6
        result["at"][f"{hz // 1_000_000}MHz"] = {
            "scan_s": ours + overhead + per_pass["air_time_s"],
            "min_scan_s": least + overhead + per_pass["air_time_s"],
            "spi_wire_s": per_pass["spi_bytes"] * 8 / hz,
            "ratio": (ours + overhead + per_pass["air_time_s"]) / (least + overhead + per_pass["air_time_s"]),
        }
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"Full-board pass: {len(readers)} readers, 30 tags in stacks {STACKS}")
    print(f"  ISO 14443A frames     {per_pass['frames']:.0f}   RF air time {per_pass['air_time_s'] * 1e3:.1f} ms")
    print(f"  SPI transfers         {per_pass['spi_transfers']:.0f}   (minimum {minimum_transfers:.0f})")
    print(f"  SPI bytes             {per_pass['spi_bytes']:.0f}   (minimum {minimum_bytes:.0f}; "
          f"ratio {result['bytes_ratio']:.2f})")
    print(f"  chip-select GPIO writes {gpio}")
    print(f"  field settle waited   {settle * 1e3:.1f} ms ({array.settle_s * 1e3:.1f} ms per reader; "
          f"at most {rig.radio.max_on} field(s) on at once)")
    for name, t in result["at"].items():
        print(f"  at {name} SPI: pass {t['scan_s'] * 1e3:.1f} ms (SPI wire {t['spi_wire_s'] * 1e3:.1f} ms), "
              f"minimum {t['min_scan_s'] * 1e3:.1f} ms, ratio {t['ratio']:.2f}")
    print(f"  (assumed {args.xfer_overhead_us:g} us per SPI transfer, {args.gpio_overhead_us:g} us per GPIO write)")
    for name, t in result["at"].items():
        print(f"  debounce window at {name}: seen after 2 passes = {2 * t['scan_s'] * 1e3:.0f} ms, "
              f"gone after 3 passes = {3 * t['scan_s'] * 1e3:.0f} ms")
    print(f"  an empty reader: the mfrc522 library's MFRC522_Request costs {library_empty[0]} transfers / "
          f"{library_empty[1]} bytes (it ignores TimerIRq); this driver's scan {ours_empty[0]} / {ours_empty[1]}")
    print(f"  emulated pass on this machine (Python + emulator): {python_s * 1e3:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
