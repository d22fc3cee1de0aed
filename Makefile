# One command to serve the company, one to run the tests; both set up what they need.
SHELL := /bin/bash
PATH := $(HOME)/.local/bin:$(PATH)
export PATH

.PHONY: serve test test-sqlite test-postgres bench validate setup uv chromium postgres libreoffice

serve: setup  ## set up, then serve the company (all apps, one default env) on 127.0.0.1:8000; ARGS="--port 18000" passes options
	uv run officegym serve $(ARGS)

# The whole suite runs twice, in two worker processes (pytest-xdist; each has its own server,
# Gym and scratch database): envs on SQLite files, then envs on PostgreSQL (OFFICEGYM_DB).
# A test whose result cannot depend on that choice (pure functions, the company generator, the
# parity tests, which make both backends themselves) runs once, in the SQLite pass; every test
# that creates an env, grades or serves on the pass's backend runs in both (tests/conftest.py).
# OFFICEGYM_REQUIRE_PG=1 turns a missing server into a failure, never a skip.
test: test-sqlite test-postgres  ## set up, then run the whole test suite (unit, MCP over HTTP, REST, Chromium UI) on SQLite, then on PostgreSQL

# Python's bytecode and pytest's rewritten test modules are kept in __pycache__ even where the
# environment turns that off (PYTHONDONTWRITEBYTECODE=1): without them every worker, and every CLI
# and server a test starts, compiles the project and rewrites ~200 test modules again (~9 s of CPU
# per worker and pass on a 2-core box).
PYTEST := env -u PYTHONDONTWRITEBYTECODE uv run pytest -q -n 2

test-sqlite: setup chromium postgres libreoffice
	OFFICEGYM_REQUIRE_PG=1 $(PYTEST)

test-postgres: setup chromium postgres libreoffice
	uv run python -c "from officegym.core.backend.pgtools import reset_database; reset_database('$(PG_URL)')"
	OFFICEGYM_REQUIRE_PG=1 OFFICEGYM_DB=$(PG_URL) $(PYTEST)

bench: setup  ## the performance table
	uv run officegym bench

validate: setup  ## every task family: oracle scores 1.0, doing nothing 0.0
	uv run officegym tasks validate

setup: uv
	uv sync --locked --compile-bytecode

# uv from PyPI into ~/.local/bin. A distribution's own Python (Debian 12, Ubuntu 23.04+) refuses
# pip installs (PEP 668, "externally-managed-environment"); uv is a standalone binary that
# touches none of its packages, so that refusal is overridden for it alone, in the user's dir.
uv:
	@command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet --user uv 2>/dev/null \
	  || python3 -m pip install --quiet --user --break-system-packages uv \
	  || python3 -m pip install --quiet uv

# The browser tests drive Debian's Chromium (no browser download); the emoji font lets
# screenshot-reading agents tell reactions apart.
chromium:
	@test -x /usr/bin/chromium -a -d /usr/share/fonts/truetype/noto || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null; }

# The sheets formula tests compare results with LibreOffice Calc, run headless (Debian's package).
libreoffice:
	@command -v soffice >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends libreoffice-calc >/dev/null; }

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
	for i in $$(seq 60); do pg_isready -q -p "$$3" && break; sleep 0.5; done; \
	cd /; $$AS_PG psql -qtAc "SELECT 1 FROM pg_roles WHERE rolname = '$$(id -un)'" | grep -q 1 || $$AS_PG createuser --createdb "$$(id -un)"; \
	$$AS_PG psql -qtAc "GRANT pg_signal_backend TO \"$$(id -un)\"" >/dev/null; \
	if [ "$$($$AS_PG psql -qtAc 'SHOW max_connections')" -lt 300 ]; then \
	  $$AS_PG psql -qtAc "ALTER SYSTEM SET max_connections = 300" >/dev/null && $$SUDO pg_ctlcluster "$$1" "$$2" restart; \
	  for i in $$(seq 60); do pg_isready -q -p "$$3" && break; sleep 0.5; done; fi
# pg_signal_backend: DROP DATABASE … FORCE may end sessions still starting. max_connections 300
# (as compose/ sets it): each process keeps one connection per open env (up to 24), and the
# suite runs servers, serve processes and CLI runs side by side on one PostgreSQL.

# -- A company simulation in Docker (compose/) --------------------------------------------
# `make docker` builds and starts PostgreSQL and one officegym worker (compose/README.md);
# `make docker WORKERS=4` starts four. Each step skips what is already there: the engine, the
# base image (debootstrap, ~1.5 min once), the secrets, the image layers.
COMPOSE := docker-compose -f compose/docker-compose.yml
WORKERS ?= 1
.PHONY: docker docker-engine docker-base compose-secrets compose-build compose-down compose-logs compose-bench

docker: docker-engine docker-base compose-secrets compose-build  ## a company simulation in Docker: PostgreSQL + officegym workers (WORKERS=1..4)
	$(COMPOSE) $$( [ "$(WORKERS)" -gt 1 ] && echo --profile scale ) up -d db $$(seq -f 'worker%g' 1 $(WORKERS))
	@for i in $$(seq 600); do \
	  [ "$$(docker inspect -f '{{.State.Health.Status}}' $$($(COMPOSE) ps -q worker1))" = healthy ] && break; sleep 0.5; done
	@$(COMPOSE) logs --no-color worker1 | sed -n 's/^[^|]*| //p' | grep -E '^(officegym|  )' | tail -17
	@echo "  control token  compose/secrets/control_token"

# Debian's engine and compose v1; the daemon without a bridge (host networking only here).
docker-engine:
	@command -v dockerd >/dev/null 2>&1 && command -v docker-compose >/dev/null 2>&1 && command -v debootstrap >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq docker.io docker-compose debootstrap >/dev/null; }
	@docker info >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO sh -c 'nohup dockerd --bridge=none --iptables=false >/var/log/dockerd.log 2>&1 &'; \
	  for i in $$(seq 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done; docker info >/dev/null; }

docker-base: docker-engine
	compose/make-base-image.sh $${BASE_IMAGE:-officegym-base:bookworm}

# Random secrets, made once; the directory is private, the files readable by the containers' users.
compose-secrets:
	@mkdir -p compose/secrets && chmod 700 compose/secrets
	@for name in db_password control_token; do \
	  [ -s compose/secrets/$$name ] || { python3 -c 'import secrets; print(secrets.token_urlsafe(32))' > compose/secrets/$$name; chmod 644 compose/secrets/$$name; }; \
	done

# The build trusts this machine's CAs for PyPI (a TLS-intercepting proxy's among them).
compose-build: docker-base
	@[ ! -s /etc/ssl/certs/ca-certificates.crt ] || cmp -s /etc/ssl/certs/ca-certificates.crt compose/build-ca.crt \
	  || cp /etc/ssl/certs/ca-certificates.crt compose/build-ca.crt
	$(COMPOSE) build db

compose-down:
	$(COMPOSE) --profile scale down

compose-logs:
	$(COMPOSE) --profile scale logs --tail=100

# Rollouts/s with 1, 2 and 4 workers against the compose PostgreSQL.
compose-bench: compose-build
	uv run python compose/bench.py --workers 1 2 4
