# make run   set everything up and serve the app on http://127.0.0.1:8000 (SQLite)
# make test  set up what the tests need, then lint, type-check and run the suite (and tests/js in Node)
# make test-redis  the cache and two-server tests again, with the cache in Redis (TEST_REDIS_URL)
# make test-db     the tests that use the database or the cache again (DATABASE_URL, CACHE), as CI does on PostgreSQL and Redis
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# pytest-xdist workers for the suite: one more than the cores. A browser test's worker
# waits while the browser and the live server work, and a poll's seconds pass; with one
# worker per core that left the machine a tenth idle, the extra worker fills it
# (docs/development.md). PYTEST_WORKERS=0 runs the suite in one process. Idle workers
# take tests from busy ones (worksteal); the slowest tests are listed after each run.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# The database tests again (test-db, test-redis) have no browser to wait on: one per core.
DB_WORKERS ?= auto
# pytest rewrites the tests' asserts when it imports them and keeps the result in
# __pycache__ (8 s of each worker's start otherwise): an environment that turns off
# writing bytecode would make every worker of every run rewrite all of them anew.
unexport PYTHONDONTWRITEBYTECODE
# Redis database 1 of the local server and the next ones, one per test worker (at most
# 8 where the cache may be in Redis): the tests empty these database numbers only.
TEST_REDIS_URL ?= redis://127.0.0.1:6379/1

# The phone's engine: the pinned Pyodide (package.json, package-lock.json) from npm, its
# runtime files copied to var/pyodide/<version>/ and the engine bundle built into
# var/phone/ (manage.py build_phone); the engine's tests under Pyodide need the pure
# wheels of tests/pyodide/requirements.txt in var/pyodide-test/.
NODE_STAMP := node_modules/.installed
PYODIDE_WHEELS := var/pyodide-test/.downloaded

.PHONY: run test test-redis test-db lint format typecheck pytest clean bench load phone test-pyodide test-js

# --no-compile: the bytecode of the installed packages is written as each module is
# first imported, for the modules that are used (5 s less of a fresh set-up).
$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --no-compile -r requirements-dev.txt
	touch $(STAMP)

var:
	mkdir -p var

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

phone: $(STAMP) $(NODE_STAMP) var
	DEBUG=1 $(BIN)/python manage.py build_phone

$(PYODIDE_WHEELS): tests/pyodide/requirements.txt $(STAMP)
	rm -rf var/pyodide-test
	$(BIN)/python -m pip download --quiet --no-deps --only-binary=:all: --platform any \
		--python-version 3.14 --implementation py -r tests/pyodide/requirements.txt -d var/pyodide-test
	touch $(PYODIDE_WHEELS)

# The engine's test suite (tests/engine, tests/koenigrufen/engine) under the pinned Pyodide in Node.
test-pyodide: $(NODE_STAMP) $(PYODIDE_WHEELS)
	node tests/pyodide/run_engine_tests.mjs

run: $(STAMP) var phone
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py ensure_first_user
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

# The JavaScript (static/js, the Node and Pyodide test scripts): Biome, pinned in
# package.json, its rules in biome.json; `make format` writes its formatting too.
lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	node_modules/.bin/biome check

format: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
	node_modules/.bin/biome check --write

typecheck: $(STAMP)
	$(BIN)/mypy plumbing scoring club accounts tournaments ratings tarockscore scripts tests

# pytest in $(1) workers, as every target here runs it; SUITE: the whole suite.
in_workers = $(BIN)/python -m pytest -p no:cacheprovider -n $(1) --dist worksteal
SUITE = $(call in_workers,$(PYTEST_WORKERS)) --durations=15 $(PYTEST_ARGS)

pytest: $(STAMP) phone
	$(SUITE)

# The tests that touch the database (marker set in tests/conftest.py) or the cache,
# without the browser tests and the phone's engine beside the server (its services are
# the same on every database): what another database and cache must pass beyond what
# make test has shown. CI runs it on PostgreSQL with the cache in Redis (DATABASE_URL,
# CACHE), as production runs.
test-db: $(STAMP) phone
	$(call in_workers,$(DB_WORKERS)) --maxprocesses=8 --durations=15 -m "(database or cache or redis) and not browser and not phone" $(PYTEST_ARGS)

# The phone's outbox and other scripts that decide without a browser: Node's own test runner.
test-js:
	node --test tests/js/

# The virtualenv and npm's packages are installed side by side; then the checks that
# are one process each (lint, types, the phone's build, its scripts in Node, the
# engine under Pyodide) run side by side, each one's output printed together
# when it ends; then the suite, in its workers (PYTEST_WORKERS).
test:
	$(MAKE) --no-print-directory -j3 --output-sync=target $(STAMP) $(NODE_STAMP) var
	$(MAKE) --no-print-directory -j4 --output-sync=target lint typecheck phone test-js test-pyodide
	$(SUITE)

# Each worker keeps its cache in a Redis database of its own: the URL's number plus the
# worker's (tarockscore/settings_test.py), so database 1 and 2 with two workers.
test-redis: $(STAMP)
	CACHE=$(TEST_REDIS_URL) $(call in_workers,$(DB_WORKERS)) --maxprocesses=8 -m "cache or redis" $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache node_modules

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

load: $(STAMP)
	$(BIN)/python scripts/load_test.py --database sqlite
	$(BIN)/python scripts/load_test.py --database postgres
