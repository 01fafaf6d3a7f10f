# make run   set everything up and serve the app on http://127.0.0.1:8000 (SQLite)
# make test  set up what the tests need, then lint, type-check and run the suite
# make test-redis  the cache and two-server tests again, with the cache in Redis (TEST_REDIS_URL)
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Redis database 1 of the local server: the tests empty this database number only.
TEST_REDIS_URL ?= redis://127.0.0.1:6379/1

.PHONY: run test test-redis lint format typecheck pytest clean bench load

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

var:
	mkdir -p var

run: $(STAMP) var
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py ensure_first_user
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: $(STAMP)
	$(BIN)/mypy plumbing scoring club accounts tournaments tarockscore scripts tests

pytest: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider $(PYTEST_ARGS)

test: lint typecheck pytest

test-redis: $(STAMP)
	CACHE=$(TEST_REDIS_URL) $(BIN)/python -m pytest -p no:cacheprovider -m "cache or redis" $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

load: $(STAMP)
	$(BIN)/python scripts/load_test.py --database sqlite
	$(BIN)/python scripts/load_test.py --database postgres
