# Fire Mission. Every set-up step lives here, with pinned versions, so a fresh
# Debian machine with Python 3.11, Node.js and npm needs nothing else.
#   make check        lint and the fast tests: no built site, no browser (a fresh clone needs only the venv)
#   make serve        set up, build, serve the site at http://127.0.0.1:8000
#   make site         set up (Chromium included, for the PDFs) and build the static site into site/
#                     for the address in SITE_URL, if set (guides/publishing.md)
#   make test         make check and the site build side by side, then the site, browser, firefox and webkit tests
#   make system-deps  Debian's chromium, poppler-utils, firefox-esr, webkit2gtk-driver, xvfb, zbar-tools (needs root; site and test call it)

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Material prints an end-of-life banner on every build; we know (see README).
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup check check-js site serve test system-deps clean bench

setup: $(VENV)/.installed node_modules/pyodide/.installed

# requirements.txt is the lock (every package, transitive ones included, with
# hashes; made from requirements.in, see guides/testing.md). rules_py goes in editable,
# so scripts and tests import the working tree without touching sys.path.
# --no-compile: pip would byte-compile every module of every package (pandas,
# playwright, selenium... most never imported here), 7 of its 17 s on a fresh
# venv; Python compiles what is imported, once, on first import instead.
$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-compile --require-hashes -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

node_modules/pyodide/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# One way through, each stage reading only what earlier ones wrote: generated
# pages and assets first (the sheets' page counts come from their front
# matter, not from an earlier print), then the strict build (any warning fails
# it), then, at once (each its own Chromium, on its own core), the sheets' PDFs
# and their large prints, printed by headless Chromium and checked against
# those counts, and each calculator as its page first shows it rendered into
# the page's HTML (the sheets' pages have no calculator, so neither step reads
# what the other writes), then the service worker (Workbox), which lists every
# file of the built site.
site: setup system-deps
	$(PY) -m scripts.build.build_pages
	$(PY) -m scripts.build.build_wheel
	@[ -n "$$SITE_URL" ] || echo "SITE_URL is not set: the site names no address, and instant navigation needs one (guides/publishing.md)"
	$(PY) -m mkdocs build --strict --quiet
	$(PY) -m scripts.build.build_sheets_pdf & pdfs=$$!; \
	$(PY) -m scripts.build.render_calculators; rendered=$$?; \
	wait $$pdfs && [ $$rendered -eq 0 ]
	node scripts/build/build_sw.mjs site

# Served by scripts/support/local_site.py rather than http.server: it lists the built
# pages in the sitemap it serves, so instant navigation works without SITE_URL.
serve: site
	$(PY) -m scripts.support.local_site --host $(HOST) --port $(PORT) site

# Debian's Chromium prints the sheets' PDFs and runs the browser tests (Playwright
# cannot download its own here); poppler-utils reads the PDFs in the tests;
# Firefox ESR, and WebKitGTK's WebKitWebDriver and MiniBrowser under Xvfb, run
# the firefox and webkit tiers; zbar-tools' zbarimg reads back the QR code a printed
# answer card carries. Installing them needs root; anyone else is told what to install.
SYSTEM_DEPS := chromium poppler-utils firefox-esr webkit2gtk-driver xvfb zbar-tools
system-deps:
	@if [ -x /usr/bin/chromium ] && command -v pdfinfo >/dev/null && command -v pdftotext >/dev/null \
	  && [ -x /usr/bin/firefox-esr ] && [ -x /usr/bin/WebKitWebDriver ] && command -v xvfb-run >/dev/null \
	  && command -v zbarimg >/dev/null; then exit 0; fi; \
	if [ "$$(id -u)" -ne 0 ]; then \
	  echo "make: the sheets' PDFs and the browser tests need Debian's packages $(SYSTEM_DEPS): install them as root (apt-get install $(SYSTEM_DEPS)), then run make again" >&2; \
	  exit 1; \
	fi; \
	echo "Installing Debian's $(SYSTEM_DEPS)"; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_DEPS) >/dev/null

# The fast tier: lint, the generated types of the engine's contracts (the typed
# answer, calculators.json) up to date with their schemas (scripts/build/schema_types.py)
# and their Python builders type-checked against them (mypy; tsc checks the page's side in check-js), then every test that
# needs neither a built site nor a browser, and the page's own JavaScript (check-js). Its tests share nothing
# but the source tree, so they run on every core (pytest-xdist): on this
# project's 2-core machines that keeps make check within its minute.
check: $(VENV)/.installed check-js
	$(PY) -m ruff check --quiet
	$(PY) -m scripts.build.schema_types --check
	$(PY) -m mypy
	$(PY) -m pytest -q -n auto -m "not site and not browser and not firefox and not webkit"

# The page's JavaScript: ESLint (eslint.config.mjs), TypeScript on its JSDoc
# types, strictly (the page's code: jsconfig.json; the engine's worker, which has
# a worker's globals: jsconfig.worker.json; every module is strict, so the
# jsconfig.strict.json that held the strict ones until all were is gone), then its tests on Node's
# built-in runner (the map grid's cases shared with rules_py, tests/map_grid_cases.json).
NODE_BIN := node_modules/.bin
check-js: node_modules/pyodide/.installed
	$(NODE_BIN)/eslint --max-warnings=0 .
	$(NODE_BIN)/tsc -p jsconfig.json
	$(NODE_BIN)/tsc -p jsconfig.worker.json
	node --test tests/

# make check and the build at once, then the tests that need the build, each
# stage timed (the cost of each tier, printed at the end; each pytest run also
# sums its tests' seconds by tier). Set-up fetches the venv's packages and
# npm's at once (two downloads, no shared files). make check keeps both cores
# busy, the build about one (its steps mostly wait on each other): side by
# side they took 103-121 s where one after the other took about 140 s. The build's
# output goes to build/site.log and is printed once both are done, so make
# check's report reads as it would alone; either failing fails make test (once
# both are done). They share nothing but the source tree: make check reads no
# file the build writes (its tests of the built site are the site tier's). The site and Chromium tiers
# run on both cores (pytest-xdist; worksteal: each worker takes a contiguous
# run of tests, so a module's shared tab and its booted engine are set up about
# once, and an idle worker takes tests from the other's queue). Those tests
# share only site/, read-only: each worker has its own Chromium and server
# (each origin its own caches and service workers), and a test that rebuilds a
# site does it in its own copy. Chromium's tier waits much of the time (paced
# links, engine downloads), so the Firefox and WebKit tiers run beside it, in a
# second pytest; their report follows Chromium's; either failing fails make test.
test:
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -j2 setup || exit 1; set_up=$$(date +%s); \
	mkdir -p build; \
	$(MAKE) --no-print-directory site > build/site.log 2>&1 & site=$$!; \
	$(MAKE) --no-print-directory check; check=$$?; checked=$$(date +%s); \
	wait $$site; built_ok=$$?; built=$$(date +%s); \
	echo "--- make site (beside make check):"; cat build/site.log; \
	[ $$check -eq 0 ] && [ $$built_ok -eq 0 ] || exit 1; \
	$(PY) -m pytest -q -p no:cacheprovider --durations=8 -m "firefox or webkit" > build/engines-test.log 2>&1 & engines=$$!; \
	$(PY) -m pytest -q -n 2 --dist worksteal --durations=15 -m "site or browser"; chromium=$$?; \
	wait $$engines; others=$$?; \
	echo "--- Firefox and WebKit tiers (pytest -m 'firefox or webkit'):"; cat build/engines-test.log; \
	end=$$(date +%s); \
	echo "--- make test: set-up $$((set_up - start)) s, make check $$((checked - set_up)) s and make site $$((built - set_up)) s side by side, the site, browser, firefox and webkit tiers $$((end - built)) s: $$((end - start)) s in all"; \
	[ $$chromium -eq 0 ] && [ $$others -eq 0 ]

# Benchmarks, not timed tests: odds in CPython, then the calculators in Chromium.
bench: site
	$(PY) -m scripts.bench.bench_odds
	$(PY) -m scripts.bench.bench_icepool
	$(PY) -m scripts.bench.bench_resolve
	$(PY) -m scripts.bench.bench_konrad_map
	$(PY) -m scripts.bench.bench_browser
	$(PY) -m scripts.bench.bench_map_editor

clean:
	rm -rf site build docs/calculators docs/glossary docs/interpretations docs/assets/generated .pytest_cache
