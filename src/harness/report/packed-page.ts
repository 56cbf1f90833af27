/**
 * report.html of an ingested corpus, packed: its cells hold the same files' texts over and over
 * and each trace an entry per candidate, which made a page of 13 MB for 20 commits and still left
 * most cells without details. Here every text is written once, in one table, and a cell's
 * rendered text is the pieces its frame adds with the places of its items' texts in that table;
 * each trace entry's candidate (with its class and relevance) and its decision (with its reason
 * and detail) are places in two more tables; and the page's data is gzipped into base64, which
 * the page's script (page.ts, PACKED_SCRIPT) unpacks in the browser. The same rows and
 * compilations give the same bytes (gzip's header says no time and no system).
 */
import { gzipSync } from 'node:zlib';
import { fieldsOf } from '../metrics/index.js';

/** The parts of a trace entry held in tables, each as the page trace's field names. */
const JOINED = [
  ['candidate_id', 'priority_band', 'relevance'],
  ['decision', 'reason_code', 'reason_detail'],
] as const;

type Scalar = string | number | boolean | null;

/**
 * A piece cut from a text, as a string of its own: V8 keeps the whole text alive while a piece
 * cut from it lives, and a page's frame pieces kept the rendered text of every cell it shows
 * (57 MB at 140 SWE-bench instances). A JSON round trip copies exactly.
 */
export const ownPiece = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

/** One table of values, each written once, in the order first met. */
class Table<T> {
  readonly values: T[] = [];
  private readonly at = new Map<string, number>();

  place(value: T): number {
    // A text is its own key: its JSON would be a second copy of every text on the page.
    const key = typeof value === 'string' ? value : JSON.stringify(value);
    let k = this.at.get(key);
    if (k === undefined) {
      k = this.values.length;
      this.at.set(key, k);
      this.values.push(value);
    }
    return k;
  }
}

/** The packing of one page: its tables fill as the grid's cells are read, in row order. */
export class PagePacker {
  private readonly texts = new Table<string>();
  private readonly joined = JOINED.map(() => new Table<readonly Scalar[]>());
  private readonly groups: number[][];
  private readonly rest: number[];

  constructor() {
    const fields = fieldsOf('page_trace');
    this.groups = JOINED.map((g) => g.map((f) => fields.indexOf(f)));
    this.rest = fields.map((_, k) => k).filter((k) => !this.groups.some((g) => g.includes(k)));
  }

  /**
   * A rendered text as pieces: the frame's own text as strings, each item's text as its place in
   * the table, found in the rendered text in item order. Text the items do not account for stays
   * in the pieces, so the pieces join back to the rendered text whatever the frame.
   */
  text(rendered: string, contents: readonly unknown[]): (string | number)[] {
    const pieces: (string | number)[] = [];
    let at = 0;
    for (const content of contents) {
      if (typeof content !== 'string' || content === '') continue;
      const k = rendered.indexOf(content, at);
      if (k < 0) continue;
      if (k > at) pieces.push(ownPiece(rendered.slice(at, k)));
      pieces.push(this.texts.place(content));
      at = k + content.length;
    }
    if (at < rendered.length) pieces.push(ownPiece(rendered.slice(at)));
    return pieces;
  }

  /**
   * A trace as the page lists it (each entry page_trace's fields), by column: the places of each
   * entry's joined parts, then each other field, every column a list over the entries.
   */
  trace(rows: readonly (readonly Scalar[])[]): Scalar[][] {
    const packed = rows.map((row) => [
      ...this.groups.map((g, k) =>
        (this.joined[k] as Table<readonly Scalar[]>).place(g.map((c) => row[c] ?? null)),
      ),
      ...this.rest.map((c) => row[c] ?? null),
    ]);
    return [...this.groups, ...this.rest].map((_, k) => packed.map((row) => row[k] ?? null));
  }

  /** The page's data with the tables, gzipped, in base64, as a JSON string for the page. */
  payload(data: Readonly<Record<string, unknown>>): string {
    const json = JSON.stringify({
      ...data,
      texts: this.texts.values,
      traceJoin: { groups: this.groups, tables: this.joined.map((t) => t.values) },
    });
    const gz = gzipSync(Buffer.from(json, 'utf8'), { level: 9 });
    // Byte 9 of the header names the system that wrote it: "unknown", so every system writes the same.
    gz[9] = 255;
    return JSON.stringify(gz.toString('base64'));
  }
}

/**
 * The packed page's script before its body (page.ts, PACKED_SCRIPT): `unpack(done)` reads the
 * data back (gunzip in the browser, no network), its texts and traces read back only when a cell
 * is opened, and builds the grid's rows as an unpacked page writes them (html.ts, gridSection).
 */
export const UNPACK = `
  // The grid's rows, as the page of an unpacked run writes them (html.ts, gridSection).
  function grid(data) {
    var body = document.querySelector('#grid-table tbody');
    var at = {};
    data.cells.forEach(function (c, k) { at[c.case + '\\n' + c.budget + '\\n' + c.strategy] = k; });
    data.grid.cases.forEach(function (kase) {
      var tr = document.createElement('tr');
      tr.setAttribute('data-case', kase);
      var th = tr.appendChild(document.createElement('th'));
      th.setAttribute('scope', 'row');
      th.textContent = kase;
      data.grid.budgets.forEach(function (b) {
        data.grid.names.forEach(function (n) {
          var td = tr.appendChild(document.createElement('td'));
          td.setAttribute('data-budget', b);
          td.setAttribute('data-strategy', n);
          var k = at[kase + '\\n' + b + '\\n' + n];
          if (k === undefined) return;
          var c = data.cells[k];
          var title = c.case + ' / ' + c.budget + ' / ' + c.strategy + ': ' + data.outcomes[c.outcome] +
            (c.reason === null ? '' : ' (' + c.reason + ')') + ', ' + c.rendered_tokens + ' of ' + c.budget_tokens +
            (c.budget_tokens === 1 ? ' token' : ' tokens');
          var button = td.appendChild(document.createElement('button'));
          button.type = 'button';
          button.className = 'cell o-' + c.outcome;
          button.setAttribute('data-k', String(k));
          button.setAttribute('data-outcome', c.outcome);
          button.title = title;
          button.setAttribute('aria-label', title);
        });
      });
      body.appendChild(tr);
    });
  }
  function unpack(done) {
    if (typeof DecompressionStream === 'undefined') {
      var note = document.createElement('p');
      note.className = 'note';
      note.textContent = 'This browser cannot unpack the data of the page (it has no DecompressionStream): ' +
        'open it in Chrome 80, Firefox 113, Safari 16.4 or later to see every compilation.';
      document.getElementById('grid').insertBefore(note, document.getElementById('grid-controls'));
      return;
    }
    var bin = atob(JSON.parse(document.getElementById('report-data').textContent));
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    new Response(stream).text().then(function (text) {
      var data = JSON.parse(text);
      var join = data.traceJoin;
      var width = data.traceColumns.length;
      var rest = [];
      for (var c = 0; c < width; c++)
        if (!join.groups.some(function (g) { return g.indexOf(c) >= 0; })) rest.push(c);
      var entry = function (row) {
        var out = new Array(width);
        join.groups.forEach(function (g, k) {
          var parts = join.tables[k][row[k]];
          g.forEach(function (col, j) { out[col] = parts[j]; });
        });
        rest.forEach(function (col, j) { out[col] = row[join.groups.length + j]; });
        return out;
      };
      data.cells.forEach(function (cell) {
        var d = cell.detail;
        if (d === null) return;
        var pieces = d.text, columns = d.trace;
        Object.defineProperty(d, 'text', { get: function () {
          return pieces === null ? null : pieces.map(function (p) { return typeof p === 'number' ? data.texts[p] : p; }).join('');
        } });
        Object.defineProperty(d, 'trace', { get: function () {
          var n = columns.length === 0 ? 0 : columns[0].length, out = [];
          for (var i = 0; i < n; i++) out.push(entry(columns.map(function (c) { return c[i]; })));
          return out;
        } });
      });
      grid(data);
      done(data);
    });
  }
`;
