# `make run` serves the site on http://127.0.0.1:8000; `make test` runs every check and test.
# Both build .venv first, reinstalling only when requirements.txt changes.

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/requirements.stamp
POSTGRES_TEST_URL := postgres://postgres@127.0.0.1:5432/president_league

.PHONY: venv run worker lint test

venv: $(STAMP)

$(STAMP): requirements.txt
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo_data
	@echo "Serving http://127.0.0.1:8000/ (Ctrl-C stops it)"
	$(BIN)/python manage.py runserver 127.0.0.1:8000

worker: venv
	$(BIN)/celery -A config.celery_app worker -l info

lint: venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# The whole suite on SQLite, then the database-specific and integration tests on PostgreSQL;
# pytest's exit code 5 (nothing selected) is not a failure there.
test: lint
	$(BIN)/pytest
	DATABASE_URL=$(POSTGRES_TEST_URL) $(BIN)/pytest -m "postgres or integration" || [ $$? -eq 5 ]
