# `make run` serves the site on http://127.0.0.1:8000 (`make run PORT=8001` on another port); `make test` runs every check and test.
# Both build .venv first, reinstalling only when requirements.txt changes.

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/requirements.stamp
POSTGRES_TEST_URL := postgres://postgres@127.0.0.1:5432/president_league

.PHONY: venv kernel sandbox run serve worker beat lint test

venv: $(STAMP)

$(STAMP): requirements.txt
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

# montecarlo's playout kernel (gameplay/bots/kernel/), compiled with the machine's C compiler
# and this Python's headers; rebuilt when its source changes.
KERNEL := gameplay/bots/kernel/_kernel$(shell python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')

kernel: $(KERNEL)

# built from the engine's constants too (build.py writes them as a header)
$(KERNEL): gameplay/bots/kernel/_kernel.c gameplay/bots/kernel/build.py \
		$(wildcard gameplay/engine/*.py gameplay/engine/rules/*.py) gameplay/bots/heuristic.py | venv
	$(BIN)/python gameplay/bots/kernel/build.py

# Hosted bots run in bubblewrap, the bots in Debian's python3 and nodejs (docs/sandbox.md):
# installed when missing (as root); a machine without bwrap refuses hosted games.
sandbox:
	@command -v bwrap >/dev/null || apt-get install -y bubblewrap
	@command -v node >/dev/null || apt-get install -y nodejs

PORT ?= 8000

run: venv kernel
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo_data
	@echo "Serving http://127.0.0.1:$(PORT)/ (Ctrl-C stops it)"
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# As in production: gunicorn with WhiteNoise serving the collected static files. Needs
# SECRET_KEY and ALLOWED_HOSTS (and DATABASE_URL, CELERY_BROKER_URL for real services); HTTPS
# is the proxy's job, which must set X-Forwarded-Proto.
serve: venv kernel
	DJANGO_SETTINGS_MODULE=config.settings.production $(BIN)/python manage.py collectstatic --noinput -v 0
	DJANGO_SETTINGS_MODULE=config.settings.production $(BIN)/python manage.py migrate --noinput
	DJANGO_SETTINGS_MODULE=config.settings.production $(BIN)/gunicorn config.wsgi \
		--bind $${BIND:-127.0.0.1:8000} --workers $${WEB_CONCURRENCY:-2} --access-logfile -

# One worker of every queue, started again whenever it exits (deploy/forever, as the systemd
# units in deploy/ do): on several machines, one worker per queue (docs/operations.md).
worker: venv kernel
	deploy/forever deploy/worker celery,tournaments,ladder,hosted

# The periodic tasks (CELERY_BEAT_SCHEDULE, kept in the database): run exactly one beat.
beat: venv
	deploy/forever $(BIN)/celery -A config.celery_app beat -l info

lint: venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# The whole suite on SQLite but the integration tests (real worker, beat and server processes,
# which run once, on PostgreSQL), then the database-specific and integration tests on
# PostgreSQL; pytest's exit code 5 (nothing selected) is not a failure there. Both passes run a
# pytest process per core (pytest-xdist): each has its own test database, and each worker, beat
# and proxy a test starts has its own queue and port. The longest tests come first
# (tests/conftest.py) and a process that runs out takes half of another's (worksteal), so
# both end together.
test: lint kernel
	$(BIN)/pytest -m "not integration" -n auto --dist worksteal
	DATABASE_URL=$(POSTGRES_TEST_URL) $(BIN)/pytest -m "postgres or integration" -n auto --dist worksteal || [ $$? -eq 5 ]
