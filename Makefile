# The two commands of the README: `make demo` and `make test`. Both create .venv on first use and
# reinstall only when pyproject.toml changes (stamp files), so a second run starts at once.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/tafel demo klotz --players 4 --seed 7

# The suite starts `tafel run` and other processes often: their bytecode is cached (__pycache__,
# ignored by git) even where the environment says not to write it. On a fresh clone (no .pytest_cache
# yet) the sources are compiled, the tests collected and mypy's cache filled once up front, rather
# than by every worker at the same time.
test: $(VENV)/.installed-dev
	@$(BIN)/python -m tests.web.browser
	@if [ ! -d .pytest_cache ]; then \
		PYTHONDONTWRITEBYTECODE= $(BIN)/python -m compileall -q -j 0 controller hal sim firmware; \
		$(BIN)/mypy >/dev/null 2>&1 & PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest --collect-only -q -n 0 >/dev/null; \
		wait; fi
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .

bench: $(VENV)/.installed-dev
	$(BIN)/tafel bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info
