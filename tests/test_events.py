import pytest

from firmware_bridge.events import DiceRolled, DiceState, TagSeen, event_from_dict


def test_event_json_round_trip():
    for ev in (DiceRolled("dice", faces=(1, 6, 3)), TagSeen("rfid", reader=4, uid="04A1B2C3"),
               DiceState("dice", state="crooked")):
        assert event_from_dict(ev.to_dict()) == ev


@pytest.mark.parametrize("faces", [(), (0,), (7,), (1, 2, 3, 4, 5)])
def test_dice_faces_validated(faces):
    with pytest.raises(ValueError):
        DiceRolled("dice", faces=faces)


def test_dice_state_validated():
    with pytest.raises(ValueError):
        DiceState("dice", state="flying")
