# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
LAN ?=

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.runtime

# what `make run` needs: the service alone, none of the test tools
$(VENV)/.runtime: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

install: $(VENV)/.installed

run: $(VENV)/.runtime  # make run LAN=1: phones on the table's network open it (plain HTTP, a trusted network)
	$(BIN)/warlog serve --demo --port $(PORT) $(if $(LAN),--lan)

postgres:
	@bash ops/ensure-postgres.sh

chromium:
	@bash ops/ensure-chromium.sh

haproxy:
	@bash ops/ensure-haproxy.sh

axe:
	@bash ops/ensure-axe.sh

lint: install
	$(BIN)/ruff check .
	$(BIN)/python ops/sizes.py
	PYTHON=$(BIN)/python bash ops/typecheck.sh

# two workers (pytest-xdist): each test owns its files, ports and PostgreSQL schema, so they run side by side; the
# suite's servers, browsers and waits overlap, about 1.7x faster on the 2 cores CI has
test: install lint postgres chromium haproxy axe
	$(BIN)/python -m pytest -n 2

.PHONY: install lint run test postgres chromium haproxy axe
