# Two commands do all the set-up on a fresh machine (Python 3.11+):
#   make play   - install into .venv and play Liar's Dice against three bots
#   make test   - install into .venv (with test tools) and run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: play test lint bench serve clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "tavern-dice needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml requirements.lock
	$(BIN)/python -m pip install --quiet -c requirements.lock -e .
	touch $@

$(DEVSTAMP): $(BIN)/python pyproject.toml requirements.lock
	$(BIN)/python -m pip install --quiet -c requirements.lock -e '.[dev]'
	touch $(STAMP) $@

play: $(STAMP)
	$(BIN)/tavern play liars-dice $(ARGS)

serve: $(STAMP)
	$(BIN)/tavern serve $(ARGS)

lint: $(DEVSTAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

test: $(DEVSTAMP) lint
	scripts/ensure-chromium
	scripts/ensure-axe
	scripts/ensure-postgres
	$(BIN)/python -m pytest -n 2 $(ARGS)

bench: $(DEVSTAMP)
	$(BIN)/python -m pip install --quiet -c requirements.lock -e '.[dev,bench]'
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/vs_openspiel.py
	$(BIN)/python benchmarks/store_writes.py
	$(BIN)/python benchmarks/web_load.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
