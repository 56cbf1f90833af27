/**
 * report.html's style sheet and its one inline script. The script reads the cells from the JSON
 * the page embeds and builds the opened cell's panel with `textContent` alone, so nothing from
 * the corpus is ever parsed as markup in the browser either.
 */
import { OUTCOME_LEGEND } from './grid.js';
import { UNPACK } from './packed-page.js';

/** The page's style: fixed fonts and sizes, the outcome colours of the grid. */
export const STYLE = `
body { font: 14px/1.45 "DejaVu Sans", Verdana, sans-serif; color: #222; margin: 24px; max-width: 1400px; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 18px; margin: 28px 0 8px; } h3 { font-size: 16px; margin: 0 0 8px; }
h4 { font-size: 14px; margin: 14px 0 4px; }
nav a { margin-right: 14px; }
.charts { display: flex; flex-wrap: wrap; gap: 18px; }
figure.chart { margin: 0; border: 1px solid #ddd; padding: 8px; }
figcaption { font-weight: bold; margin-bottom: 4px; }
table { border-collapse: collapse; font-size: 12px; }
th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
td.n { text-align: right; }
#grid-table th.s { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: normal; padding: 4px 1px; }
#grid-table th.b { text-align: center; }
#grid-table td { padding: 1px; }
#grid-table button.cell { display: block; width: 16px; height: 16px; border: 0; padding: 0; cursor: pointer; }
#grid-table button.cell.selected { outline: 3px solid #ffd600; outline-offset: -1px; }
.legend span.sw { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; vertical-align: -1px; }
${OUTCOME_LEGEND.map((o) => `.o-${o.outcome} { background: ${o.colour}; }`).join('\n')}
/* The opened cell sits beside the grid and stays in view while a long grid scrolls. */
.grid-and-detail { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 16px; }
#detail { border: 1px solid #bbb; padding: 10px; background: #fafafa; flex: 1 1 420px; min-width: 360px;
  position: sticky; top: 8px; max-height: calc(100vh - 16px); overflow: auto; }
#detail pre { white-space: pre-wrap; word-break: break-word; max-height: 420px; overflow: auto; background: #fff; border: 1px solid #ddd; padding: 6px; }
#detail dl { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 0; }
#detail dt { color: #555; }
.note { color: #8a4b00; }
[hidden] { display: none !important; }
#grid-controls label { margin-right: 12px; white-space: nowrap; }
#grid-table button.cell.dim { opacity: 0.15; }
#detail-beside td.only { background: #fff59d; }
`;

/**
 * Opens a grid cell: its facts, bundle items, rendered text and decision trace, from the JSON
 * the page carries. Plain ES2017, no modules and no fetch: it works from file://.
 */
const BODY = `  var panel = document.getElementById('detail');
  var selected = null;
  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    for (var key in attrs || {}) e.setAttribute(key, attrs[key]);
    return e;
  }
  function table(heads, lines, id) {
    var t = el('table', null, { id: id });
    var head = el('tr');
    heads.forEach(function (h) { head.appendChild(el('th', h)); });
    t.appendChild(el('thead')).appendChild(head);
    var body = t.appendChild(el('tbody'));
    lines.forEach(function (line) {
      var tr = body.appendChild(el('tr'));
      line.forEach(function (c) { tr.appendChild(el('td', c === null ? '' : c)); });
    });
    return t;
  }
  function count(n, one, many) { return n + ' ' + (n === 1 ? one : many); }
  function facts(c) {
    var dl = el('dl', null, { id: 'detail-facts' });
    [data.outcomes[c.outcome], c.reason === null ? '(none)' : c.reason, c.expected, c.budget_tokens,
     c.rendered_tokens, c.must_recall === null ? '-' : c.must_recall, c.illegal === null ? '-' : c.illegal
    ].forEach(function (f, k) { dl.appendChild(el('dt', data.facts[k])); dl.appendChild(el('dd', f)); });
    return dl;
  }
  function show(k) {
    var c = data.cells[k];
    var d = c.detail;
    panel.replaceChildren(el('h3', c.case + ' / ' + c.budget + ' / ' + c.strategy, { id: 'detail-title' }), facts(c));
    if (c.missing !== null) panel.appendChild(el('p', c.missing, { 'class': 'note' }));
    if (d !== null) {
      d.notes.forEach(function (n) { panel.appendChild(el('p', n, { 'class': 'note' })); });
      if (d.bundle === null) panel.appendChild(el('h4', 'Bundle: none (a refusal)'));
      else {
        panel.appendChild(el('h4', 'Bundle ' + d.bundle.id + ': ' + count(d.bundle.items.length, 'item', 'items')));
        panel.appendChild(table(data.itemColumns, d.bundle.items, 'detail-bundle'));
      }
      if (d.failure !== null) {
        panel.appendChild(el('h4', 'Refusal'));
        var why = panel.appendChild(el('dl', null, { id: 'detail-refusal' }));
        d.refusal.forEach(function (f) { why.appendChild(el('dt', f[0])); why.appendChild(el('dd', f[1])); });
        var raw = panel.appendChild(el('details'));
        raw.appendChild(el('summary', 'the failure record as JSON'));
        raw.appendChild(el('pre', d.failure, { id: 'detail-failure' }));
      }
      panel.appendChild(el('h4', 'Rendered text'));
      panel.appendChild(el('pre', d.text === null ? '(none: no bundle)' : d.text, { id: 'detail-text' }));
      panel.appendChild(el('h4', 'Decision trace: ' + count(d.traceTotal, 'entry', 'entries')));
      panel.appendChild(table(data.traceColumns, d.trace, 'detail-trace'));
    }
    panel.appendChild(el('h4', 'Extras'));
    panel.appendChild(el('pre', c.extras, { id: 'detail-extras' }));
    panel.hidden = false;
  }
  var grid = document.getElementById('grid-table');
  var buttons = Array.prototype.slice.call(grid.querySelectorAll('button[data-k]'));
  var byId = {};
  data.cells.forEach(function (c, k) { byId[c.id] = k; });
  var idColumn = data.itemColumns.indexOf('id');
  function ids(c) {
    return c.detail === null || c.detail.bundle === null ? [] : c.detail.bundle.items.map(function (i) { return i[idColumn]; });
  }
  // Another strategy's bundle for the same case and budget, beside this one, each id the other lacks marked.
  function beside(c, other) {
    var box = document.getElementById('detail-beside');
    box.replaceChildren();
    if (other === undefined) return;
    var o = data.cells[other];
    if (o.detail === null) { box.appendChild(el('p', o.missing || 'no details for ' + o.id, { 'class': 'note' })); return; }
    var mine = ids(c), theirs = ids(o);
    var only = function (id, list) { return list.indexOf(id) < 0; };
    var both = mine.filter(function (id) { return !only(id, theirs); }).length;
    box.appendChild(el('p', both + ' in both; ' + (mine.length - both) + ' only in ' + c.strategy + '; ' +
      (theirs.length - both) + ' only in ' + o.strategy, { id: 'detail-beside-summary' }));
    var t = table(['position', c.strategy, o.strategy], [], 'detail-beside-table');
    var body = t.querySelector('tbody');
    for (var k = 0; k < Math.max(mine.length, theirs.length); k++) {
      var tr = body.appendChild(el('tr'));
      tr.appendChild(el('td', k));
      [[mine[k], theirs], [theirs[k], mine]].forEach(function (side) {
        var td = tr.appendChild(el('td', side[0] === undefined ? '' : side[0]));
        if (side[0] !== undefined && only(side[0], side[1])) td.className = 'only';
      });
    }
    box.appendChild(t);
  }
  function besideChoice(c) {
    var others = [];
    data.cells.forEach(function (o, k) {
      if (o.case === c.case && o.budget === c.budget && o.strategy !== c.strategy) others.push(k);
    });
    var wrap = el('p');
    var choice = el('select', null, { id: 'detail-vs' });
    choice.appendChild(el('option', '(none)', { value: '' }));
    others.forEach(function (k) { choice.appendChild(el('option', data.cells[k].strategy, { value: String(k) })); });
    choice.addEventListener('change', function () { beside(c, choice.value === '' ? undefined : Number(choice.value)); });
    wrap.appendChild(el('label', 'set beside it the bundle of ')).appendChild(choice);
    return wrap;
  }
  function open(k) {
    var b = grid.querySelector('button[data-k="' + k + '"]');
    if (selected !== null) selected.classList.remove('selected');
    selected = b;
    if (b !== null) b.classList.add('selected');
    show(k);
    var c = data.cells[k];
    panel.insertBefore(besideChoice(c), panel.children[2] || null);
    panel.insertBefore(el('div', null, { id: 'detail-beside' }), panel.children[3] || null);
    history.replaceState(null, '', '#cell=' + encodeURIComponent(c.id));
  }
  grid.addEventListener('click', function (e) {
    var b = e.target.closest('button[data-k]');
    if (b !== null) open(Number(b.getAttribute('data-k')));
  });
  function colourOf(measure, v) {
    if (v === null || v === undefined) return '#bdbdbd';
    if (measure === 'must_recall') return 'hsl(' + Math.round(120 * Math.max(0, Math.min(1, v))) + ', 65%, 40%)';
    if (measure === 'violations') return v === 0 ? '#2e7d32' : 'hsl(0, 75%, ' + Math.max(22, 62 - 8 * v) + '%)';
    return v > 1 ? '#c62828' : 'hsl(210, 75%, ' + Math.round(88 - 55 * v) + '%)';
  }
  function value(id) { return document.getElementById(id).value; }
  document.getElementById('colour-by').addEventListener('change', function () {
    var m = value('colour-by');
    buttons.forEach(function (b) {
      b.style.background = m === 'outcome' ? '' : colourOf(m, data.cells[Number(b.getAttribute('data-k'))][m]);
    });
    document.getElementById('grid-legend').hidden = m !== 'outcome';
    var note = document.getElementById('measure-legend');
    note.textContent = m === 'outcome' ? '' : 'colour: ' + data.measures[m] + '; grey: not defined for the cell';
    note.hidden = m === 'outcome';
  });
  function filter() {
    var s = value('filter-strategy'), bu = value('filter-budget'), o = value('filter-outcome');
    var q = value('filter-case').toLowerCase();
    grid.querySelectorAll('[data-strategy]').forEach(function (e) {
      e.hidden = (s !== '' && e.getAttribute('data-strategy') !== s) || (bu !== '' && e.getAttribute('data-budget') !== bu);
    });
    grid.querySelectorAll('th.b').forEach(function (e) {
      e.hidden = bu !== '' && e.getAttribute('data-budget') !== bu;
      e.colSpan = s === '' ? Number(e.getAttribute('data-span')) : 1;
    });
    grid.querySelectorAll('tbody tr').forEach(function (tr) {
      tr.hidden = q !== '' && tr.getAttribute('data-case').toLowerCase().indexOf(q) < 0;
    });
    buttons.forEach(function (b) { b.classList.toggle('dim', o !== '' && b.getAttribute('data-outcome') !== o); });
  }
  ['filter-strategy', 'filter-budget', 'filter-outcome'].forEach(function (id) {
    document.getElementById(id).addEventListener('change', filter);
  });
  document.getElementById('filter-case').addEventListener('input', filter);
  document.getElementById('sort-cases').addEventListener('change', function () {
    var body = grid.querySelector('tbody');
    var unexpected = function (tr) { return tr.querySelectorAll('button[data-outcome^="wrong"], button[data-outcome="error"]').length; };
    var rows = Array.prototype.slice.call(body.rows);
    var byWrong = value('sort-cases') === 'wrong';
    rows.sort(function (x, y) {
      var d = byWrong ? unexpected(y) - unexpected(x) : 0;
      var a = x.getAttribute('data-case'), b = y.getAttribute('data-case');
      return d !== 0 ? d : a < b ? -1 : a > b ? 1 : 0;
    });
    rows.forEach(function (tr) { body.appendChild(tr); });
  });
  var asked = /^#cell=(.*)$/.exec(location.hash);
  if (asked !== null) {
    var k = byId[decodeURIComponent(asked[1])];
    if (k !== undefined) {
      open(k);
      if (selected !== null) selected.scrollIntoView({ block: 'center' });
    }
  }
`;

export const SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
${BODY}})();
`;

/**
 * The script of a page whose data is packed (packed-page.ts): the same, once the data is
 * unpacked. The page's JSON is then one string, the data gzipped and in base64, which the browser
 * unpacks itself (DecompressionStream, no network); each cell's rendered text is joined from the
 * page's one table of texts, and each trace entry read back from the tables its repeated parts
 * are in, when the cell is opened.
 */
export const PACKED_SCRIPT = `
(function () {
  'use strict';
${UNPACK}  unpack(function (data) {
${BODY}  });
})();
`;
