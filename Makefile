# Two set-up commands: `make run` (the table app) and `make test` (everything CI runs).
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(VENV)/bin/pip

.PHONY: venv test test-fast lint run bench clean install install-dry-run catalogs lock board-layout shipped-readers map-layout \
	dice-drawings dice-drawings-commit

# The venv holds exactly the locked versions (requirements/*.txt, hashed; `make lock` refreshes them):
# first the installer and build tools, then every other package with --no-deps (the lock is
# complete: `pip check` proves it, but for mfrc522's RPi.GPIO, which rpi-lgpio provides: see
# tools/pip_check.sh), then the project itself, editable.
$(VENV)/.installed: pyproject.toml requirements/build.txt requirements/test.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --require-hashes -r requirements/build.txt
	# RPi.GPIO (from a lock before rpi-lgpio) owns the same files as rpi-lgpio: both go first, the lock
	# brings rpi-lgpio back whole.
	if $(PIP) show -q RPi.GPIO 2>/dev/null; then $(PIP) uninstall -q -y RPi.GPIO rpi-lgpio; fi
	$(PIP) install -q --require-hashes --no-deps --no-build-isolation -r requirements/test.txt
	# setuptools' "Editable installation" banner (a warning about folders named like the package, which
	# is how an editable install works here) is not for the person running `make run`.
	PYTHONWARNINGS="ignore:Editable installation" $(PIP) install -q --no-deps --no-build-isolation -e .
	tools/pip_check.sh $(PIP)
	touch $@
	@echo "rubicon is installed as $(VENV)/bin/rubicon (or '. $(VENV)/bin/activate' puts it on the PATH)"

venv: $(VENV)/.installed

# On every core (pytest-xdist): a worker that runs out of tests takes some of another's, so the
# long sweeps (split into chunks) do not leave one core idle at the end.
PYTEST_PARALLEL = -n auto --dist worksteal

test: venv lint
	$(PY) -m pytest $(PYTEST_PARALLEL)

# The everyday loop: the long random-game sweeps (tests/conftest.py lists them) at a tenth of their size.
test-fast: venv
	$(PY) -m pytest $(PYTEST_PARALLEL) --quick-sweeps

# The house rules, as CI checks them: ruff over the whole tree (but the MicroPython firmware), mypy
# over engine/, rubicon/, web_ui/ and firmware_bridge/, the import contracts.
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# The gettext catalogs (web_ui/translations/*/LC_MESSAGES/messages.po) after a string changed in
# web_ui (templates, Python marked _ N_ P_, static/js/*.js and virtual.js t()): new msgids arrive untranslated, and
# tests/i18n fails until every language has them. The .po files are compiled when the app starts.
# The map's layout, computed once here and shipped (web_ui/data/map_layout.json): after a change of
# web_ui/map_layout.py's placement or of the game data; tests/web/test_map_layout_file.py fails until then.
map-layout: venv
	$(VENV)/bin/python -m web_ui.map_layout_build

catalogs: venv
	mkdir -p build
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ -k P_:1,2 -k t -k _ --no-location --sort-output \
		-o build/messages.pot .
	$(VENV)/bin/pybabel update -i build/messages.pot -d web_ui/translations -w 100 --no-fuzzy-matching \
		--ignore-obsolete

# Refresh the locks after pyproject.toml or requirements/build.in changed: existing pins are kept
# where they still satisfy the ranges (requirements/overrides.txt: what a dependency declares, replaced); `make lock LOCK_FLAGS=--upgrade` moves everything to the
# newest releases, `LOCK_FLAGS='--upgrade-package NAME'` one package. The locks hold every platform
# Rubicon runs on (a Pi's arm64 as well as this machine) with the hashes of every file. uv runs from
# a venv of its own (its pinned, hashed release taken from the test lock), so a lock can be made
# even when the project's venv cannot install from the old one.
LOCK_VENV  = build/lock-venv
UV_COMPILE = $(LOCK_VENV)/bin/uv pip compile --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command "make lock" --quiet $(LOCK_FLAGS)
lock:
	$(PYTHON) -m venv $(LOCK_VENV)
	awk '/^uv==/ {on = 1} on {print} on && !/\\$$/ {exit}' requirements/test.txt > $(LOCK_VENV)/uv.txt
	$(LOCK_VENV)/bin/pip install -q --require-hashes --no-deps -r $(LOCK_VENV)/uv.txt
	$(UV_COMPILE) requirements/build.in -o requirements/build.txt
	$(UV_COMPILE) pyproject.toml --extra pi --extra camera --override requirements/overrides.txt -c requirements/build.txt \
		-o requirements/runtime.txt
	$(UV_COMPILE) pyproject.toml --extra test --override requirements/overrides.txt -c requirements/runtime.txt \
		-c requirements/build.txt -o requirements/test.txt
	@echo "Locked. Review what moved:  git diff -U0 requirements/ | grep -E '^[-+][A-Za-z0-9]'"
	@echo "then read the changelog of each new version, run 'make clean test', and commit"
	@echo "requirements/ together with pyproject.toml."

# The table app: game session, journal and the phones' web app (Ctrl-C stops; the next run resumes).
# RUN_ARGS: options of `rubicon run`, e.g. make run RUN_ARGS="--port 8081 --host 127.0.0.1".
run: venv
	$(VENV)/bin/rubicon run $(RUN_ARGS)

# The camera dice tray's laser-cutting SVGs and side elevation (hardware/DICE.md), from
# hardware/drawings/dice_tray.py, into build/dice-drawings (`--camera v2|ov5647` for another camera's
# mast: DICE_CAMERA=v2). The committed copies in hardware/drawings are the reference camera's:
# `make dice-drawings-commit` refreshes them; tests/hardware checks they are current.
DICE_CAMERA ?= cm3
dice-drawings: venv
	$(PY) hardware/drawings/dice_tray.py build/dice-drawings --camera $(DICE_CAMERA)

dice-drawings-commit: venv
	$(PY) hardware/drawings/dice_tray.py hardware/drawings

bench: venv
	$(PY) bench/engine.py
	$(PY) bench/engine_actions.py
	$(PY) bench/serial_latency.py
	$(PY) bench/rfid_scan.py
	$(PY) bench/rfid_pass_model.py
	$(PY) bench/engine_compare.py
	$(PY) bench/cli_startup.py
	$(PY) bench/web_page_weight.py
	$(PY) bench/run_service.py

# The sensing board's antenna layout from the map: template.svg, template-A4.pdf, template-Letter.pdf (1:1,
# tiled) and readers.toml in build/board-layout/ (hardware/WIRING-rfid.md says how to build from them).
board-layout: venv
	$(VENV)/bin/rubicon board-layout --out build/board-layout

# The packaged reader map is the layout's readers.toml (tests/rfid/test_shipped_readers.py checks that it
# is what the tool writes from the game data): re-run after a change to the layout tool or the map data.
shipped-readers: venv
	$(VENV)/bin/rubicon board-layout --readers-to firmware_bridge/data/readers.toml

# On a Raspberry Pi: the service (venv in /opt/rubicon, user, config, unit, udev rule); see systemd/README.md.
install:
	sudo systemd/install.sh

install-dry-run:
	systemd/install.sh --dry-run

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
