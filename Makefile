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
# JupyterLite (docs/lite.md): the student notebooks in the browser on Pyodide. Its venv (jupyterlite-core and the
# Pyodide kernel, tools/publishing/lite/requirements.lock), Pyodide's core (npm, tools/publishing/lite/package-lock.json)
# and the pure-Python wheels the site carries (site-wheels.txt) and the kernel's own (pyodide-wheels.txt), pinned with
# hashes, come from the registries once into build/lite/; the build itself is offline.
LITE := build/lite
LITE_PINS := tools/publishing/lite/requirements.lock tools/publishing/lite/package-lock.json tools/publishing/lite/site-wheels.txt tools/publishing/lite/pyodide-wheels.txt
LITE_STAMP := $(LITE)/.installed-$(shell cat $(LITE_PINS) 2>/dev/null | cksum | cut -d' ' -f1)
# the course on Pyodide's package versions (JupyterLite): CPython 3.13 or 3.14 (tools/python3.13.sh)
PYODIDE_ENV := build/pyodide-env
PYODIDE_STAMP := $(PYODIDE_ENV)/.installed-$(shell cat requirements-pyodide.lock pyproject.toml | cksum | cut -d' ' -f1)
SLIDES_JS := $(SLIDES_VENDOR)/.installed
# The lecture JupyterLab's own extension (speaker view, slider keys): tools/publishing/present/speaker, built into
# build/present-speaker/labextensions/ (tools/publishing/lecture.py present_options loads it from there)
SPEAKER := build/present-speaker
SPEAKER_SOURCES := $(addprefix tools/publishing/present/speaker/,package.json package-lock.json index.js)
SPEAKER_EXT := $(SPEAKER)/.installed
# npm (Node.js) from Debian, for what the decks, the lite site, the hub's proxy and the lecture JupyterLab's
# extension fetch from the npm registry at build time: installed as root, or the command to run named.
need_npm = command -v npm >/dev/null || { if [ "$$(id -u)" = 0 ]; then tools/apt_install.sh nodejs npm; \
	else echo "$(1) needs npm (Node.js): sudo apt-get install nodejs npm"; exit 1; fi; }
HUB_PROXY := build/hub/.installed
HUB_PYTHON ?= /usr/bin/python3.11
# What students' servers run: outside the (private) instructor clone, root-owned, world-readable
HUB_STUDENT_ENV ?= /opt/model-evaluation
HUB_STATE ?= /srv/jupyterhub
HUB_EXCHANGE ?= /srv/nbgrader/exchange
HUB_STUDENTS ?= course-students
HUB_TEACHERS ?= course-teachers
# where the hub listens, its proxy's API, its own port: a second hub on the machine takes three others
HUB_URL ?= http://127.0.0.1:8000
HUB_API_URL ?= http://127.0.0.1:8001
HUB_PORT ?= 8081
# the service's root-owned copy of the hub's configuration and proxy (never the teacher's clone) and its unit
HUB_CODE ?= /opt/model-evaluation-hub
HUB_UNIT ?= /etc/systemd/system/jupyterhub.service
NGINX := /usr/sbin/nginx
SYSTEMD_ANALYZE := /usr/bin/systemd-analyze
BACKUP ?= /var/backups/model-evaluation
COURSE_BUILD ?= build
HUB_ENV_ID ?= $(shell cat requirements.lock pyproject.toml helpers/*.py data/* hub/jupyter/nbgrader_config.py tools/lab/overrides.json | cksum | cut -d' ' -f1)
STUDENT_STAMP := $(HUB_STUDENT_ENV)/.installed-$(HUB_ENV_ID)
# each build of the students' environment in a folder of its own; HUB_STUDENT_ENV is a symlink to the live one
HUB_ENV_BUILD := $(HUB_STUDENT_ENV).d/$(HUB_ENV_ID)-$(shell date +%Y%m%d-%H%M%S)

.PHONY: test-setup pyodide-env durations sync check-notebook quick screenshots hub hub-proxy hub-student-env hub-service hub-code hub-unit hub-nginx hub-accounts hub-accounts-remove hub-backup help install lab study study-files check test test-unit test-notebooks execute student grade bench lecture present slides site lite lite-deps lock clean postgresql mutation speaker-view

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

# Two workers, one per core (a third gave nothing on a quiet machine, 897 s of tests against 908 s: the kernels,
# sandboxes and Chromium keep both cores 96 % busy); each takes one test file at a time, the heaviest files first (tests/conftest.py).
TEST_SETUP := $(STAMP) $(CHROMIUM) $(BWRAP) postgresql $(SLIDES_JS) $(SPEAKER_EXT) $(HUB_PROXY) $(STUDENT_STAMP) $(NGINX) $(SYSTEMD_ANALYZE) $(PYODIDE_STAMP) $(LITE_STAMP)
test: test-setup  ## every test: helpers, environment, twins, notebooks (nbval, and on Pyodide's versions), grading, browser, slides, site, PostgreSQL, JupyterHub
	$(PYTEST) -n 2 --dist loadfile --no-loadscope-reorder --durations=15 $(NBVAL) tests notebooks

# What the tests need, built two steps at a time (a fresh clone: 84 s one after the other, mostly downloads
# and installs): npm's and uv's caches and tools/apt_install.sh's waiting for apt's locks make parallel steps safe,
# and each step names what it uses (the .venv first where it runs the course's tools).
test-setup:
	@$(MAKE) --no-print-directory -j2 $(TEST_SETUP)

# The course on the package versions JupyterLite's Pyodide runs (requirements-pyodide.in: scikit-learn 1.8,
# scipy 1.18, pandas 3.0, matplotlib 3.10) in CPython 3.13 or 3.14, helpers editable:
# tests/test_pyodide_versions.py runs all six notebooks there.
pyodide-env: $(PYODIDE_STAMP)  ## contributors: build/pyodide-env, the course on Pyodide's package versions (CPython 3.13 or 3.14; tools/python3.13.sh builds one from Debian's source if none is found)

$(PYODIDE_STAMP): requirements-pyodide.lock pyproject.toml | $(STAMP)
	rm -rf $(PYODIDE_ENV)
	$(BIN)/uv venv --quiet --python "$$(tools/python3.13.sh)" $(PYODIDE_ENV)
	$(BIN)/uv pip install --quiet --python $(PYODIDE_ENV)/bin/python --no-deps -r requirements-pyodide.lock
	$(BIN)/uv pip install --quiet --python $(PYODIDE_ENV)/bin/python --no-deps -e .
	$(BIN)/uv pip check --python $(PYODIDE_ENV)/bin/python
	touch $@

# The browser tests drive JupyterLab in Debian's Chromium (no browser download).
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then tools/apt_install.sh chromium; \
	else echo "The browser tests need Chromium at $(CHROMIUM): sudo apt-get install chromium"; exit 1; fi

# The Optuna storage test starts a real server from Debian's PostgreSQL packages
# (initdb, pg_ctl in /usr/lib/postgresql/<version>/bin).
postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then tools/apt_install.sh postgresql; \
	else echo "The PostgreSQL test needs Debian's postgresql package (initdb, pg_ctl): sudo apt-get install postgresql"; exit 1; fi


# Grading runs every submission in a bubblewrap sandbox (Debian's package).
$(BWRAP):
	@if [ "$$(id -u)" = 0 ]; then tools/apt_install.sh bubblewrap; \
	else echo "Grading needs bubblewrap at $(BWRAP): sudo apt-get install bubblewrap"; exit 1; fi

durations:  ## after a whole `make test`: its seconds per test file become the schedule (tests/durations.json, heaviest first)
	@test -f build/test-durations.json || { echo "run make test first: it measures build/test-durations.json"; exit 1; }
	cp build/test-durations.json tests/durations.json

test-unit: $(STAMP) $(SPEAKER_EXT)  ## only the tests of helpers/ and the tooling (no notebooks, no browser)
	$(PYTEST) -n 2 -m "not slow" tests

test-notebooks: $(STAMP)  ## only nbval on the committed notebooks
	$(PYTEST) -n 2 --dist loadfile $(NBVAL) notebooks

# The helpers' own tests: tests/test_<module>.py for each helpers/<module>.py, and the two that test several.
HELPER_TESTS := $(sort $(wildcard $(patsubst helpers/%.py,tests/test_%.py,$(wildcard helpers/*.py))) \
	tests/test_uncertainty.py tests/test_threshold_widget.py)

quick: $(STAMP)  ## contributors: the quick loop, about a minute: the helpers' tests, then check-notebook NB=03
	@test -n "$(NB)" || { echo "which notebook? make quick NB=03 (or NB=03_cross_validation)"; exit 1; }
	$(PYTEST) -q -p no:randomly -n 2 -m "not slow" $(HELPER_TESTS)
	$(MAKE) --no-print-directory check-notebook NB=$(NB)

# NB for one notebook, as a path or a name: NB=notebooks/py/03_cross_validation.py, NB=03_cross_validation, NB=03.
TWINS = $(if $(filter file,$(origin NB)),,$(foreach n,$(NB),$(or $(wildcard $(n)),$(firstword $(wildcard notebooks/py/$(basename $(notdir $(n)))*.py)),$(n))))

execute: $(STAMP)  ## rebuild notebooks/*.ipynb from their py:percent twins and run them (NB=03 for one); refuses to overwrite a notebook edited since (make sync first)
	$(BIN)/python tools/execute.py $(TWINS)

sync: $(STAMP)  ## copy edits made in notebooks/*.ipynb (JupyterLab) into their twins notebooks/py/*.py (NB=03 for one; TAKE=notebook or TAKE=twin when both were edited)
	$(BIN)/python tools/execute.py --sync $(if $(TAKE),--take $(TAKE),) $(TWINS)

# One notebook, in about a minute: its twin check, nbval on it, the twin, structure and time tests of
# tests/test_notebooks.py and its exercises' tests (tests/test_wrong_answers.py: the solutions and every
# wrong answer against the visible tests).
check-notebook: $(STAMP)  ## contributors: the quick check of one notebook: make check-notebook NB=03 (twin, nbval, its tests)
	@test -n "$(TWINS)" || { echo "which notebook? make check-notebook NB=03 (or NB=03_cross_validation)"; exit 1; }
	@test -f "$(TWINS)" || { echo "no notebook $(NB): notebooks/py/ has $$(cd notebooks/py && ls *.py | sed 's/\.py//' | tr '\n' ' ')"; exit 1; }
	$(BIN)/python tools/execute.py --check $(TWINS)
	$(PYTEST) -q -p no:randomly -n 2 --dist loadfile $(NBVAL) notebooks/$(basename $(notdir $(TWINS))).ipynb \
		tests/test_notebooks.py tests/test_wrong_answers.py tests/test_execute.py -k "$(basename $(notdir $(TWINS)))"

student: $(STAMP)  ## teachers: the hand-out in build/release/: student versions (no solutions, no hidden tests), helpers/, data/, requirements.txt, a student README; runs on its own (GRADED=1: for graded homework, helpers/ without the source of the functions the exercises ask for)
	$(BIN)/python tools/grading release $(if $(filter-out 0 no,$(GRADED)),--graded,--no-graded)

# LMS_COLUMN may hold spaces, quotes or $: the recipe reads it from its environment, never re-parsed by the shell
export LMS_COLUMN
grade: $(STAMP) $(BWRAP)  ## teachers: grade build/course/submitted/<student>/$(ASSIGNMENT)/ (or SUBMISSIONS=dir), each in a sandbox; table in build/grades.csv, summary page in build/grades-NAME.html, similar hand-ins in build/similarity-NAME.html/.csv (ROSTER=csv: Canvas/Moodle files, LMS_COLUMN="HW1: Metrics (4242)" names the gradebook column, LMS_POINTS=100 scales to the LMS maximum, LMS_EXPORT_ALL=1 exports rows held for review; STUDENT=name: re-grade one; DEADLINE=, LATE_PENALTY=)
	$(BIN)/python tools/grading grade --assignment $(ASSIGNMENT) $(if $(SUBMISSIONS),--submissions $(SUBMISSIONS),) \
		$(if $(ROSTER),--roster $(ROSTER),) $(if $(STUDENT),--student $(STUDENT),) \
		$(if $(DEADLINE),--deadline $(DEADLINE),) $(if $(LATE_PENALTY),--late-penalty $(LATE_PENALTY),) \
		$(if $(LMS_COLUMN),--lms-column "$$LMS_COLUMN",) $(if $(LMS_POINTS),--lms-points $(LMS_POINTS),) \
		$(if $(filter-out 0 no,$(LMS_EXPORT_ALL)),--lms-export-all,)

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

lecture: $(STAMP)  ## lecturers: lecture versions (no solutions, no hidden tests, outputs kept, slides fitted) and their speaker notes in build/lecture/
	$(BIN)/python tools/publishing/lecture.py

present: lecture $(SPEAKER_EXT)  ## lecturers: the lecture JupyterLab on build/lecture/ (slideshow styled for 1280 x 720, nbgrader hidden, S for the speaker view); see docs/slides.md "Presenting live"
	$(BIN)/python tools/publishing/lecture.py present

speaker-view: $(SPEAKER_EXT)  ## lecturers: the lecture JupyterLab's extension (speaker view, slider keys) in build/present-speaker/ (make present builds it)

# From the npm registry pinned by its package-lock.json (JupyterLab's extension builder), built against the installed
# JupyterLab's own core package (no download at build time); loaded only by the lecture JupyterLab.
$(SPEAKER_EXT): $(SPEAKER_SOURCES) | $(STAMP)
	@$(call need_npm,make present)
	rm -rf $(SPEAKER) && mkdir -p $(SPEAKER)
	cp $(SPEAKER_SOURCES) $(SPEAKER)/
	cd $(SPEAKER) && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	$(BIN)/jupyter-builder build $(SPEAKER) --core-package-file=$$($(BIN)/python -c \
		"import jupyterlab, pathlib; print(pathlib.Path(jupyterlab.__file__).parent / 'staging' / 'package.json')") >/dev/null
	touch $@

slides: $(STAMP) $(SLIDES_JS)  ## lecturers: offline reveal.js decks of the lecture versions in build/slides/ (1280 x 720), sliders pre-rendered (no kernel), S for speaker notes
	$(BIN)/python tools/publishing/decks.py

site: $(STAMP) $(SLIDES_JS) $(LITE_STAMP)  ## students and everyone: the course website in build/site/ (open build/site/index.html from the file system or any static host): every notebook, its sliders pre-rendered (no kernel, no network), downloads
	$(BIN)/python tools/publishing/website.py

# JupyterLite: make lite and make site's lite/ (below)
LITE_DOWNLOAD := $(BIN)/python -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
	--only-binary=:all: --python-version 3.14 --implementation py --abi none --platform any

lite: $(STAMP) $(LITE_STAMP)  ## students: the notebooks in the browser, nothing installed: a JupyterLite site in build/site/lite/ (Pyodide's packages from its CDN; PYODIDE=path/to/pyodide-314.0.6 carries a local release: fully offline)
	$(BIN)/python tools/publishing/lite.py build $(if $(PYODIDE),--pyodide $(PYODIDE),) $(if $(LITE_OUT),--out $(LITE_OUT),) $(if $(LITE_CONTENTS),--contents $(LITE_CONTENTS),)

lite-deps: $(LITE_STAMP)  # what make lite takes from the registries, alone (tests/test_lite.py)

$(LITE_STAMP): $(STAMP) $(LITE_PINS) tools/publishing/lite/package.json
	@$(call need_npm,make lite)
	rm -rf $(LITE) && mkdir -p $(LITE)/npm
	$(PYTHON) -m venv --without-pip $(LITE)/venv
	$(BIN)/uv pip install --quiet --python $(LITE)/venv/bin/python --no-deps --require-hashes -r tools/publishing/lite/requirements.lock
	cp tools/publishing/lite/package.json tools/publishing/lite/package-lock.json $(LITE)/npm/
	cd $(LITE)/npm && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	$(LITE_DOWNLOAD) -d $(LITE)/wheels -r tools/publishing/lite/site-wheels.txt
	$(LITE_DOWNLOAD) -d $(LITE)/pyodide-wheels -r tools/publishing/lite/pyodide-wheels.txt
	touch $@

screenshots: $(STAMP) $(CHROMIUM) $(SLIDES_JS) $(LITE_STAMP)  ## contributors: the README's pictures in docs/img/ (a slider in JupyterLab, a deck slide, the website), taken in Chromium
	$(BIN)/python tools/publishing/screenshots.py

# What the decks load (reveal.js, require.js, jQuery, MathJax, the widget renderer) comes from the npm
# registry at build time, pinned by tools/publishing/vendor/package-lock.json, into build/slides/vendor/.
$(SLIDES_JS): tools/publishing/vendor/package.json tools/publishing/vendor/package-lock.json
	@$(call need_npm,make slides)
	rm -rf $(SLIDES_VENDOR) && mkdir -p $(SLIDES_VENDOR)
	cp tools/publishing/vendor/package.json tools/publishing/vendor/package-lock.json $(SLIDES_VENDOR)/
	cd $(SLIDES_VENDOR) && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $@

# The class's JupyterHub (README "Running the course for a class"): its proxy, configurable-http-proxy,
# comes from the npm registry pinned by hub/package-lock.json, into build/hub/.
hub-proxy: $(HUB_PROXY)  ## JupyterHub's proxy (configurable-http-proxy, pinned by hub/package-lock.json) in build/hub/

$(HUB_PROXY): hub/package.json hub/package-lock.json
	@$(call need_npm,the hub's proxy)
	rm -rf build/hub/node_modules && mkdir -p build/hub
	cp hub/package.json hub/package-lock.json build/hub/
	cd build/hub && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $@

# The students' environment (README "Running the course for a class"): a venv of the locked packages on
# HUB_PYTHON, a copy of helpers/ and data/ on its path (helpers/datasets.py finds data/ next to helpers/),
# nbgrader's exchange settings and JupyterLab's overrides; never a notebook, a solution or a hidden test.
# Built in a new folder (HUB_STUDENT_ENV.d/ID-TIME: the venv's scripts and course-helpers.pth hold its absolute
# path), checked, then swapped in by renaming a symlink over HUB_STUDENT_ENV (atomic): running servers keep the
# previous build, which stays until the next swap; a failed build changes nothing.
hub-student-env: $(STUDENT_STAMP)  ## the environment students' hub servers run (HUB_STUDENT_ENV=/opt/model-evaluation): packages, helpers, data only

$(STUDENT_STAMP): $(STAMP)
	@test -x $(HUB_PYTHON) || [ "$(HUB_PYTHON)" != /usr/bin/python3.11 ] || [ "$$(id -u)" != 0 ] || \
		tools/apt_install.sh python3.11 python3.11-venv
	@$(HUB_PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || { echo "HUB_PYTHON=$(HUB_PYTHON) must be a Python 3.11 every user can run"; exit 1; }
	install -d -m 755 $(HUB_STUDENT_ENV).d
	[ "$$(readlink -f $(HUB_STUDENT_ENV))" = $(HUB_ENV_BUILD) ] || rm -rf $(HUB_ENV_BUILD)
	mkdir -p $(HUB_ENV_BUILD)/venv/course $(HUB_ENV_BUILD)/jupyter
	$(HUB_PYTHON) -m venv --without-pip $(HUB_ENV_BUILD)/venv
	$(BIN)/uv pip install --quiet --python $(HUB_ENV_BUILD)/venv/bin/python --no-deps --compile-bytecode --link-mode=copy -r requirements.lock
	cp -r helpers data $(HUB_ENV_BUILD)/venv/course/
	rm -rf $(HUB_ENV_BUILD)/venv/course/helpers/__pycache__
	echo "$(HUB_ENV_BUILD)/venv/course" > $(HUB_ENV_BUILD)/venv/lib/python3.11/site-packages/course-helpers.pth
	install -D -m 644 tools/lab/overrides.json $(HUB_ENV_BUILD)/venv/share/jupyter/lab/settings/overrides.json
	install -m 644 hub/jupyter/nbgrader_config.py $(HUB_ENV_BUILD)/jupyter/nbgrader_config.py
	$(HUB_ENV_BUILD)/venv/bin/python -c 'import helpers.datasets as d, jupyterhub.singleuser, nbgrader, jupyterlab; d.load_bank_marketing()'
	! grep -rlsE 'BEGIN (SOLUTION|HIDDEN TESTS)' $(HUB_ENV_BUILD)/venv/course $(HUB_ENV_BUILD)/jupyter
	chmod -R a+rX,go-w $(HUB_ENV_BUILD)
	touch $(HUB_ENV_BUILD)/.installed-$(HUB_ENV_ID)
	@# the swap: a symlink renamed over the live one (a folder of the old layout is moved aside first, once)
	old=$$(readlink -f $(HUB_STUDENT_ENV) || true); \
	if [ -d $(HUB_STUDENT_ENV) ] && [ ! -L $(HUB_STUDENT_ENV) ]; then old=$(HUB_STUDENT_ENV).d/previous-$$(date +%s); \
		mv -T $(HUB_STUDENT_ENV) $$old; fi; \
	ln -sfn $(HUB_ENV_BUILD) $(HUB_STUDENT_ENV).d/.swap && mv -T $(HUB_STUDENT_ENV).d/.swap $(HUB_STUDENT_ENV) && \
	for build in $(HUB_STUDENT_ENV).d/*; do [ "$$build" = $(HUB_ENV_BUILD) ] || [ "$$build" = "$$old" ] || rm -rf "$$build"; done

# what make hub passes to hub/jupyterhub_config.py (the unit passes the same, from the same variables)
HUB_SETTINGS = COURSE_STUDENT_ENV=$(HUB_STUDENT_ENV) COURSE_HUB_STATE=$(HUB_STATE) COURSE_EXCHANGE=$(HUB_EXCHANGE) \
	COURSE_HUB_STUDENTS=$(HUB_STUDENTS) COURSE_HUB_TEACHERS=$(HUB_TEACHERS) COURSE_HUB_URL=$(HUB_URL) \
	COURSE_HUB_API_URL=$(HUB_API_URL) COURSE_HUB_PORT=$(HUB_PORT)

hub: $(STAMP) $(HUB_PROXY) $(STUDENT_STAMP)  ## teachers: the class's JupyterHub in the foreground (as root; hub/jupyterhub_config.py: PAM logins, one Unix user each); for a term: make hub-service
	@test "$$(id -u)" = 0 || { echo "the hub starts each person's server as their Unix user: run it as root"; exit 1; }
	$(HUB_SETTINGS) $(BIN)/jupyterhub -f hub/jupyterhub_config.py

# TLS (nginx) and the service (systemd) for a term on one machine; tests/test_hub.py runs the nginx
# configuration in front of the tested hub and checks the unit with systemd-analyze.
$(NGINX):
	@if [ "$$(id -u)" = 0 ]; then tools/apt_install.sh nginx; \
	else echo "TLS for the hub needs nginx: sudo apt-get install nginx"; exit 1; fi

$(SYSTEMD_ANALYZE):
	@if [ "$$(id -u)" = 0 ]; then tools/apt_install.sh systemd; \
	else echo "the hub's unit is checked with systemd-analyze: sudo apt-get install systemd"; exit 1; fi

hub-service: $(STAMP) $(HUB_PROXY) $(STUDENT_STAMP) $(SYSTEMD_ANALYZE)  ## teachers: install and start the hub as a systemd service (jupyterhub.service) from a root-owned copy in HUB_CODE=/opt/model-evaluation-hub, state in HUB_STATE=/srv/jupyterhub (HUB_STUDENTS, HUB_TEACHERS, HUB_URL, HUB_API_URL, HUB_PORT)
	@test "$$(id -u)" = 0 || { echo "installing a service needs root: sudo make hub-service"; exit 1; }
	install -d -m 700 $(HUB_STATE)
	install -d -m 1777 $(HUB_EXCHANGE)
	$(MAKE) --no-print-directory hub-code hub-unit
	$(SYSTEMD_ANALYZE) verify $(HUB_UNIT)
	systemctl daemon-reload && systemctl enable --now jupyterhub

# The service's copy of the hub's configuration, proxy and docs, owned by root and not writable by anyone else
# (root never runs a file of the teacher's clone); made in a new folder and renamed into place.
hub-code: $(HUB_PROXY)
	rm -rf $(HUB_CODE).new && install -d -m 755 $(HUB_CODE).new/hub $(HUB_CODE).new/build/hub $(HUB_CODE).new/docs
	install -m 644 hub/jupyterhub_config.py $(HUB_CODE).new/hub/
	install -m 644 docs/hub.md $(HUB_CODE).new/docs/
	cp -a build/hub/node_modules $(HUB_CODE).new/build/hub/
	chown -R 0:0 $(HUB_CODE).new && chmod -R a+rX,go-w $(HUB_CODE).new
	rm -rf $(HUB_CODE).old && { [ ! -e $(HUB_CODE) ] || mv -T $(HUB_CODE) $(HUB_CODE).old; } && mv -T $(HUB_CODE).new $(HUB_CODE) && rm -rf $(HUB_CODE).old

# hub/jupyterhub.service filled in from the same variables as make hub (tests/test_hub_service.py renders it)
hub-unit:
	sed -e 's|@HUB_CODE@|$(HUB_CODE)|g' -e 's|@STATE@|$(HUB_STATE)|g' -e 's|@STUDENT_ENV@|$(HUB_STUDENT_ENV)|g' \
		-e 's|@EXCHANGE@|$(HUB_EXCHANGE)|g' -e 's|@STUDENTS@|$(HUB_STUDENTS)|g' -e 's|@TEACHERS@|$(HUB_TEACHERS)|g' \
		-e 's|@HUB_URL@|$(HUB_URL)|g' -e 's|@API_URL@|$(HUB_API_URL)|g' -e 's|@HUB_PORT@|$(HUB_PORT)|g' \
		hub/jupyterhub.service > $(HUB_UNIT)

hub-nginx: $(NGINX)  ## teachers: nginx with TLS in front of the hub: make hub-nginx SERVER_NAME=hub.example.org CERT=/etc/ssl/certs/hub.pem KEY=/etc/ssl/private/hub.key
	@test -n "$(SERVER_NAME)" -a -n "$(CERT)" -a -n "$(KEY)" || { echo "give SERVER_NAME=, CERT= and KEY= (your certificate and its key)"; exit 1; }
	sed -e 's|@SERVER_NAME@|$(SERVER_NAME)|g' -e 's|@CERT@|$(CERT)|g' -e 's|@KEY@|$(KEY)|g' -e 's|@HTTP_LISTEN@|80|g' \
		-e 's|@HTTPS_LISTEN@|443|g' -e 's|@HUB@|http://127.0.0.1:8000|g' hub/nginx-jupyterhub.conf > /etc/nginx/sites-available/jupyterhub
	ln -sf /etc/nginx/sites-available/jupyterhub /etc/nginx/sites-enabled/jupyterhub
	rm -f /etc/nginx/sites-enabled/default
	nginx -t && systemctl reload-or-restart nginx

hub-accounts: $(STAMP)  ## teachers: a Unix account per roster student (ROSTER=csv, as for make grade), passwords in build/hub/passwords.csv (mode 600)
	@test -n "$(ROSTER)" || { echo "give ROSTER=roster.csv"; exit 1; }
	$(BIN)/python tools/hub_accounts.py create --roster $(ROSTER) --group $(HUB_STUDENTS)

hub-accounts-remove: $(STAMP)  ## teachers, end of term (after make hub-backup): remove the roster students' accounts and homes
	@test -n "$(ROSTER)" || { echo "give ROSTER=roster.csv"; exit 1; }
	$(BIN)/python tools/hub_accounts.py remove --roster $(ROSTER) --group $(HUB_STUDENTS)

# What a term cannot lose: the course folder (gradebook.db, submissions, autograded and feedback copies),
# the grade tables, LMS files and feedback pages, the exchange (submissions not yet collected), the hub's
# state (never its pid files: restored, the root hub would signal whatever process has that number), and
# with HOMES=1 the students' homes. One tar file, mode 600; docs/hub.md says how to restore it.
hub-backup:  ## teachers: back up the gradebook, course folder, grades, exchange and hub state to BACKUP=/var/backups/model-evaluation (HOMES=1: students' homes too)
	install -d -m 700 $(BACKUP)
	umask 077 && tar --create --gzip --file $(BACKUP)/model-evaluation-$$(date +%Y%m%d-%H%M%S).tar.gz \
		--absolute-names --ignore-failed-read --exclude='*.pid' $(wildcard $(abspath $(COURSE_BUILD)/course) $(abspath $(COURSE_BUILD)/grades*) \
		$(abspath $(COURSE_BUILD)/lms) $(abspath $(COURSE_BUILD)/feedback)) $(wildcard $(HUB_EXCHANGE) $(HUB_STATE)) \
		$(if $(filter 1,$(HOMES)),$$(getent group $(HUB_STUDENTS) >/dev/null && getent passwd | awk -F: -v g=$$(getent group $(HUB_STUDENTS) | cut -d: -f3) '$$4 == g {print $$6}'),)
	@ls -l $(BACKUP) | tail -1

lock:  ## re-resolve requirements.in into requirements.lock, and requirements-pyodide.in (Pyodide's versions) into requirements-pyodide.lock (with .venv's uv, or uv on PATH)
	$(if $(wildcard $(BIN)/uv),$(BIN)/uv,uv) pip compile requirements.in -p 3.11 --no-emit-package rfc3987-syntax --no-emit-package lark -o requirements.lock
	$(if $(wildcard $(BIN)/uv),$(BIN)/uv,uv) pip compile requirements-pyodide.in -p 3.13 --no-header -o requirements-pyodide.lock
	$(BIN)/python tools/handout.py --binder

clean:  ## remove the environment and build outputs (never study/, which holds a student's work)
	rm -rf $(VENV) build
