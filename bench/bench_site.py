"""The course website (`make site`): build time, page weights, frames, and how fast a slider key shows its frame.

    python bench/bench_site.py           # build (cold and warm frame cache), then the browser figures
    python bench/bench_site.py --built   # only the browser figures, on the build/site/ already there

- build: `make slides` and `make site` each from a cold frame cache (tools/publishing/frames.py renders every
  slider value of every explorer once, in a kernel), then `make site` again with the cache warm (the pages,
  frames, downloads and the decks' zip only). Target: the site adds at most the time `make slides` takes.
- page weight: every file a page fetches on its first load (before a slider moves), from the file system in
  headless Chromium with the network blocked. Target: at most 3 MB.
- frames: per notebook, how many frames its explorers have and their bytes (lossless WebP).
- key to frame: for every slider, the time from a key press (measured in the page, keydown) to the animation
  frame that shows the new picture loaded, with its alt and numbers: ``cached`` for arrow moves whose frame was
  prefetched (target: median at most 16 ms, one frame at 60 Hz), ``from disk`` for the first key after the page
  opens, before any prefetch has finished (target: under 300 ms).

Figures are printed, not asserted (timings on 2 shared cores are noisy).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "publishing"))

from playwright.sync_api import sync_playwright  # noqa: E402

import browser_support as tb  # noqa: E402
import frames  # noqa: E402  (tools/publishing/frames.py)
import website  # noqa: E402  (tools/publishing/website.py)

MOVES = 20

# Armed before a key press: the time from the keydown to the first animation frame that shows the picture the
# slider now asks for (its file loaded), the alt and the numbers of that frame.
MEASURE = """root => { window.__siteMs = new Promise(resolve => {
  window.addEventListener('keydown', () => {
    const start = performance.now();
    const look = () => {
      const input = document.activeElement, image = root.querySelector('.explorer-frame img');
      const manifest = JSON.parse(root.querySelector('script.explorer-manifest').textContent);
      const values = [...root.querySelectorAll('input[type=range]')].map(i => Number(i.value));
      const sizes = manifest.sliders.map(v => v.length);
      const at = values.reduce((a, v, s) => a * sizes[s] + v, 0);
      const file = values.map(v => String(v).padStart(3, '0')).join('-') + '.webp';
      if (image.src.endsWith(file) && image.complete && image.naturalWidth > 0 && image.alt === manifest.alts[at]
          && root.querySelector('.explorer-panel').textContent === manifest.panels[at]) {
        resolve(performance.now() - start);
      } else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }, {once: true, capture: true});
}); }"""


def timed(command: list[str], env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def build_figures() -> None:
    print("build (seconds; the frame cache build/frames/ moved aside for the cold runs):", flush=True)
    saved = Path(tempfile.mkdtemp()) / "frames"
    if frames.CACHE.exists():
        shutil.move(str(frames.CACHE), saved)
    try:
        slides = timed(["make", "--no-print-directory", "slides"])
        shutil.rmtree(frames.CACHE, ignore_errors=True)
        cold = timed(["make", "--no-print-directory", "site"])
        warm = timed(["make", "--no-print-directory", "site"])
    finally:
        if saved.exists():
            shutil.rmtree(frames.CACHE, ignore_errors=True)
            shutil.move(str(saved), frames.CACHE)
    print(f"  make slides, cold cache: {slides:5.1f} s")
    print(f"  make site, cold cache:   {cold:5.1f} s (adds {cold - slides:+.1f} s to make slides' time)")
    print(f"  make site, warm cache:   {warm:5.1f} s (after make slides: what the site adds)", flush=True)


def page_figures(browser, site: Path) -> None:
    print("\npages (first load: every file fetched before a slider moves; frames on disk):", flush=True)
    print(f"  {'page':<30s} {'first load':>10s} {'files':>5s} {'frames':>6s} {'frame MB':>8s}")
    for name in website_pages(site):
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        tb.block_network(page)
        requested = []
        page.on("request", lambda request: requested.append(request.url))
        page.goto((site / name).as_uri(), wait_until="load")
        if page.evaluate("() => typeof MathJax !== 'undefined'"):
            page.evaluate("() => new Promise(done => MathJax.Hub.Queue(done))")
        files = {Path(unquote(urlsplit(url).path)) for url in requested if url.startswith("file:")}
        weight = sum(path.stat().st_size for path in files)
        folder = site / "media" / name.removesuffix(".html")
        shown = sorted(folder.glob("explorer-*/*.webp")) if folder.is_dir() else []
        print(f"  {name:<30s} {weight / 1e6:8.2f} MB {len(files):5d} {len(shown):6d} "
              f"{sum(p.stat().st_size for p in shown) / 1e6:8.2f}", flush=True)
        page.close()


def website_pages(site: Path) -> list[str]:
    return ["index.html", "glossary.html", "accessibility.html"] + sorted(
        p.name for p in site.glob("[0-9][0-9]_*.html"))


def key_figures(browser, site: Path) -> None:
    print("\nkey to frame (ms, keydown to the animation frame showing the new frame; median and max):", flush=True)
    cached_all, disk_all = [], []
    for name in sorted(p.name for p in site.glob("[0-9][0-9]_*.html")):
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        tb.block_network(page)
        page.goto((site / name).as_uri(), wait_until="load")
        explorers = page.locator(".explorer")
        for index in range(explorers.count()):
            explorer = explorers.nth(index)
            sliders = explorer.locator("input[type=range]")
            for s in range(sliders.count()):
                slider = sliders.nth(s)
                slider.scroll_into_view_if_needed()
                explorer.evaluate(MEASURE)
                slider.focus()  # the prefetch starts; the key below comes before it can finish
                key = "ArrowLeft" if slider.evaluate("s => Number(s.value) === Number(s.max)") else "ArrowRight"
                page.keyboard.press(key)
                disk = page.evaluate("() => window.__siteMs")
                cached = []
                for move in range(MOVES):
                    page.wait_for_function("e => e.dataset.framesPending === '0'", arg=explorer.element_handle())
                    explorer.evaluate(MEASURE)
                    page.keyboard.press("ArrowLeft" if move % 2 else "ArrowRight")
                    cached.append(page.evaluate("() => window.__siteMs"))
                label = explorer.locator(".explorer-slider label").nth(s).text_content()
                print(f"  {name[:2]} explorer {index + 1} {label:<12s} cached median {statistics.median(cached):5.1f} "
                      f"max {max(cached):5.1f}; from disk {disk:6.1f}", flush=True)
                cached_all += cached
                disk_all.append(disk)
        page.close()
    print(f"  all sliders: cached median {statistics.median(cached_all):.1f} ms (max {max(cached_all):.1f}), "
          f"from disk median {statistics.median(disk_all):.1f} ms (max {max(disk_all):.1f})", flush=True)


def main(argv: list[str]) -> None:
    if "--built" not in argv:
        build_figures()
    site = website.OUT
    if not (site / "index.html").is_file():
        sys.exit("no build/site/: run `make site` first (or this without --built)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=tb.CHROMIUM, args=tb.CHROMIUM_ARGS)
        page_figures(browser, site)
        key_figures(browser, site)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
