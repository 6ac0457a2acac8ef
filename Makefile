# Dédale: `make run` (the main job) and `make test` (every test), from a fresh machine with Python, make and apt.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
DEDALE := $(VENV)/bin/dedale
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test test-long test-newest bench lint system-deps browser-deps pdf-deps clean

# Two installs into one venv: what the app needs (`make run`), then what the tests and the cluster batches need.
# pip shows its progress: on a fresh clone the install is the long part.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV) || { [ "$$(id -u)" = 0 ] && apt-get update -qq \
		&& apt-get install -y -qq python3-venv >/dev/null && $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e '.[all]'
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install -e '.[all,cluster,test]'
	touch $(TEST_STAMP)

# cairo draws the PNG and PDF files, DejaVu is the font in them.
system-deps:
	@if ! ldconfig -p | grep -q 'libcairo.so.2' || ! fc-list 2>/dev/null | grep -qi dejavu; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				libcairo2 fonts-dejavu-core fontconfig >/dev/null; \
		else \
			echo "Please install cairo and a font: sudo apt-get install libcairo2 fonts-dejavu-core"; exit 1; \
		fi; \
	fi

# Debian's Chromium, driven by Playwright in the browser tests (never `playwright install`).
browser-deps:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "The browser tests will be skipped: please install Chromium (sudo apt-get install chromium)"; \
		fi; \
	fi

# Poppler's pdftotext reads the printed PDFs back in a test (skipped without it).
pdf-deps:
	@if ! command -v pdftotext >/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				poppler-utils >/dev/null; \
		else \
			echo "The PDF text test will be skipped: please install poppler-utils (sudo apt-get install poppler-utils)"; \
		fi; \
	fi

# The web app on the embedded defaults: sessions in ./dedale.db, at http://127.0.0.1:8000/ (another port:
# make run PORT=8001)
PORT ?= 8000
run: $(STAMP) system-deps
	$(DEDALE) serve --host 127.0.0.1 --port $(PORT) --db dedale.db

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks conftest.py
	$(VENV)/bin/mypy
	$(PY) -m pytest -q -p no:cacheprovider tests/test_layers.py

# Every test, with the property tests' CI examples (tests/budget.py), a process a core (a test file's tests in
# one: its server and browser are started once); then the wall and CPU time the run took.
PYTEST := $(PY) -m pytest -n auto --dist loadfile
test: $(TEST_STAMP) system-deps browser-deps pdf-deps lint test-newest
	$(PY) tests/timed.py $(PYTEST)

# The newest Python at hand, if another than the venv's (the classifiers name 3.11 to 3.13): the wheel built as
# a user's pip builds it, installed with the base requirements alone, passes the contract every system keeps.
NEWEST ?= $(lastword $(wildcard /usr/bin/python3.1[3-9] /usr/local/bin/python3.1[3-9] $(HOME)/.pyenv/versions/3.1[3-9]*/bin/python3.1[3-9]))
NEWEST_VENV := .venv-newest
test-newest:
	@if [ -z "$(NEWEST)" ]; then echo "No Python 3.13 or newer at hand: the suite runs on $$($(PY) -V) alone"; else \
		rm -rf $(NEWEST_VENV) && $(NEWEST) -m venv $(NEWEST_VENV) \
		&& $(NEWEST_VENV)/bin/python -m pip wheel --no-deps -q -w $(NEWEST_VENV)/dist . \
		&& $(NEWEST_VENV)/bin/python -m pip install -q $(NEWEST_VENV)/dist/dedale-*.whl pytest hypothesis jsonschema jsonschema-rs \
		&& echo "On $$($(NEWEST_VENV)/bin/python -V), from the wheel:" && $(NEWEST_VENV)/bin/python -m pytest -p no:cacheprovider \
			tests/test_contract.py tests/test_core_rng.py tests/test_session.py; fi

# The same, with many more examples for every property test.
test-long: $(TEST_STAMP) system-deps browser-deps pdf-deps lint
	HYPOTHESIS_PROFILE=long $(PY) tests/timed.py $(PYTEST)

bench: $(TEST_STAMP) system-deps
	$(PY) -m pip install -e '.[all,cluster,bench]'
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) $(NEWEST_VENV) build dist dungeon.json dungeon.svg dungeon.png dedale.db-writer .pytest_cache .ruff_cache .hypothesis
