# One command to serve the company, one to run the tests; both set up what they need.
SHELL := /bin/bash
PATH := $(HOME)/.local/bin:$(PATH)
export PATH

.PHONY: serve test bench validate setup uv chromium

serve: setup  ## set up, then serve the company (all apps, one default env) on 127.0.0.1:8000
	uv run officegym serve

test: setup chromium  ## set up, then run the whole test suite (unit, MCP over HTTP, REST, Chromium UI)
	uv run pytest -q

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
