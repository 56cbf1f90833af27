/**
 * The run folder of an ingested corpus holds its texts by reference to the corpus: no line of
 * compilations.jsonl repeats a file's text, yet every line reads back to the very line the study
 * compiled; report.html holds each text once and still shows every bundle's rendered text whole;
 * the folder validates, `report` makes the same files again, shards merge to the same bytes, and
 * a corpus changed since the run is named, not read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { InputError } from '../../../src/harness/errors.js';
import { loadStrategies } from '../../../src/harness/hosts/index.js';
import { reportHtml } from '../../../src/harness/report/index.js';
import {
  byReference,
  compiledLines,
  corpusDigest,
  corpusTexts,
  expandLine,
  folderTexts,
  mergeShards,
  readRunFolder,
  runReportFiles,
} from '../../../src/harness/runfolder/index.js';
import { checkRunFolder } from '../../../src/harness/study/index.js';
import type { CompilationLine, Strategy } from '../../../src/harness/types.js';
import { chromium, noChromium, withBrowser } from '../../helpers/browser.js';
import { type IngestedProject, ingestedProject } from '../../helpers/ingest-fixture.js';
import { finishedStudy, study } from '../../helpers/study.js';
import { tempDir } from '../../helpers/temp.js';

const NAMES = ['dump', 'topk', 'compiler', 'oracle', 'cheapest-form'];
if (chromium === undefined) console.log(`by-reference: ${noChromium}`);
const tmp = tempDir('by-reference');
const at = (name: string) => path.join(tmp, name);
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

let project: IngestedProject;
let strategies: readonly Strategy[];
/** The same study with its lines holding their texts, as every line did before. */
let plain: readonly CompilationLine[];

beforeAll(async () => {
  project = await ingestedProject(at('project'), [150, 500, 3000], 'by-reference');
  strategies = await loadStrategies(NAMES);
  await study({ corpus: project.corpus, strategies, out: at('whole') });
  for (const k of [1, 2])
    await study({ corpus: project.corpus, strategies, shard: { index: k, count: 2 }, out: at(`s${k}`) });
  plain = (await finishedStudy({ corpus: { ...project.corpus, ingested: false }, strategies })).compilations;
}, 300_000);

/** Every text of the corpus's files long enough to tell apart, as JSON writes it inside a string. */
const fileTexts = () => [
  ...new Set(
    project.corpus.cases.flatMap((c) =>
      c.candidates.flatMap((k) =>
        k.kind === 'task' || (k.content ?? '').length < 60 ? [] : [JSON.stringify(k.content).slice(1, -1)],
      ),
    ),
  ),
];

describe('compilations.jsonl of an ingested corpus', () => {
  it('names the corpus on every line and holds none of its files’ texts', () => {
    const text = read(at('whole'), 'compilations.jsonl');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as CompilationLine);
    expect(lines).toHaveLength(plain.length);
    const digest = corpusDigest(project.out);
    expect(lines.every((l) => l.by_reference === digest)).toBe(true);
    const texts = fileTexts();
    expect(texts.length).toBeGreaterThan(10);
    expect(texts.filter((t) => text.includes(t))).toEqual([]);
    // Where lines hold their texts, a needed file's text comes back with every bundle that holds it.
    const full = JSON.stringify(plain);
    const repeated = texts.map((t) => full.split(t).length - 1).sort((a, b) => b - a);
    expect(repeated[0]).toBeGreaterThan(10);
    expect(text.length * 3).toBeLessThan(full.length);
  });

  it('reads back, line for line, to the line the study compiled', () => {
    const run = readRunFolder(at('whole'));
    const back = [...compiledLines(run.compilations, folderTexts(run.dir, run.manifest))];
    expect(back).toHaveLength(plain.length);
    back.forEach((line, k) => {
      expect(typeof line, `line ${k + 1}`).toBe('object');
      expect(JSON.stringify(line), `line ${k + 1}`).toBe(JSON.stringify(plain[k]));
    });
  });

  it('keeps a line whole that would not read back to its own bytes', () => {
    const texts = corpusTexts(project.corpus);
    const k = plain.findIndex((l) => l.bundle !== null);
    const line = plain[k] as CompilationLine;
    expect(byReference(line, texts).by_reference).toBe(texts.digest);
    // An item whose text is not its candidate's: the line is written as it is.
    const bundle = line.bundle as { items: { content: string }[] };
    const forged = {
      ...line,
      bundle: { ...bundle, items: [{ ...bundle.items[0], content: 'forged' }, ...bundle.items.slice(1)] },
    };
    expect(byReference(forged as CompilationLine, texts)).toBe(forged);
  });

  it('keeps a trace entry as it is that is not its candidate’s, and a line whole that holds a list for one', () => {
    const texts = corpusTexts(project.corpus);
    const k = plain.findIndex(
      (l) => ((l.result as { trace?: { entries?: unknown[] } })?.trace?.entries ?? []).length > 1,
    );
    const line = plain[k] as CompilationLine;
    const result = line.result as { trace: { entries: Record<string, unknown>[] } };
    const entries = result.trace.entries;
    const withEntries = (first: unknown) =>
      ({
        ...line,
        result: { ...result, trace: { ...result.trace, entries: [first, ...entries.slice(1)] } },
      }) as CompilationLine;
    // Another relevance than its candidate's: that entry stays whole, the others are packed, and
    // the line reads back to its own bytes.
    const other = withEntries({ ...entries[0], relevance: 12.5 });
    const packed = byReference(other, texts) as unknown as {
      result: { trace: { entries: { rows: unknown[] } } };
    };
    expect(packed.result.trace.entries.rows[0]).toEqual({ ...entries[0], relevance: 12.5 });
    expect(Array.isArray(packed.result.trace.entries.rows[1])).toBe(true);
    expect(JSON.stringify(expandLine(packed as unknown as Record<string, unknown>, texts))).toBe(
      JSON.stringify(other),
    );
    // A list where an entry stands would read back as a packed row: the line is kept whole.
    const list = withEntries([0, 0, 1, 2, 3, 4]);
    expect(byReference(list, texts)).toBe(list);
  });
});

/** report.html's data, unpacked as its script unpacks it. */
function pageData(html: string): {
  cells: { detail: { text: (string | number)[] | null } | null }[];
  texts: string[];
} {
  const packed = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html)?.[1];
  expect(packed).toBeDefined();
  return JSON.parse(
    gunzipSync(Buffer.from(JSON.parse(packed as string) as string, 'base64')).toString('utf8'),
  );
}

describe('report.html of an ingested corpus', () => {
  it('holds each text once, and every bundle’s rendered text, whole, from those texts', () => {
    const data = pageData(read(at('whole'), 'report.html'));
    expect(new Set(data.texts).size).toBe(data.texts.length);
    expect(data.cells).toHaveLength(plain.length);
    data.cells.forEach((c, k) => {
      const want = plain[k]?.rendered_text ?? null;
      const pieces = c.detail?.text ?? null;
      const text =
        pieces === null ? null : pieces.map((p) => (typeof p === 'number' ? data.texts[p] : p)).join('');
      expect(text, `cell ${k + 1}`).toBe(want);
    });
    // Each text once: no file's text is written into the page outside its table.
    for (const t of data.texts) expect(data.texts.indexOf(t)).toBe(data.texts.lastIndexOf(t));
  });

  it.skipIf(chromium === undefined)(
    'opens in a browser with no network: the grid, a cell’s rendered text, its trace, a bundle beside it',
    async () => {
      const k = plain.findIndex((l) => l.strategy === 'compiler' && l.bundle !== null);
      const line = plain[k] as CompilationLine;
      const id = `${line.case}/${line.budget}/${line.strategy}`;
      const url = `${pathToFileURL(path.join(at('whole'), 'report.html')).href}#cell=${encodeURIComponent(id)}`;
      await withBrowser(async (open) => {
        const { page, problems, requested } = await open();
        await page.goto(url);
        await page.waitForSelector('#detail-text');
        expect(await page.textContent('#detail-title')).toBe(id.replace(/\//g, ' / '));
        expect(await page.textContent('#detail-text')).toBe(line.rendered_text);
        const entries = (line.result as { trace: { entries: { candidate_id: string }[] } }).trace.entries;
        const trace = page.locator('#detail-trace tbody tr');
        expect(await trace.count()).toBe(entries.length);
        expect(await trace.first().locator('td').first().textContent()).toBe(entries[0]?.candidate_id);
        expect(await page.locator('#grid-table button[data-k]').count()).toBe(plain.length);
        await page.selectOption('#detail-vs', { label: 'dump' });
        expect(await page.textContent('#detail-beside-summary')).toMatch(/ in both; /);
        expect(problems).toEqual([]);
        expect(requested).toEqual([]);
      });
    },
    120_000,
  );

  it('holds a text of control characters whole, in its table and its cell’s rendered text', async () => {
    const { rows } = readRunFolder(at('whole'));
    type Bundle = { readonly items: readonly Record<string, unknown>[] };
    const itemsOf = (l: CompilationLine) => (l.bundle as Bundle | null)?.items ?? [];
    const k = plain.findIndex((l) => itemsOf(l).length > 0);
    const line = plain[k] as CompilationLine;
    const items = itemsOf(line);
    // A file whose whole text is NULs around a word: the page's JSON escapes them and reads them back.
    const mark = '\u0000held\u0000';
    const odd = {
      ...line,
      rendered_text: `${line.rendered_text}${mark}`,
      bundle: { ...(line.bundle as Bundle), items: [...items, { ...items[0], content: mark }] },
    };
    const lines = plain.map((l, j) => JSON.stringify(j === k ? odd : l));
    const data = pageData(await reportHtml(rows, 'marked', lines, true));
    expect(data.texts).toContain(mark);
    const pieces = data.cells[k]?.detail?.text ?? [];
    expect(pieces.map((p) => (typeof p === 'number' ? data.texts[p] : p)).join('')).toBe(odd.rendered_text);
    expect(data.cells).toHaveLength(plain.length);
  });

  it('is smaller than the page whose cells hold their texts', async () => {
    const { rows } = readRunFolder(at('whole'));
    const lines = plain.map((l) => JSON.stringify(l));
    const unpacked = await reportHtml(rows, 'unpacked', lines, true, undefined, false);
    expect(read(at('whole'), 'report.html').length * 2).toBeLessThan(unpacked.length);
  });
});

describe('the folder, as the other commands read it', () => {
  it('validates: every line re-derived from its selection, every report file rendered again', async () => {
    const { found, unchecked } = await checkRunFolder(at('whole'), { in: 'thread', strategies });
    expect(found).toEqual([]);
    expect(unchecked).toEqual([]);
  }, 300_000);

  it('`report` makes the same files again from it and its corpus', async () => {
    const files = await runReportFiles(readRunFolder(at('whole')));
    for (const [name, text] of Object.entries(files)) expect(text, name).toBe(read(at('whole'), name));
  });

  it('`report` reads compilations.jsonl once, for the grid and prefix stability both', async () => {
    // A gigabyte for 140 SWE-bench instances: the page's grid and prefix stability share one read.
    const opened = vi.spyOn(fs, 'openSync');
    try {
      const run = readRunFolder(at('whole'));
      const files = await runReportFiles(run);
      const reads = opened.mock.calls.filter(([file]) => file === run.compilations);
      expect(reads).toHaveLength(1);
      for (const [name, text] of Object.entries(files)) expect(text, name).toBe(read(at('whole'), name));
    } finally {
      opened.mockRestore();
    }
  });

  it('shards merge to the same bytes as the whole run', async () => {
    await mergeShards([at('s2'), at('s1')], at('merged'), ['ctxbench', 'merge'], 'test');
    for (const name of ['compilations.jsonl', 'report.html', 'report.md', 'summary.json'])
      expect(read(at('merged'), name), name).toBe(read(at('whole'), name));
  });

  it('names a corpus changed since the run instead of reading it', () => {
    const copy = at('changed');
    fs.cpSync(project.out, copy, { recursive: true });
    const file = fs.readdirSync(copy).find((f) => f.endsWith('.candidates.json')) as string;
    fs.appendFileSync(path.join(copy, file), '\n');
    const run = readRunFolder(at('whole'));
    const texts = folderTexts(run.dir, run.manifest, copy);
    expect(() => texts?.candidates(project.corpus.cases[0]?.name as string)).toThrow(InputError);
    expect(() => texts?.candidates(project.corpus.cases[0]?.name as string)).toThrow(
      /is not the corpus the run read/,
    );
  });
});
