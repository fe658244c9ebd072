# Two set-up commands: `make run` (the table app) and `make test` (everything CI runs).
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(VENV)/bin/pip

.PHONY: venv test test-fast lint run bench clean install install-dry-run catalogs

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[test]'
	touch $@
	@echo "rubicon is installed as $(VENV)/bin/rubicon (or '. $(VENV)/bin/activate' puts it on the PATH)"

venv: $(VENV)/.installed

test: venv lint
	$(PY) -m pytest

# The everyday loop: the same without the long random-game sweeps (tests/conftest.py lists them).
test-fast: venv
	$(PY) -m pytest -m "not slow"

# The house rules, as CI checks them: ruff, mypy over engine/ and rubicon/, the import contracts.
lint: venv
	$(VENV)/bin/ruff check engine rubicon web_ui
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# The gettext catalogs (web_ui/translations/*/LC_MESSAGES/messages.po) after a string changed in
# web_ui (templates, Python marked _ N_ P_, static/app.js t()): new msgids arrive untranslated, and
# tests/i18n fails until every language has them. The .po files are compiled when the app starts.
catalogs: venv
	mkdir -p build
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ -k P_:1,2 -k t -k _ --no-location --sort-output \
		-o build/messages.pot .
	$(VENV)/bin/pybabel update -i build/messages.pot -d web_ui/translations -w 100 --no-fuzzy-matching \
		--ignore-obsolete

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
	$(PY) bench/run_service.py

# On a Raspberry Pi: the service (venv in /opt/rubicon, user, config, unit, udev rule); see systemd/README.md.
install:
	sudo systemd/install.sh

install-dry-run:
	systemd/install.sh --dry-run

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
