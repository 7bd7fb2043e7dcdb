# The two commands of the README. Each installs what it needs (a virtualenv with turnwire and its dev
# tools; the oracle's npm packages are installed by the test set-up itself) and then runs.
#   make check   install, then run the main job
#   make test    install, then lint, type-check and run the whole test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install check test lint

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

check: install
	$(BIN)/turnwire check

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest
