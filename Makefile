# The two commands of the README, and the benchmark.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run sim test chromium lint typecheck unit bench bench-bots bench-arena bench-server install

run: $(STAMP)  ## install, then start the web table on http://127.0.0.1:8000 (Ctrl-C stops it)
	$(BIN)/gouji serve

sim: $(STAMP)  ## install, then play 200 random deals and print the statistics
	$(BIN)/gouji sim --rules qingdao --deals 200 --seed 1

test: $(STAMP) chromium lint typecheck unit  ## install, then lint, type-check and run every test

chromium:  ## Debian's Chromium for the browser tests (installed when missing and we are root)
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-noto-cjk; } || \
	  echo "no Chromium (apt-get install chromium): the browser tests will be skipped"

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

lint:
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck:
	$(BIN)/mypy

unit:
	$(BIN)/pytest -n 2 tests

bench: $(STAMP)  ## speed of the engine against RLCard's DouDizhu, in one run
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_bots.py

bench-bots: $(STAMP)  ## the heuristic bot's time per decision
	$(BIN)/python benchmarks/bench_bots.py

bench-arena: $(STAMP)  ## the heuristic bot's strength: 2,000 duplicate pairs on qingdao and on tournament
	$(BIN)/gouji arena --a heuristic --b random --rules qingdao --deals 2000 --seed 1 --jobs 2
	$(BIN)/gouji arena --a heuristic --b random --rules tournament --deals 2000 --seed 1 --jobs 2

bench-server: $(STAMP)  ## 100 tables of six bot clients on SQLite and PostgreSQL, kill -9, memory per table
	pg=$$(bash .ci/postgres.sh start) || pg=; trap 'bash .ci/postgres.sh stop' EXIT; \
	  $(BIN)/python benchmarks/bench_server.py --kill --memory 100 $${pg:+--postgres "$$pg"}
