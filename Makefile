# Everything runs from a virtual environment in .venv that these targets create.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test lint bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

setup: $(BIN)/.installed

demo: setup
	$(BIN)/zefiria demo --fast

test: setup
	$(BIN)/python -m pytest -q -n auto

# The folders are mapped to zefiria.* by pyproject; mypy sees them through a symlink tree.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	mkdir -p .typecheck/zefiria
	for d in engine vision device; do ln -sfn ../../$$d .typecheck/zefiria/$$d; done
	cd .typecheck && ../$(BIN)/mypy -p zefiria.engine -p zefiria.vision -p zefiria.device

bench: setup
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .typecheck .pytest_cache .mypy_cache .ruff_cache build *.egg-info
