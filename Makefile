# The README's two commands, `make demo` and `make test`, are the whole set-up on a fresh
# machine with Python 3.11: each creates .venv when it is missing and installs what it needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.kernel_patterns-dev-installed

.PHONY: test demo lint wheel-check bench bench-scale docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

# The site is built first, so that the suite's browser test of the built pages runs (it would
# only skip without them): `make test` is the whole check, docs and the wheel included.
test: lint docs wheel-check
	$(BIN)/python -m pytest

# What users install: the sdist and wheel built, the wheel installed into a fresh venv with
# no extras, and the console script, the demo and every estimator run there.
wheel-check: $(STAMP)
	PYTHON=$(BIN)/python bash .ci/wheel_smoke.sh

demo: $(STAMP)
	$(BIN)/kernel-patterns demo --out demo-output

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[dev,bench]"
	$(BIN)/python benchmarks/run.py

bench-scale: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[dev,bench]"
	$(BIN)/python benchmarks/run.py scale

# The documentation site (docs/_build/html): warnings are errors; the gallery's scripts run.
docs: $(STAMP)
	OMP_NUM_THREADS=$${OMP_NUM_THREADS:-1} $(BIN)/sphinx-build -W --keep-going -b html docs docs/_build/html

clean:
	rm -rf $(VENV) demo-output .pytest_cache .mypy_cache .ruff_cache
	rm -rf docs/_build docs/auto_examples docs/generated docs/sg_execution_times.rst
