# Fire Mission. Every set-up step lives here, with pinned versions, so a fresh
# Debian machine with Python 3.11, Node.js and npm needs nothing else.
#   make serve  set up, build, serve the site at http://127.0.0.1:8000
#   make site   set up (Chromium included, for the PDFs) and build the static site into site/
#   make test   set up (Chromium included), build, run every test

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Material prints an end-of-life banner on every build; we know (see README).
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup site serve test chromium clean bench

setup: $(VENV)/.installed node_modules/pyodide/.installed

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

node_modules/pyodide/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Generated pages and assets first, then the strict build (any warning fails it),
# then the sheets' PDFs, printed by headless Chromium, then the service worker
# (Workbox), which lists every file of the built site.
site: setup chromium
	$(PY) scripts/build_pages.py
	$(PY) scripts/build_wheel.py
	$(PY) -m mkdocs build --strict --quiet
	$(PY) scripts/build_sheets_pdf.py
	node scripts/build_sw.mjs site

serve: site
	@echo "Serving the built site at http://$(HOST):$(PORT)/ (Ctrl-C stops)"
	$(PY) -m http.server $(PORT) --bind $(HOST) --directory site

# Debian's Chromium prints the sheets' PDFs and runs the browser tests (Playwright
# cannot download its own here); poppler-utils reads the PDFs in the tests. Needs root.
chromium:
	@if [ ! -x /usr/bin/chromium ] || ! command -v pdfinfo >/dev/null; then \
	  echo "Installing Debian's chromium and poppler-utils"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils >/dev/null; \
	fi

test: site
	$(PY) -m pytest -q

# Benchmarks, not timed tests: odds in CPython, then the calculators in Chromium.
bench: site
	$(PY) scripts/bench_odds.py
	$(PY) scripts/bench_browser.py

clean:
	rm -rf site build docs/calculators docs/glossary docs/interpretations docs/assets/generated .pytest_cache
