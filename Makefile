# Model Evaluation course: every command a lecturer, student, teacher or
# contributor needs. `make help` lists them.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.lock pyproject.toml | cksum | cut -d' ' -f1)
PYTEST := $(BIN)/python -m pytest
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout 300
NB ?= notebooks/py/*.py
ASSIGNMENT ?= 01_metrics
CHROMIUM := /usr/bin/chromium
BWRAP := /usr/bin/bwrap
SUBMISSIONS ?=
SLIDES_VENDOR := build/slides/vendor
SLIDES_JS := $(SLIDES_VENDOR)/.installed
HUB_PROXY := build/hub/.installed
HUB_ENV := build/hub/venv/.installed
HUB_PYTHON ?= /usr/bin/python3.11

.PHONY: durations hub hub-proxy hub-env help install lab study study-files check test test-unit test-notebooks execute student grade bench lecture present slides lock clean postgresql mutation

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

install: $(STAMP)  ## create .venv with the pinned stack and helpers (editable)

$(STAMP): requirements.lock pyproject.toml tools/lab/overrides.json
	@test -n "$(PYTHON)" || { echo "Python 3.11 is needed (python3.11 or python3 on PATH)"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || { echo "$(PYTHON) is not Python 3.11"; exit 1; }
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps "$$(grep -E '^uv==' requirements.lock)"
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps --compile-bytecode --link-mode=copy -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	$(BIN)/python -m pip check
	install -D -m 644 tools/lab/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json  # no news pop-up
	touch $@

lab: $(STAMP)  ## lecturers: JupyterLab on the instructor notebooks (solutions and hidden tests included)
	$(BIN)/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root,)

# Students work in study/ (git-ignored): the student versions side by side, handed out by
# tools/study.py, which never overwrites a notebook the student edited (study/.handed-out.json).
study: study-files  ## students: the student versions in study/ (your edits are kept) and JupyterLab on them; FRESH=01_metrics for a fresh copy
	$(BIN)/jupyter lab study/ $(if $(filter 0,$(shell id -u)),--allow-root,)

study-files: $(STAMP)  ## build or update study/ without starting JupyterLab (FRESH=NAME as for study)
	$(BIN)/python tools/study.py build $(if $(FRESH),--fresh $(FRESH),)

check: $(STAMP)  ## students: every test, hidden ones included, on your copy: make check NB=01_metrics (FILE=path for another copy)
	@$(BIN)/python tools/study.py check $(if $(filter file,$(origin NB)),,$(NB)) $(if $(FILE),--file $(FILE),)

# Two workers, one per core (a third made the run slower: the kernels, sandboxes and Chromium keep both cores
# busy); each takes one test file at a time, the heaviest files first (tests/conftest.py).
test: $(STAMP) $(CHROMIUM) $(BWRAP) postgresql $(SLIDES_JS) $(HUB_PROXY) $(HUB_ENV)  ## every test: helpers, environment, twins, notebooks (nbval), grading, browser, slides, PostgreSQL, JupyterHub
	$(PYTEST) -n 2 --dist loadfile --no-loadscope-reorder --durations=15 $(NBVAL) tests notebooks

# The browser tests drive JupyterLab in Debian's Chromium (no browser download).
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else echo "The browser tests need Chromium at $(CHROMIUM): sudo apt-get install chromium"; exit 1; fi

# The Optuna storage test starts a real server from Debian's PostgreSQL packages
# (initdb, pg_ctl in /usr/lib/postgresql/<version>/bin).
postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	else echo "The PostgreSQL test needs Debian's postgresql package (initdb, pg_ctl): sudo apt-get install postgresql"; exit 1; fi


# Grading runs every submission in a bubblewrap sandbox (Debian's package).
$(BWRAP):
	@if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap; \
	else echo "Grading needs bubblewrap at $(BWRAP): sudo apt-get install bubblewrap"; exit 1; fi

durations:  ## after a whole `make test`: its seconds per test file become the schedule (tests/durations.json, heaviest first)
	@test -f build/test-durations.json || { echo "run make test first: it measures build/test-durations.json"; exit 1; }
	cp build/test-durations.json tests/durations.json

test-unit: $(STAMP)  ## only the tests of helpers/ and the tooling (no notebooks, no browser)
	$(PYTEST) -n 2 -m "not slow" tests

test-notebooks: $(STAMP)  ## only nbval on the committed notebooks
	$(PYTEST) -n 2 --dist loadfile $(NBVAL) notebooks

execute: $(STAMP)  ## rebuild notebooks/*.ipynb from their py:percent twins and run them (NB=notebooks/py/01_metrics.py for one)
	$(BIN)/python tools/execute.py $(NB)

student: $(STAMP)  ## teachers: student versions to hand out (solutions and hidden tests stripped), side by side in build/release/
	$(BIN)/python tools/grading.py release

grade: $(STAMP) $(BWRAP)  ## teachers: grade build/course/submitted/<student>/$(ASSIGNMENT)/ (or SUBMISSIONS=dir), each in a sandbox; table in build/grades.csv, summary page in build/grades-NAME.html (ROSTER=csv: Canvas/Moodle files; STUDENT=name: re-grade one; DEADLINE=, LATE_PENALTY=)
	$(BIN)/python tools/grading.py grade --assignment $(ASSIGNMENT) $(if $(SUBMISSIONS),--submissions $(SUBMISSIONS),) \
		$(if $(ROSTER),--roster $(ROSTER),) $(if $(STUDENT),--student $(STUDENT),) \
		$(if $(DEADLINE),--deadline $(DEADLINE),) $(if $(LATE_PENALTY),--late-penalty $(LATE_PENALTY),)

# Mutation testing (setup.cfg [mutmut]): slow, so not part of `make test`. Results are kept in
# mutants/; a second run only re-tests what changed. JOBS=1 leaves a core free.
JOBS ?= 2
mutation: $(STAMP)  ## mutation testing of the helpers modules listed in setup.cfg with mutmut (slow: 1-3 hours on 2 cores)
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PATH="$(abspath $(BIN)):$$PATH" $(BIN)/mutmut run --max-children $(JOBS)
	$(BIN)/mutmut export-cicd-stats
	@cat mutants/mutmut-cicd-stats.json
	@echo "Survivors: $(BIN)/mutmut results; one diff: $(BIN)/mutmut show <name>"

bench: $(STAMP)  ## timings: seconds per notebook and the helpers' speed ratios
	$(BIN)/python bench/run.py

lecture: $(STAMP)  ## lecture versions (no solutions, no hidden tests, outputs kept, slides fitted) and their speaker notes in build/lecture/
	$(BIN)/python tools/lecture.py

present: lecture  ## lecturers: the lecture JupyterLab on build/lecture/ (slideshow styled for 1280 x 720, nbgrader hidden); see README "Presenting live"
	$(BIN)/python tools/lecture.py present

slides: $(STAMP) $(SLIDES_JS)  ## offline reveal.js decks of the lecture versions in build/slides/ (1280 x 720), sliders pre-rendered (no kernel), S for speaker notes
	$(BIN)/python tools/slides.py

# What the decks load (reveal.js, require.js, jQuery, MathJax, the widget renderer) comes from the npm
# registry at build time, pinned by tools/slides/package-lock.json, into build/slides/vendor/.
$(SLIDES_JS): tools/slides/package.json tools/slides/package-lock.json
	@command -v npm >/dev/null || { if [ "$$(id -u)" = 0 ]; then apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; \
		else echo "make slides needs npm (Node.js): sudo apt-get install nodejs npm"; exit 1; fi; }
	rm -rf $(SLIDES_VENDOR) && mkdir -p $(SLIDES_VENDOR)
	cp tools/slides/package.json tools/slides/package-lock.json $(SLIDES_VENDOR)/
	cd $(SLIDES_VENDOR) && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $@

# The class's JupyterHub (README "Running the course for a class"): its proxy, configurable-http-proxy,
# comes from the npm registry pinned by hub/package-lock.json, into build/hub/.
hub-proxy: $(HUB_PROXY)  ## JupyterHub's proxy (configurable-http-proxy, pinned by hub/package-lock.json) in build/hub/

$(HUB_PROXY): hub/package.json hub/package-lock.json
	@command -v npm >/dev/null || { if [ "$$(id -u)" = 0 ]; then apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; \
		else echo "the hub's proxy needs npm (Node.js): sudo apt-get install nodejs npm"; exit 1; fi; }
	rm -rf build/hub/node_modules && mkdir -p build/hub
	cp hub/package.json hub/package-lock.json build/hub/
	cd build/hub && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $@

# Every person's server runs as their own Unix user, so the interpreter of the environment must be one
# every user can run. .venv's may not be (a Python under /root, as pyenv's): build/hub/venv is then
# the same installed packages (.venv's site-packages, share/ and etc/, its scripts) on HUB_PYTHON, a Python 3.11 all
# users can run. COURSE_VENV=build/hub/venv makes the hub use it (tests/test_hub.py does).
hub-env: $(HUB_ENV)  ## .venv's packages on a Python 3.11 every Unix user can run (build/hub/venv), for the hub

$(HUB_ENV): $(STAMP)
	@test -x $(HUB_PYTHON) || [ "$(HUB_PYTHON)" != /usr/bin/python3.11 ] || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3.11 python3.11-venv; }
	@$(HUB_PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || { echo "HUB_PYTHON=$(HUB_PYTHON) must be a Python 3.11 every user can run"; exit 1; }
	rm -rf build/hub/venv
	$(HUB_PYTHON) -m venv --without-pip build/hub/venv
	echo "import site; site.addsitedir('$(abspath $(VENV))/lib/python3.11/site-packages')" > build/hub/venv/lib/python3.11/site-packages/course-venv.pth
	ln -s $(abspath $(VENV))/share build/hub/venv/share
	ln -s $(abspath $(VENV))/etc build/hub/venv/etc
	for script in $(VENV)/bin/*; do case "$$(head -c 200 $$script | head -n 1)" in \
		"#!$(abspath $(VENV))/bin/python"*) sed '1s|.*|#!$(abspath build/hub/venv)/bin/python|' $$script \
			> build/hub/venv/bin/$$(basename $$script) && chmod 755 build/hub/venv/bin/$$(basename $$script);; esac; done
	build/hub/venv/bin/python -c 'import helpers, jupyterhub.singleuser, nbgrader, jupyterlab'
	build/hub/venv/bin/jupyterhub-singleuser --version >/dev/null
	touch $@

hub: $(STAMP) $(HUB_PROXY)  ## teachers: the class's JupyterHub (as root; hub/jupyterhub_config.py: PAM logins, one Unix user each)
	@test "$$(id -u)" = 0 || { echo "the hub starts each person's server as their Unix user: run it as root"; exit 1; }
	$(BIN)/jupyterhub -f hub/jupyterhub_config.py

lock:  ## re-resolve requirements.in into requirements.lock (with .venv's uv, or uv on PATH)
	$(if $(wildcard $(BIN)/uv),$(BIN)/uv,uv) pip compile requirements.in -p 3.11 --no-emit-package rfc3987-syntax --no-emit-package lark -o requirements.lock

clean:  ## remove the environment and build outputs (never study/, which holds a student's work)
	rm -rf $(VENV) build
