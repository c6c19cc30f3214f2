# Two commands: `make run` (set up, then serve on SQLite) and `make test` (set up, then check:
# ruff, import-linter, mypy, the migrations check and the whole pytest suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install install-dev run test lint imports typecheck migrations-check pytest bench load cluster clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files: reinstall only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev,postgres]"
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

run: install
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(BIN)/python manage.py load_syllabus
	@echo "Serving on http://$(HOST):$(PORT)/"
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The layers run one way, phases <- progress <- studyplan (pyproject.toml's contracts).
imports: install-dev
	$(BIN)/lint-imports

typecheck: install-dev
	DJANGO_DEBUG=1 $(BIN)/mypy

migrations-check: install-dev
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run

pytest: install-dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test: lint imports typecheck migrations-check pytest

# Real study traffic (bench/study.py): 200 learners sign up, then tick, open their dashboard and
# phase page, answer drills and review, in four set-ups (SQLite and PostgreSQL 15, each without
# and with Redis; as root it starts PostgreSQL and installs redis-server when missing; what
# cannot start is reported), against /healthz in the same run.
bench: install-dev
	$(BIN)/python bench/study.py

load: install-dev
	$(BIN)/python scripts/load_ticks.py

# Two gunicorn servers on PostgreSQL and Redis, checked over HTTP as one site (needs root: it
# starts PostgreSQL 15 and redis-server, installing redis-server when missing).
cluster: install-dev
	$(BIN)/python scripts/cluster.py

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache
