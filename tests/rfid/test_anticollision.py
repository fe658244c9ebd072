"""Reading every tag in one field, through the real mfrc522 library on the register-level emulator."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.emulation.picc import HALT, Picc

SIX_COLLIDING = ["04A1B2C3", "04A1B2C4", "04A1B2C5", "14A1B2C3", "04F1B2C3", "84A1B2C3"]


def test_one_tag(array, rig):
    rig.place("04A1B2C3", 5)
    scan = array.scan(5)
    assert scan.uids == {"04A1B2C3"} and scan.answered and scan.complete


def test_empty_reader(array):
    scan = array.scan(6)
    assert scan.uids == frozenset() and scan.answered and scan.complete


def test_six_tags_with_colliding_uid_bits(array, rig):
    for uid in SIX_COLLIDING:
        rig.place(uid, 7)
    assert array.scan(7).uids == set(SIX_COLLIDING)
    assert rig.field(7).frames > 6 * 3  # it really walked the collision tree


def test_seven_byte_uids_including_a_shared_cascade_level_1(array, rig):
    uids = ["04112233445566", "041122334455AA", "04998877665544", "0A0B0C0D"]  # first two share CL1
    for uid in uids:
        rig.place(uid, 3)
    assert array.scan(3).uids == set(uids)


def test_tags_are_halted_and_woken_again_on_the_next_pass(array, rig):
    tags = [rig.place(uid, 2) for uid in SIX_COLLIDING[:3]]
    first = array.scan(2)
    assert all(tag.state == HALT for tag in tags)
    assert array.scan(2).uids == first.uids == {t.uid_hex for t in tags}


def test_tag_leaving_mid_anticollision(array, rig):
    leaver, stayer = rig.place("04A1B2C5", 4), rig.place("04A1B2C4", 4)
    leaver.leave_after = 2  # hears WUPA and the first anticollision frame, then is gone
    scan = array.scan(4)
    assert scan.uids == {stayer.uid_hex} and scan.complete
    assert not leaver.in_field
    assert array.scan(4).uids == {stayer.uid_hex}


def test_tag_entering_between_passes(array, rig):
    rig.place("04A1B2C3", 9)
    array.scan(9)
    rig.place("04A1B2C4", 9)
    assert array.scan(9).uids == {"04A1B2C3", "04A1B2C4"}


def test_one_corrupt_frame_is_retried(array, rig):
    rig.place("04A1B2C3", 1).corrupt_next = 2  # the ATQA (ignored) and the anticollision answer: a BCC error
    scan = array.scan(1)
    assert scan.uids == {"04A1B2C3"} and scan.complete
    # WUPA, AC (bad BCC); the tag is still READY, so the next WUPA drops it to IDLE unanswered and a
    # second WUPA wakes it; then AC, SELECT, HLTA; then the final REQA, unanswered
    assert rig.field(1).frames == 8


def test_persistently_corrupt_tag_makes_the_scan_incomplete_never_a_wrong_uid(array, rig):
    rig.place("04A1B2C3", 1).corrupt_next = 100
    rig.place("14A1B2C3", 1)
    scan = array.scan(1)
    assert not scan.complete and scan.answered
    assert scan.uids <= {"04A1B2C3", "14A1B2C3"}
    assert any("BCC" in p or "SAK" in p for p in scan.problems)


def test_unplugged_reader_is_reported_and_reinitialised_when_back(array, rig):
    rig.place("04A1B2C3", 11)
    rig.unplug(11)
    scan = array.scan(11)
    assert not scan.answered and not scan.complete and scan.uids == frozenset()
    rig.chips[11].soft_reset()  # replugging powers the chip up with its reset values
    rig.plug(11)
    assert array.scan(11).uids == {"04A1B2C3"}


def test_chip_select_reaches_the_right_reader(array, rig, reader_map):
    roma = reader_map.index_of("Roma")
    rig.place("04A1B2C3", roma)
    assert array.scan(roma).uids == {"04A1B2C3"}
    assert array.scan(roma - 1).uids == frozenset()
    assert rig.selected_reader() == roma - 1


uid4 = st.binary(min_size=4, max_size=4).filter(lambda b: b[0] != 0x88)
uid7 = st.binary(min_size=7, max_size=7)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(uids=st.lists(st.one_of(uid4, uid7), min_size=0, max_size=8, unique=True))
def test_any_mix_of_tags_is_read_exactly(uids, mock_pins, reader_map):
    from firmware_bridge.emulation.rig import EmulatedRig
    from firmware_bridge.rfid.reader_array import ReaderArray

    mock_pins.reset()
    rig = EmulatedRig([0], reader_map.bus.address_pins, pin_factory=mock_pins)
    with rig.installed():
        array = ReaderArray(reader_map.bus, [0], pin_factory=mock_pins, clock=rig.clock)
        try:
            for uid in uids:
                rig.place(uid.hex(), 0)
            expected = {uid.hex().upper() for uid in uids}
            assert array.scan(0).uids == expected
            assert array.scan(0).uids == expected
        finally:
            array.close()


def test_missing_spi_device_is_a_clear_error_and_releases_the_pins(mock_pins, reader_map):
    from firmware_bridge.emulation.rig import EmulatedRig
    from firmware_bridge.rfid.reader_array import ChipSelect, HardwareUnavailable, ReaderArray

    rig = EmulatedRig([0], reader_map.bus.address_pins, spi=(1, 0), pin_factory=mock_pins)
    with rig.installed():
        with pytest.raises(HardwareUnavailable, match="cannot open SPI 0.0"):
            ReaderArray(reader_map.bus, [0], pin_factory=mock_pins)
    ChipSelect(reader_map.bus.address_pins, mock_pins).close()  # the address lines were released


def test_chip_select_refuses_an_index_beyond_its_lines(mock_pins):
    from firmware_bridge.rfid.reader_array import ChipSelect

    lines = ChipSelect([5, 6], mock_pins)
    with pytest.raises(ValueError, match="beyond"):
        lines.select(4)
    lines.select(3)
    assert [mock_pins.pin(p).state for p in (5, 6)] == [True, True]
    lines.close()


class SakCrcNoise(Picc):
    """A tag whose SELECT answers (SAK + CRC_A, 24 bits) arrive with a flipped CRC bit `bad_saks` times."""

    bad_saks = 1

    def _answer(self, bits):
        answer = super()._answer(bits)
        if answer is not None and len(answer) == 24 and self.bad_saks > 0:
            self.bad_saks -= 1
            answer = answer[:-1] + [answer[-1] ^ 1]
        return answer


@pytest.mark.parametrize("bad_saks, readable", [(1, True), (99, False)])
def test_sak_crc_errors_are_retried_then_reported(array, rig, bad_saks, readable):
    tag = SakCrcNoise("04A1B2C3")
    tag.bad_saks = bad_saks
    rig.place(tag, 2)
    scan = array.scan(2)
    assert scan.uids == ({"04A1B2C3"} if readable else set())
    assert scan.complete is readable
    assert readable or scan.problems == ("bad SAK frame at cascade level 1",)
