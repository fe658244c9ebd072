"""The suite's two speeds. CI (`make test`) runs everything; `make test-fast` (`pytest -m "not slow"`)
leaves out the long random-game sweeps below, each of which replays dozens of whole games, for
the everyday development loop. The list is by test id, so the test files stay as they are."""
from __future__ import annotations

import pytest

SLOW = (
    "tests/engine/test_api_fuzz.py::test_every_step_of_random_games",
    "tests/engine/test_explain.py::test_explain_agrees_with_apply_through_random_games",
    "tests/engine/test_pending.py::test_every_step_of_40_random_games",
    "tests/web/test_leaks.py::test_no_endpoint_leaks_hidden_information_at_any_phase",
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long sweep left out of `make test-fast` (CI runs it)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
