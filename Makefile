# Two set-up commands: `make run` (the table app) and `make test` (everything CI runs).
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(VENV)/bin/pip

.PHONY: venv test lint run bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[test]'
	touch $@

venv: $(VENV)/.installed

test: venv lint
	$(PY) -m pytest

# The house rules, as CI checks them: ruff, mypy over engine/ and rubicon/, the import contracts.
lint: venv
	$(VENV)/bin/ruff check engine rubicon web_ui
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# The table app: game session, journal and the phones' web app (Ctrl-C stops; the next run resumes).
run: venv
	$(VENV)/bin/rubicon run

bench: venv
	$(PY) bench/engine.py
	$(PY) bench/engine_actions.py
	$(PY) bench/serial_latency.py
	$(PY) bench/rfid_scan.py
	$(PY) bench/engine_compare.py
	$(PY) bench/cli_startup.py
	$(PY) bench/web_page_weight.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
