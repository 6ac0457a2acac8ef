# Dédale: `make run` (the main job) and `make test` (every test), from a fresh machine with Python, make and apt.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
DEDALE := $(VENV)/bin/dedale
STAMP := $(VENV)/.installed

.PHONY: run test bench lint system-deps clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV) || { [ "$$(id -u)" = 0 ] && apt-get update -qq \
		&& apt-get install -y -qq python3-venv >/dev/null && $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

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

run: $(STAMP) system-deps
	$(DEDALE) crawler -o dungeon.json
	$(DEDALE) render dungeon.json -o dungeon.svg -o dungeon.png
	$(DEDALE) render dungeon.json
	@echo "Wrote dungeon.json, dungeon.svg and dungeon.png."

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks

test: $(STAMP) system-deps lint
	$(PY) -m pytest

bench: $(STAMP) system-deps
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) dungeon.json dungeon.svg dungeon.png .pytest_cache .ruff_cache .hypothesis
