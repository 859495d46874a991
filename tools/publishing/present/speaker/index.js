/* The lecture JupyterLab's own extension (`make present` loads it, no other JupyterLab does; docs/slides.md
   "Presenting live"), for a lecturer presenting with jupyterlab-slideshow:

   - the speaker view: S while presenting (or the command "Speaker view") opens a window of its own that follows
     the slideshow stop by stop: which stop (n of N), the section's speaker notes on each of its stops (sub-slides
     too), the next stop's opening words, the time since the slideshow started. Its content comes from the lecture
     version's metadata (tools/publishing/lecture.py live_version: SPEAKER_KEY on each stop's first cell, NOTES_KEY on
     the notebook);
   - the presenter's keys on a focused slider: PageDown, Space, PageUp and Shift+Space go to the next or previous
     stop as everywhere else (tools/publishing/present/shortcuts.json) and never move the slider; Escape leaves the
     slider (the focus goes back to the notebook, the slideshow goes on); the arrows, Home and End move it.

   Plain JavaScript, no JupyterLab package imported: the notebook panel is the shell's widget with the slideshow's
   class, its cells are `content.widgets`. */

const SPEAKER_KEY = 'course_speaker';        // a stop's first cell: {stop, slide, notes, opening}
const NOTES_KEY = 'course_speaker_notes';   // the notebook: {stops, blocks: [{heading, slide, fields...}]}
const ONSCREEN = ['jp-deck-mod-onscreen', 'jp-deck-mod-visible'];  // the slideshow's classes of a cell on screen
const FIELDS = ['Pace', 'Get across', 'Ask', 'Answer'];
const FORWARD = { direction: 'down', alternate: 'forward' };  // as shortcuts.json's deck:go
const BACK = { direction: 'up', alternate: 'back' };

const presenting = () => document.body.dataset.jpDeckMode === 'presenting';

function metadata(model, key) {
  if (!model) return undefined;
  if (typeof model.getMetadata === 'function') return model.getMetadata(key);
  return model.metadata && (typeof model.metadata.get === 'function' ? model.metadata.get(key) : model.metadata[key]);
}

/* The notebook panel the slideshow shows. */
function deckPanel(app) {
  const current = app.shell.currentWidget;
  if (current && current.node.classList.contains('jp-Deck') && current.content) return current;
  for (const widget of app.shell.widgets('main')) {
    if (widget.node.classList.contains('jp-Deck') && widget.content) return widget;
  }
  return current && current.content && current.content.widgets ? current : null;
}

/* Where the slideshow is: the notebook's name, its notes, the stop on screen (the first cell on screen that opens a
   stop) and the stop after it. */
function whereNow(app) {
  const panel = deckPanel(app);
  if (!panel) return null;
  const notes = metadata(panel.content.model, NOTES_KEY);
  if (!notes) return { name: panel.title.label, notes: null };
  const cells = panel.content.widgets;
  let here = null, next = null;
  for (const cell of cells) {
    const stop = metadata(cell.model, SPEAKER_KEY);
    if (!stop) continue;
    if (here) { next = stop; break; }
    if (ONSCREEN.every(c => cell.node.classList.contains(c))) here = stop;
  }
  return { name: panel.title.label, notes, here, next };
}

/* ---------------------------------------------------------------------------------------- the speaker window */
const PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Speaker view</title>
<style>
  body { font-family: system-ui, sans-serif; font-size: 22px; line-height: 1.4; margin: 0; color: #111; background: #fff; }
  header { display: flex; flex-wrap: wrap; gap: 0 1.5em; align-items: baseline; padding: 8px 16px;
           background: #e8eef7; border-bottom: 2px solid #345; }
  h1 { font-size: 24px; margin: 0; }
  header p { margin: 0; font-size: 24px; font-variant-numeric: tabular-nums; }
  main { padding: 8px 16px 24px; }
  h2 { font-size: 26px; margin: 12px 0 4px; }
  #next { border: 2px solid #345; border-radius: 6px; padding: 4px 12px; background: #f6f8fb; }
  #next h2 { margin-top: 4px; font-size: 22px; }
  #next p { margin: 4px 0; font-size: 24px; }
  #notes p { font-size: 24px; margin: 8px 0; }
  #now-text { font-size: 22px; margin: 4px 0; }
  code { font-family: ui-monospace, monospace; font-size: 22px; background: #eef; }
  .field { font-weight: bold; }
</style></head>
<body>
<header>
  <h1 id="title">Speaker view</h1>
  <p id="where" aria-live="polite">Not presenting</p>
  <p id="clock">Elapsed 0:00</p>
</header>
<main>
  <p id="now-text"></p>
  <section id="next" aria-labelledby="next-heading">
    <h2 id="next-heading">Next stop</h2>
    <p id="next-text"></p>
  </section>
  <section id="notes" aria-labelledby="notes-heading">
    <h2 id="notes-heading">Speaker notes</h2>
    <div id="notes-text"></div>
  </section>
</main>
</body></html>`;

/* Text with `code` spans, as elements of ``doc`` (the notes are written in markdown with backticks). */
function withCode(doc, parent, text) {
  text.split('`').forEach((piece, k) => {
    if (!piece) return;
    if (k % 2) {
      const code = doc.createElement('code');
      code.textContent = piece;
      parent.appendChild(code);
    } else {
      parent.appendChild(doc.createTextNode(piece));
    }
  });
}

function clock(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

class SpeakerView {
  constructor(app) {
    this.app = app;
    this.window = null;
    this.shown = '';  // what the window shows now (a key of its content), to redraw only on a change
    this.started = presenting() ? performance.now() : null;  // when the slideshow started (performance.now())
    this.timer = null;
    // the clock starts with the slideshow, whether the speaker view is open or not
    new MutationObserver(() => this.track()).observe(document.body, { attributes: true,
                                                                      attributeFilter: ['data-jp-deck-mode'] });
  }

  track() {
    if (!presenting()) this.started = null;
    else if (this.started === null) this.started = performance.now();
  }

  open() {
    if (this.window && !this.window.closed) {
      this.window.focus();
      return this.window;
    }
    const opened = window.open('', 'course-speaker-view', 'popup,width=960,height=720');
    if (!opened) return null;
    opened.document.open();
    opened.document.write(PAGE);
    opened.document.close();
    // a clicker's keys reach the window with the focus: in the speaker view they move the slideshow as in its own
    opened.addEventListener('keydown', event => {
      const direction = presenterKey(event);
      if (!direction || !presenting()) return;
      event.preventDefault();
      this.app.commands.execute('deck:go', direction);
    });
    this.window = opened;
    this.shown = '';
    this.track();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.update(), 150);
    this.update();
    return opened;
  }

  /* Follow the slideshow: the stop on screen and the clock. */
  update() {
    const win = this.window;
    if (!win || win.closed) {
      clearInterval(this.timer);
      this.window = null;
      return;
    }
    this.track();
    const doc = win.document;
    const clockText = `Elapsed ${clock(this.started === null ? 0 : performance.now() - this.started)}`;
    const clockNode = doc.getElementById('clock');
    if (clockNode && clockNode.textContent !== clockText) clockNode.textContent = clockText;
    const now = presenting() ? whereNow(this.app) : null;
    const key = JSON.stringify(now && [now.name, now.here, now.next, !!now.notes]);
    if (key === this.shown || !doc.getElementById('where')) return;
    this.shown = key;
    this.draw(doc, now);
  }

  draw(doc, now) {
    const set = (id, text) => { doc.getElementById(id).textContent = text; };
    const notesText = doc.getElementById('notes-text');
    notesText.replaceChildren();
    set('now-text', '');
    set('next-text', '');
    if (!now || !now.here) {
      set('title', now ? `Speaker view: ${now.name}` : 'Speaker view');
      set('where', now && !now.notes ? 'This notebook has no speaker notes (open a lecture version: make present)'
                                     : 'Not presenting: start the slideshow');
      set('notes-heading', 'Speaker notes');
      doc.title = 'Speaker view';
      return;
    }
    const { here, next, notes } = now;
    const block = notes.blocks[here.notes];
    set('title', `Speaker view: ${now.name.replace(/\.ipynb$/, '')}`);
    set('where', `Stop ${here.stop} of ${notes.stops} (slide ${here.slide})`);
    doc.title = `Stop ${here.stop} of ${notes.stops}: speaker view`;
    withCode(doc, doc.getElementById('now-text'), `On screen: ${here.opening}`);
    if (next) {
      const section = next.notes !== here.notes ? ` (new section: ${notes.blocks[next.notes].heading})` : '';
      withCode(doc, doc.getElementById('next-text'), `Stop ${next.stop}${section}: ${next.opening}`);
    } else {
      set('next-text', 'None: this is the last stop');
    }
    const first = here.stop === block.first;
    const planned = notes.blocks.slice(0, here.notes).reduce((sum, b) => sum + parseInt(b.Time, 10), 0);
    set('notes-heading', `${block.heading} (${block.Time}, from minute ${planned})${first ? '' : ', continued'}`);
    for (const field of FIELDS) {
      if (!block[field]) continue;
      const p = doc.createElement('p');
      p.className = 'note';
      p.dataset.field = field;
      const label = doc.createElement('span');
      label.className = 'field';
      label.textContent = `${field}: `;
      p.appendChild(label);
      withCode(doc, p, block[field]);
      notesText.appendChild(p);
    }
  }
}

/* ---------------------------------------------------------------------------------------- the keys */
function plain(event) {
  return !event.ctrlKey && !event.altKey && !event.metaKey;
}

/* Where a presenter's key goes (shortcuts.json): FORWARD, BACK, or null for any other key. */
function presenterKey(event) {
  if (!plain(event)) return null;
  if (['PageDown', 'ArrowRight', 'ArrowDown'].includes(event.key) || (event.key === ' ' && !event.shiftKey)) {
    return FORWARD;
  }
  if (['PageUp', 'ArrowLeft', 'ArrowUp'].includes(event.key) || (event.key === ' ' && event.shiftKey)) return BACK;
  return null;
}

function handleKey(app, speaker, event) {
  if (!presenting() || document.querySelector('.jp-Deck .jp-Notebook.jp-mod-editMode')) return;
  const target = event.target instanceof Element ? event.target : null;
  const slider = target && target.closest('.jp-Deck .widget-slider');
  const typing = target && !slider && target.closest(
    'input:not([type="radio"]):not([type="checkbox"]):not([type="button"]), textarea, select, [contenteditable="true"]');
  if (typing) return;
  const stop = () => { event.preventDefault(); event.stopImmediatePropagation(); };
  if (plain(event) && !event.shiftKey && (event.key === 's' || event.key === 'S')) {
    stop();
    speaker.open();
    return;
  }
  if (!slider || !plain(event)) return;
  const forward = event.key === 'PageDown' || (event.key === ' ' && !event.shiftKey);
  const back = event.key === 'PageUp' || (event.key === ' ' && event.shiftKey);
  if (forward || back || event.key === 'Escape') {
    stop();
    focusNotebook(app, target);
    if (forward || back) app.commands.execute('deck:go', forward ? FORWARD : BACK);
  }
}

/* The focus back on the notebook (command mode), off the slider: the active cell, else the notebook itself. */
function focusNotebook(app, from) {
  const panel = deckPanel(app);
  if (from && typeof from.blur === 'function') from.blur();
  if (!panel) return;
  const cell = panel.content.activeCell;
  const node = cell && cell.node.isConnected ? cell.node : panel.content.node;
  node.focus({ preventScroll: true });
  if (!panel.content.node.contains(document.activeElement)) panel.content.node.focus({ preventScroll: true });
}

const plugin = {
  id: 'course-speaker-view:plugin',
  description: 'The lecture JupyterLab: a speaker view (S) and the presenter\'s keys on a focused slider',
  autoStart: true,
  activate: app => {
    const speaker = new SpeakerView(app);
    app.commands.addCommand('course:speaker-view', {
      label: 'Speaker view',
      caption: 'Open the speaker view: the notes of the stop on screen, the next stop, the time',
      execute: () => { speaker.open(); }
    });
    // capture phase on the window: before the slider's own handler and JupyterLab's shortcuts
    window.addEventListener('keydown', event => handleKey(app, speaker, event), true);
  }
};

export default plugin;
