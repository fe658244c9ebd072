# Two set-up commands: `make run` (the table app) and `make test` (everything CI runs).
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(VENV)/bin/pip

.PHONY: venv test run bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[test]'
	touch $@

venv: $(VENV)/.installed

test: venv
	$(PY) -m pytest

# Until the table app (session + phones' web app) lands, `make run` replays the example year
# 705 record through the engine and prints the final state.
run: venv
	$(VENV)/bin/rubicon replay tests/records/events_705.txt --json

bench: venv
	$(PY) bench/engine.py
	$(PY) bench/engine_actions.py
	$(PY) bench/serial_latency.py
	$(PY) bench/rfid_scan.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
