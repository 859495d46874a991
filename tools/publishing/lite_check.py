"""Run the JupyterLite site's notebooks in Chromium: each one up to its first exercise, failing on an error.

    make lite PYODIDE=/path/to/pyodide-314.0.6          # or plain `make lite`: Pyodide's packages from its CDN
    .venv/bin/python tools/publishing/lite_check.py     # every notebook of build/site/lite/
    .venv/bin/python tools/publishing/lite_check.py 03_cross_validation --offline

What a maintainer runs where Pyodide's release (or its CDN) is reachable: the course's machines reach neither,
so the numpy stack in the browser is checked here, not in `make test` (docs/lite.md). It serves build/site/ on
127.0.0.1, opens each notebook as the site links it (:func:`lite.notebook_url`), waits for the Pyodide kernel,
selects the first exercise cell and runs every cell above it (Run > Run All Above Selected Cell), then reads
each output: a traceback fails the check. ``--offline`` aborts every request that does not go to the local server
(a site built with PYODIDE=, which carries Pyodide) and fails if one was made. tests/test_lite.py drives the
same server, routes and kernel wait on a probe notebook.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import lite  # noqa: E402  (tools/publishing/lite.py)

SITE = lite.OUT.parent  # build/site/: the course website's root, which holds lite/
CHROMIUM = "/usr/bin/chromium"  # Debian's (as tests/browser_support.py): never a downloaded browser
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
IDLE = "Python (Pyodide) | Idle"


class Files(http.server.SimpleHTTPRequestHandler):
    """A static server with the types a module worker and WebAssembly need, and no log lines."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json"}

    def log_message(self, *args):
        pass

    def copyfile(self, source, outputfile):
        """Send a file and count its bytes (what a browser loads from the site: :func:`served_bytes`)."""
        data = source.read()
        outputfile.write(data)
        self.server.bytes_served += len(data)


@contextlib.contextmanager
def serve(root: Path):
    """Serve ``root`` (the folder holding lite/) on 127.0.0.1; yield its address, ending in ``/``
    (:func:`served_bytes` of it: the bytes sent so far)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Files, directory=str(root)))
    server.bytes_served = 0
    SERVERS[f"http://127.0.0.1:{server.server_address[1]}/"] = server
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        SERVERS.pop(f"http://127.0.0.1:{server.server_address[1]}/")
        server.shutdown()
        server.server_close()


SERVERS: dict[str, http.server.ThreadingHTTPServer] = {}


def served_bytes(base: str) -> int:
    """How many bytes the server at ``base`` (:func:`serve`) has sent."""
    return SERVERS[base].bytes_served


def watch(context, base: str, offline: bool) -> tuple[list[str], list[str]]:
    """Record every request of ``context`` (pages, workers, service workers); with ``offline``, abort those that
    do not go to ``base``. Return (every address asked for, those that went elsewhere)."""
    asked, left = [], []

    def route(request_route):
        url = request_route.request.url
        asked.append(url)
        if url.startswith(base) or not offline:
            request_route.continue_()
        else:
            left.append(url)
            request_route.abort()

    context.route("**/*", route)
    return asked, left


def open_notebook(context, base: str, name: str, timeout_ms: int, kernel: bool = True):
    """Open notebook ``name`` as the site links it; return the page once the Pyodide kernel is idle (``kernel``)
    or, to read what was saved, once its cells are shown."""
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(base + lite.notebook_url(name))
    if kernel:
        expect(page.get_by_text(IDLE)).to_be_visible(timeout=timeout_ms)
    else:
        expect(page.locator(".jp-Notebook .jp-Cell").first).to_be_visible(timeout=timeout_ms)
    return page


def first_exercise(notebook) -> int:
    """The index of the notebook's first exercise cell (nbgrader's solution cell), or its length."""
    return next((i for i, cell in enumerate(notebook.cells) if cell.metadata.get("nbgrader", {}).get("solution")),
                len(notebook.cells))


def run_until_exercise(page, notebook, timeout_ms: int) -> list[str]:
    """Run every cell above the first exercise (Run > Run All Above Selected Cell); return the error outputs."""
    from playwright.sync_api import expect

    stop = first_exercise(notebook)
    cells = page.locator(".jp-Notebook .jp-Cell")
    expect(cells).to_have_count(len(notebook.cells))
    cells.nth(stop).click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_text("Run All Above Selected Cell").click()
    page.wait_for_function(  # some cell waits or runs ...
        "() => [...document.querySelectorAll('.jp-InputPrompt')].some(e => e.textContent.includes('*'))",
        timeout=60_000)
    page.wait_for_function(  # ... until none does
        "() => [...document.querySelectorAll('.jp-InputPrompt')].every(e => !e.textContent.includes('*'))",
        timeout=timeout_ms, polling=500)
    expect(page.get_by_text(IDLE)).to_be_visible()
    stderr = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    return [text for text in stderr.all_text_contents() if "Traceback" in text or "Error" in text]


def check(names: list[str], site: Path = SITE, offline: bool = False, minutes: float = 15) -> int:
    """Run each notebook up to its first exercise in Chromium; print a line each; return how many failed."""
    import nbformat
    from playwright.sync_api import sync_playwright

    failed = 0
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in names:
            notebook = nbformat.read(site / "lite" / "files" / f"{name}.ipynb", as_version=4)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            asked, left = watch(context, base, offline)
            opened = 0
            start, before = time.perf_counter(), served_bytes(base)
            try:
                page = open_notebook(context, base, name, int(minutes * 60_000))
                opened = served_bytes(base) - before
                errors = run_until_exercise(page, notebook, int(minutes * 60_000))
            except Exception as error:  # a time-out or a missing element: this notebook fails, the others run
                errors = [f"{type(error).__name__}: {error}"]
            finally:
                context.close()
            if left:
                errors.append(f"{len(left)} request(s) left the machine: {left[:3]}")
            failed += bool(errors)
            print(f"{name}: {'FAILED' if errors else 'ok'} in {time.perf_counter() - start:.0f} s, "
                  f"{len(asked)} requests, cells 1-{first_exercise(notebook)} run; from the site: "
                  f"{opened / 1e6:.1f} MB to open it, {(served_bytes(base) - before) / 1e6:.1f} MB in all", flush=True)
            for error in errors:
                print("    " + error.strip()[-2000:].replace("\n", "\n    "), flush=True)
        browser.close()
    return failed


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="notebooks to run (default: every one of the site)")
    parser.add_argument("--site", type=Path, default=SITE, help="the folder holding lite/ (default build/site)")
    parser.add_argument("--offline", action="store_true", help="abort and count every request off 127.0.0.1")
    parser.add_argument("--minutes", type=float, default=15, help="the longest a notebook may take (default 15)")
    args = parser.parse_args(argv)
    names = args.names or sorted(p.stem for p in (args.site / "lite" / "files").glob("[0-9][0-9]_*.ipynb"))
    if not names:
        raise SystemExit(f"no notebooks in {args.site / 'lite' / 'files'}: run `make lite` first")
    sys.exit(1 if check(names, args.site, args.offline, args.minutes) else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
