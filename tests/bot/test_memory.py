"""Memory keeps the enemy blocks a side saw revealed in battle, and only those."""
from engine import SIDES
from rubicon.bot.info import Memory
from tests.bot.helpers import positions


def test_memory_keeps_the_enemy_blocks_revealed_in_battle_and_nothing_hidden():
    remembered = 0
    for i in range(6):
        memories = [Memory(0), Memory(1)]
        ever_revealed = [set(), set()]
        for game, _side in positions(("easy", "easy"), seed=12, index=i):
            for side in (0, 1):
                view = game.view(SIDES[side])
                memories[side].observe(view)
                fight = view["fight"]
                if fight:
                    for entry in fight["revealed"][SIDES[1 - side]]:
                        assert memories[side].seen[entry["block"]] == (fight["location"], entry["strength"])
                        ever_revealed[side].add(entry["block"])
                        remembered += 1
                for key in view["eliminated"] + view["dead_leaders"]:
                    assert key not in memories[side].seen
                assert set(memories[side].seen) <= ever_revealed[side]   # nothing it was not shown
    assert remembered > 0
