# The two commands of the README, and the benchmark.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SUM := $(shell cat pyproject.toml constraints.txt | cksum | cut -d' ' -f1)
# the versions the tests ran with (pip's constraints: a package is installed at its version there)
PIN := -c constraints.txt
BASE := $(VENV)/.installed-base-$(SUM)
STAMP := $(VENV)/.installed-all-$(SUM)

.PHONY: run sim test chromium nginx node js lint typecheck unit bench bench-bots bench-arena bench-hall bench-server bench-shards bench-table bench-table-pace bench-receive bench-review install \
	constraints

run: $(BASE)  ## install, then start the web table on http://127.0.0.1:8000 (Ctrl-C stops it)
	$(BIN)/gouji serve

sim: $(BASE)  ## install, then play 200 random deals and print the statistics
	$(BIN)/gouji sim --rules qingdao --deals 200 --seed 1

test: $(STAMP) chromium nginx js lint typecheck unit  ## install, then lint, type-check and run every test

chromium:  ## Debian's Chromium for the browser tests (installed when missing and we are root)
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-noto-cjk; } || \
	  echo "no Chromium (apt-get install chromium): the browser tests will be skipped"

nginx:  ## Debian's nginx for the reverse-proxy tests (installed when missing and we are root)
	@command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx; } || \
	  echo "no nginx (apt-get install nginx): the reverse-proxy tests will be skipped"

node:  ## Debian's Node.js and npm for the page's scripts (installed when missing and we are root)
	@command -v node >/dev/null && command -v npm >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; }

node_modules/.package-lock.json: package.json package-lock.json | node
	npm ci --no-audit --no-fund

js: node_modules/.package-lock.json  ## the browser table's scripts: ESLint, then their unit tests (node --test)
	npx eslint src/gouji/server/static tests/js eslint.config.js
	node --test tests/js/

install: $(STAMP)

# What the table needs (`make run`, `make sim`): the package alone, no test or research extras.
$(BASE): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q $(PIN) -e .
	rm -f $(VENV)/.installed-base-* && touch $(BASE)

# Everything the tests and benchmarks use: the test tools and the research extras (PyTorch's CPU build, Ray,
# PettingZoo, Gymnasium, OpenSpiel).
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q $(PIN) -e '.[test,rl,train,tune]'
	rm -f $(VENV)/.installed-all-* && touch $(STAMP)

lint:
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/lint-imports

typecheck:
	$(BIN)/mypy

unit:
	$(BIN)/pytest -n 2 --dist loadgroup tests

bench: $(STAMP)  ## speed of the engine and of the environment against RLCard's DouDizhu, in one run
	$(BIN)/python -m pip install -q $(PIN) -e '.[test,rl,train,tune,bench]'
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_bots.py
	$(BIN)/python benchmarks/bench_env.py

bench-bots: $(STAMP)  ## the heuristic bot's time per decision
	$(BIN)/python benchmarks/bench_bots.py

bench-arena: $(STAMP)  ## the heuristic bot's strength: 2,000 duplicate pairs on qingdao and on tournament
	$(BIN)/gouji arena --a heuristic --b random --rules qingdao --deals 2000 --seed 1 --jobs 2
	$(BIN)/gouji arena --a heuristic --b random --rules tournament --deals 2000 --seed 1 --jobs 2

bench-hall: $(STAMP)  ## quick play's time to a seat, the hall's delay, the leaderboard on 100,000 accounts
	pg=$$(bash .ci/postgres.sh start) || pg=; trap 'bash .ci/postgres.sh stop' EXIT; \
	  $(BIN)/python benchmarks/bench_hall.py $${pg:+--postgres "$$pg"}

bench-server: $(STAMP)  ## 100 tables of six bot clients on SQLite and PostgreSQL, kill -9, memory per table
	pg=$$(GOUJI_PG_FSYNC=on bash .ci/postgres.sh start) || pg=; trap 'bash .ci/postgres.sh stop' EXIT; \
	  $(BIN)/python benchmarks/bench_server.py --kill --memory 100 --floor $${pg:+--postgres "$$pg"}

bench-shards: $(STAMP) nginx  ## one server against two shards behind nginx on PostgreSQL, the same clients, kill -9
	pg=$$(GOUJI_PG_FSYNC=on bash .ci/postgres.sh start); trap 'bash .ci/postgres.sh stop' EXIT; \
	  $(BIN)/python benchmarks/bench_server.py --kill --shards 2 --postgres "$$pg"

bench-table: $(STAMP)  ## what a move costs the table code in process (with valgrind: instructions a move too)
	$(BIN)/python benchmarks/bench_table.py $$(command -v valgrind >/dev/null && echo --instructions)

bench-table-pace: $(STAMP)  ## a person answering in 1.5 s plays a deal of each preset at 正常 against five bots
	$(BIN)/python benchmarks/bench_table_pace.py

bench-review: $(STAMP)  ## the 复盘 review of one seat: seconds a deal, median of 20 deals, qingdao and tournament
	$(BIN)/python benchmarks/bench_review.py --rules qingdao
	$(BIN)/python benchmarks/bench_review.py --rules tournament

bench-receive: $(STAMP)  ## what a client's message costs the way in: the server's framing and the library's parser
	$(BIN)/python benchmarks/bench_receive.py

constraints:  ## write constraints.txt from the venv's versions (after a dependency changed: install it without -c first)
	{ sed -n '1,3p' constraints.txt; $(BIN)/python -m pip freeze --exclude-editable | grep -vi '^gouji' | \
	  sed -E 's/\+[A-Za-z0-9.]+$$//' | LC_ALL=C sort -f; } > constraints.txt.new && mv constraints.txt.new constraints.txt
