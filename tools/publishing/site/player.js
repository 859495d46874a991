// The course website's slider explorers (tools/publishing/website.py): each slider is a native
// <input type="range"> over the indices of its grid; its value text is the grid's label (0.515, not an index).
// Every combination of slider values has a pre-rendered frame: a lossless WebP file beside the page, and its
// text alternative and number panel in the page's manifest (fetch() is not allowed on file://). A frame is
// fetched when reached and its neighbours prefetched; a cached frame is shown at the next animation frame.
(function () {
  'use strict';

  function clauses(text) {  // a panel's clauses (its lines, and " | " within a line), as helpers.widgets.clauses
    return text.split('\n').flatMap(line => line.split(' | ')).map(c => c.replace(/\s+/g, ' ').trim())
      .filter(c => c !== '');
  }

  function changed(before, after) {  // the clauses of `after` that are not in `before`, in order
    const seen = new Set(before);
    return after.filter(c => !seen.has(c));
  }

  function setUp(root) {
    const manifest = JSON.parse(root.querySelector('script.explorer-manifest').textContent);
    const inputs = [...root.querySelectorAll('input[type=range]')];
    const outputs = [...root.querySelectorAll('output')];
    const image = root.querySelector('.explorer-frame img');
    const panel = root.querySelector('.explorer-panel');
    const status = root.querySelector('.explorer-status');
    const sizes = manifest.sliders.map(values => values.length);
    const cache = new Map();  // flat index -> {image, ready}
    let shown = flat(inputs.map(input => Number(input.value)));
    let wanted = shown;

    function flat(indices) { return indices.reduce((at, index, s) => at * sizes[s] + index, 0); }
    function indicesOf(at) {
      const out = [];
      for (let s = sizes.length - 1; s >= 0; s--) { out.unshift(at % sizes[s]); at = Math.floor(at / sizes[s]); }
      return out;
    }
    function source(at) {
      return manifest.folder + '/' + indicesOf(at).map(i => String(i).padStart(3, '0')).join('-') + '.webp';
    }
    let pending = 0;  // frames fetched and not decoded yet (data-frames-pending: what a test can wait on)
    function load(at) {
      let entry = cache.get(at);
      if (!entry) {
        const picture = new Image();  // kept: the document keeps its decoded picture for the <img> to show
        entry = {image: picture, done: false};
        picture.src = source(at);
        root.dataset.framesPending = String(++pending);
        const done = () => { entry.done = true; root.dataset.framesPending = String(--pending); };
        entry.ready = picture.decode().then(done, done);
        cache.set(at, entry);
      }
      return entry;
    }
    function prefetch(at) {
      const here = indicesOf(at);
      here.forEach((index, s) => {
        const big = Math.max(1, Math.round((sizes[s] - 1) / 10));
        [index - 1, index + 1, index - 2, index + 2, index - big, index + big, 0, sizes[s] - 1].forEach(other => {
          if (other >= 0 && other < sizes[s]) { const next = here.slice(); next[s] = other; load(flat(next)); }
        });
      });
    }
    function show(at) {
      const before = clauses(manifest.panels[shown]);
      image.src = source(at);
      image.alt = manifest.alts[at];
      panel.textContent = manifest.panels[at];
      // what changed, as JupyterLab's explorers announce it (helpers.widgets.announcement): the clauses of the
      // new panel that the previous one did not have
      status.textContent = changed(before, clauses(manifest.panels[at])).join('; ');
      shown = at;
      prefetch(at);
    }
    function request() {
      const indices = inputs.map(input => Number(input.value));
      indices.forEach((index, s) => {
        const label = manifest.sliders[s][index];
        inputs[s].setAttribute('aria-valuetext', label);
        outputs[s].textContent = label;
      });
      wanted = flat(indices);
      const entry = load(wanted);
      if (entry.done) { show(wanted); return; }
      const at = wanted;
      entry.ready.then(() => { if (wanted === at) show(at); });
    }
    inputs.forEach(input => {
      input.disabled = false;
      input.addEventListener('input', request);
      input.addEventListener('focus', () => { load(shown); prefetch(shown); }, {once: true});
      input.addEventListener('keydown', event => {  // Page Up / Page Down: a tenth of the grid at a time
        if (event.key !== 'PageUp' && event.key !== 'PageDown') return;
        event.preventDefault();
        const max = Number(input.max), big = Math.max(1, Math.round(max / 10));
        const value = Math.min(max, Math.max(0, Number(input.value) + (event.key === 'PageUp' ? big : -big)));
        if (value !== Number(input.value)) { input.value = String(value); request(); }
      });
    });
  }

  function start() { document.querySelectorAll('.explorer').forEach(setUp); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
