# Every target sets itself up: a fresh machine needs only python3 and make.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo play test test-all test-rllib test-benchmarl lint bench fuzz soak clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	# The CPU build of torch first, so the ranges below do not pull a CUDA build.
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e ".[train,torchrl,play,data,dev]"
	touch $(STAMP)

# RLlib pins gymnasium 1.2.2 while .venv has the newest gymnasium, so RLlib gets its own
# virtual environment: the RLlib tests and every test of a front end that gymnasium's
# version could change run there (docs/scaling.md, "CI").
RLLIB_VENV := .venv-rllib
RLLIB_STAMP := $(RLLIB_VENV)/.installed
RLLIB_TESTS := tests/test_rllib_env.py tests/test_gym_vector_env.py tests/test_pettingzoo_env.py \
	tests/test_sb3_vec_env.py tests/test_torchrl_env.py tests/test_options.py \
	tests/test_conformance.py tests/test_bad_inputs.py tests/test_datasets.py \
	tests/test_docs_examples.py tests/test_training_scripts.py

$(RLLIB_STAMP): pyproject.toml
	$(PY) -m venv $(RLLIB_VENV)
	$(RLLIB_VENV)/bin/pip install -q --upgrade pip
	$(RLLIB_VENV)/bin/pip install -q torch==2.13.0
	$(RLLIB_VENV)/bin/pip install -q -e ".[train,torchrl,play,data,dev,rllib]"
	touch $(RLLIB_STAMP)

# BenchMARL 1.5.2 needs torchrl 0.11 while .venv has torchrl 0.14 (the torchrl extra), so
# BenchMARL gets its own virtual environment too: the BenchMARL task's tests and the
# TorchRL env's (which the task builds on) run there (docs/scaling.md, "BenchMARL").
BENCHMARL_VENV := .venv-benchmarl
BENCHMARL_STAMP := $(BENCHMARL_VENV)/.installed
BENCHMARL_TESTS := tests/test_benchmarl.py tests/test_torchrl_env.py

$(BENCHMARL_STAMP): pyproject.toml
	$(PY) -m venv $(BENCHMARL_VENV)
	$(BENCHMARL_VENV)/bin/pip install -q --upgrade pip
	$(BENCHMARL_VENV)/bin/pip install -q torch==2.13.0
	$(BENCHMARL_VENV)/bin/pip install -q -e ".[benchmarl,dev]"
	$(BENCHMARL_VENV)/bin/pip check
	touch $(BENCHMARL_STAMP)

demo: $(STAMP)
	$(BIN)/python scripts/train_mappo.py --config configs/train/demo.yaml

play: $(STAMP)
	$(BIN)/python scripts/play.py --scenario origin_story --games 2000 --seed 0

# The kernels compile once (hon_env.warmup) before pytest spreads the files over every
# core (pytest-xdist; --dist loadfile keeps each file, and its module fixtures, on one
# worker): otherwise each worker would compile the same kernels.
PYTEST_WORKERS ?= auto
PYTEST_PAR = -n $(PYTEST_WORKERS) --dist loadfile
# Two warm-up workers compile an empty cache a fifth faster on 2 cores (docs/benchmarks.md,
# "Cold start"); one on a single core, where they would only take turns.
WARMUP_JOBS ?= $(shell $(PY) -c "import os; print(min(2, os.cpu_count() or 1))")

test: $(STAMP)
	$(BIN)/python -m hon_env.warmup --agents --jobs $(WARMUP_JOBS)
	$(BIN)/python -m pytest -q -m "not slow" $(PYTEST_PAR)

test-all: $(STAMP)
	$(BIN)/python -m hon_env.warmup --agents --jobs $(WARMUP_JOBS)
	$(BIN)/python -m pytest -q $(PYTEST_PAR)

# Corrupted states into Game.from_bytes and random games, in debug mode (bounds-checked
# kernels, invariants after every step); docs/reliability.md has the full-size figures.
fuzz: $(STAMP)
	HON_ENV_DEBUG=1 $(BIN)/python scripts/fuzz_states.py --trials 300 --steps 50 --quiet
	HON_ENV_DEBUG=1 $(BIN)/python scripts/fuzz_games.py --games 8
	HON_ENV_DEBUG=1 $(BIN)/python scripts/fuzz_procgen.py --scenarios 100

test-rllib: $(RLLIB_STAMP)
	$(RLLIB_VENV)/bin/python -m pytest -q -m "not slow" $(RLLIB_TESTS)

test-benchmarl: $(BENCHMARL_STAMP)
	$(BENCHMARL_VENV)/bin/python -m pytest -q -m "not slow" $(BENCHMARL_TESTS)

# ruff, then the import contracts of pyproject.toml's [tool.importlinter]: imports only go
# down the layers (docs/contributing.md, "Layers")
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python scripts/layer_diagram.py --check

bench: $(STAMP)
	$(BIN)/pip install -q -e ".[bench]"
	$(BIN)/python scripts/benchmark.py

# 100,000 random games over every content combination, invariants checked every step;
# a smaller run: make soak SOAK_ARGS="--games 2000"
soak: $(STAMP)
	$(BIN)/python scripts/soak.py $(SOAK_ARGS)

clean:
	rm -rf $(VENV) $(RLLIB_VENV) $(BENCHMARL_VENV) .pytest_cache
