# Two commands: `make run` (set up, then serve on SQLite) and `make test` (set up, then check:
# ruff, import-linter, mypy, the migrations check and the whole pytest suite, which includes the
# W3C Nu Html Checker over every page).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Links in mail and the calendar file name the address `make run` serves on (0.0.0.0 listens on
# every address; a link needs one: loopback's).
SITE_HOST = $(if $(filter 0.0.0.0,$(HOST)),127.0.0.1,$(HOST))
# The W3C Nu Html Checker (npm's vnu-jar, run with Java) for tests/e2e/test_valid_html.py.
NU := .nu
VNU_VERSION := 26.9.27
DEV := $(VENV)/.installed-dev

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

# One stamp per pinned version: changing VNU_VERSION installs that version.
# Without Java or npm it is left out, said so, and its test skips (CI installs both and fails
# instead, as for Chromium).
$(NU)/.installed-$(VNU_VERSION):
	@if ! command -v java >/dev/null || ! command -v npm >/dev/null; then \
		echo "No java or npm: the Nu Html Checker is left out (apt-get install default-jre-headless npm)" >&2; \
	else \
		rm -rf $(NU) && \
		npm install --prefix $(NU) --no-save --no-audit --no-fund --loglevel=error vnu-jar@$(VNU_VERSION) && \
		touch $@; \
	fi

install: $(VENV)/.installed
install-dev: $(DEV) $(NU)/.installed-$(VNU_VERSION)

run: install
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(BIN)/python manage.py createcachetable
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(BIN)/python manage.py load_syllabus
	@echo "Serving on http://$(HOST):$(PORT)/"
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} DJANGO_SITE_URL=$${DJANGO_SITE_URL:-http://$(SITE_HOST):$(PORT)} \
		$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: $(DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The layers run one way, phases <- progress <- studyplan (pyproject.toml's contracts).
imports: $(DEV)
	$(BIN)/lint-imports

typecheck: $(DEV)
	DJANGO_DEBUG=1 $(BIN)/mypy

migrations-check: $(DEV)
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run

pytest: $(DEV) $(NU)/.installed-$(VNU_VERSION)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test: lint imports typecheck migrations-check pytest

# Real study traffic (bench/study.py): 200 learners sign up, then tick, open their dashboard and
# phase page, answer drills and review, in four set-ups (SQLite and PostgreSQL 15, each without
# and with Redis; as root it starts PostgreSQL and installs redis-server when missing; what
# cannot start is reported), against /healthz in the same run.
bench: $(DEV)
	$(BIN)/python bench/study.py

load: $(DEV)
	$(BIN)/python scripts/load_ticks.py

# Two gunicorn servers on PostgreSQL and Redis, checked over HTTP as one site (needs root: it
# starts PostgreSQL 15 and redis-server, installing redis-server when missing).
cluster: $(DEV)
	$(BIN)/python scripts/cluster.py

clean:
	rm -rf $(VENV) $(NU) var staticfiles .pytest_cache .ruff_cache
