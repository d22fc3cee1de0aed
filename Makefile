# One command to serve the company, one to run the tests; both set up what they need.
SHELL := /bin/bash
PATH := $(HOME)/.local/bin:$(PATH)
export PATH

.PHONY: serve test test-sqlite test-postgres bench validate setup uv chromium postgres

serve: setup  ## set up, then serve the company (all apps, one default env) on 127.0.0.1:8000
	uv run officegym serve

# The whole suite runs twice: envs on SQLite files, then envs on PostgreSQL (OFFICEGYM_DB);
# the parity tests compare both in each pass. OFFICEGYM_REQUIRE_PG=1 turns a missing server
# into a failure, never a skip.
test: test-sqlite test-postgres  ## set up, then run the whole test suite (unit, MCP over HTTP, REST, Chromium UI) on SQLite, then on PostgreSQL

test-sqlite: setup chromium postgres
	OFFICEGYM_REQUIRE_PG=1 uv run pytest -q

test-postgres: setup chromium postgres
	uv run python -c "from officegym.core.backend.pgtools import reset_database; reset_database('$(PG_URL)')"
	OFFICEGYM_REQUIRE_PG=1 OFFICEGYM_DB=$(PG_URL) uv run pytest -q

bench: setup  ## the performance table
	uv run officegym bench

validate: setup  ## every task family: oracle scores 1.0, doing nothing 0.0
	uv run officegym tasks validate

setup: uv
	uv sync --locked --compile-bytecode

uv:
	@command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet --user uv || python3 -m pip install --quiet uv

# The browser tests drive Debian's Chromium (no browser download); the emoji font lets
# screenshot-reading agents tell reactions apart.
chromium:
	@test -x /usr/bin/chromium -a -d /usr/share/fonts/truetype/noto || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null; }

# PostgreSQL for the backend tests: Debian's server (installed if missing), its first cluster
# started, and a role for the current user that may create databases. The PostgreSQL pass
# starts from an empty officegym_test database; tests make and drop their own next to it.
PG_URL ?= postgresql:///officegym_test
postgres:
	@ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && command -v pg_ctlcluster >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql >/dev/null; }
	@SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	AS_PG=$$( [ "$$(id -u)" = 0 ] && echo "runuser -u postgres --" || echo "sudo -u postgres" ); \
	if [ -z "$$(pg_lsclusters -h)" ]; then $$SUDO pg_createcluster "$$(ls /usr/lib/postgresql | sort -n | tail -1)" main >/dev/null; fi; \
	set -- $$(pg_lsclusters -h | head -1); \
	[ "$$4" = online ] || $$SUDO pg_ctlcluster "$$1" "$$2" start; \
	cd /; $$AS_PG psql -qtAc "SELECT 1 FROM pg_roles WHERE rolname = '$$(id -un)'" | grep -q 1 || $$AS_PG createuser --createdb "$$(id -un)"
