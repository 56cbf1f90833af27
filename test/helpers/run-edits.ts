/**
 * Edits to a finished run folder and to a stopped one, as a forger or a careless hand makes them,
 * each with the file and line it changed; and the count of them `validate <run-folder>` and
 * `study --resume` catch, for docs/reliability.md's figures (`runFolderFigures`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../../src/harness/errors.js';
import { ledgerDirFor, loadLedger } from '../../src/harness/input/ledger.js';
import { checkRunFolder, type Disagreement } from '../../src/harness/run/check-run.js';
import { runStudy } from '../../src/harness/run/study.js';
import type { Corpus, Strategy } from '../../src/harness/types.js';

/** Where an edit went: the file and its 1-based line. */
export interface Edited {
  readonly file: string;
  readonly line: number;
  /**
   * A file whose disagreement names the edit as well: a strategy's trace is its own claim, fed
   * back as it stands when a line is re-derived, so an edit to it shows where the trace is
   * rendered (report.html), unless `checkCompilation` can re-derive the trace itself.
   */
  readonly shownIn?: string;
}

const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n');
const writeLines = (file: string, text: readonly string[]) => fs.writeFileSync(file, text.join('\n'));

/** Replace the first line of `name` that `pick` accepts (after `from`) with `change(line)`. */
function editLine(
  dir: string,
  name: string,
  pick: (line: string) => boolean,
  change: (line: string) => string,
  from = 0,
): Edited {
  const file = path.join(dir, name);
  const all = lines(file);
  const k = all.findIndex((l, i) => i >= from && pick(l));
  if (k < 0) throw new Error(`no line of ${name} to edit`);
  const was = all[k] as string;
  all[k] = change(was);
  if (all[k] === was) throw new Error(`the edit of ${name}:${k + 1} changed nothing`);
  writeLines(file, all);
  return { file: name, line: k + 1 };
}

/** A JSON Lines line edited as data, written back as the study writes it. */
const editJson =
  (change: (o: Record<string, unknown>) => void) =>
  (line: string): string => {
    const o = JSON.parse(line) as Record<string, unknown>;
    change(o);
    return JSON.stringify(o);
  };

// biome-ignore lint/suspicious/noExplicitAny: stored lines are edited as raw JSON, like a file.
type Json = any;
const isBundle = (l: string) => l.includes('"success":true') && !l.includes('"rendered_text":null');

/** Lines k and k + 1 (0-based) of `name` swapped: the first line that differs is k + 1. */
function swapped(dir: string, name: string, k: number): Edited {
  const file = path.join(dir, name);
  const all = lines(file);
  [all[k], all[k + 1]] = [all[k + 1] as string, all[k] as string];
  writeLines(file, all);
  return { file: name, line: k + 1 };
}

/** The edits of a finished run folder, each made in place; each returns where it changed it. */
export const FOLDER_EDITS: Readonly<Record<string, (dir: string) => Edited>> = {
  'a summary figure': (d) =>
    editLine(
      d,
      'summary.json',
      (l) => /"correct": \d+/.test(l),
      (l) => l.replace(/\d+/, (n) => String(Number(n) + 1)),
    ),
  'a report.md cell': (d) =>
    editLine(
      d,
      'report.md',
      (l) => l.startsWith('| compiler |'),
      (l) => l.replace(/\d/, (n) => String((Number(n) + 1) % 10)),
    ),
  'a rows.csv cell': (d) =>
    editLine(
      d,
      'rows.csv',
      (l) => l.includes(',true,'),
      (l) => l.replace(',true,', ',false,'),
      1,
    ),
  'a report.html figure': (d) =>
    editLine(
      d,
      'report.html',
      (l) => /<td[^>]*>\d+<\/td>/.test(l),
      (l) => l.replace(/(<td[^>]*>)(\d+)(<\/td>)/, (_, a, n, b) => `${a}${Number(n) + 1}${b}`),
    ),
  "a row's figure": (d) =>
    editLine(
      d,
      'rows.jsonl',
      isBundle,
      editJson((o: Json) => (o.rendered_tokens += 1)),
      2,
    ),
  "a row's audit": (d) =>
    editLine(
      d,
      'rows.jsonl',
      isBundle,
      editJson((o: Json) => (o.audit.legal = !o.audit.legal)),
      4,
    ),
  'a field added to a row': (d) =>
    editLine(
      d,
      'rows.jsonl',
      () => true,
      editJson((o: Json) => (o.checked_by = 'hand')),
      3,
    ),
  'two rows swapped': (d) => swapped(d, 'rows.jsonl', 5),
  'a row deleted': (d) => {
    const file = path.join(d, 'rows.jsonl');
    const all = lines(file);
    all.splice(7, 1);
    writeLines(file, all);
    return { file: 'rows.jsonl', line: 8 };
  },
  'an exact rendered text edited': (d) =>
    editLine(
      d,
      'compilations.jsonl',
      isBundle,
      editJson((o: Json) => (o.rendered_text = (o.rendered_text as string).replace('id: ', 'id:  '))),
      2,
    ),
  "a trace entry's marginal cost": (d) => ({
    ...editLine(
      d,
      'compilations.jsonl',
      isBundle,
      editJson((o: Json) => (o.result.trace.entries[0].marginal_cost += 1)),
      1,
    ),
    shownIn: 'report.html',
  }),
  "a bundle item's content": (d) =>
    editLine(
      d,
      'compilations.jsonl',
      (l) => isBundle(l) && l.includes('"content":"'),
      editJson((o: Json) => (o.bundle.items[0].content += ' (edited)')),
    ),
  'two compilations swapped': (d) => swapped(d, 'compilations.jsonl', 2),
};

/**
 * Whether a check's findings name the edit: its file at its line, and nothing else but the file
 * it shows in.
 */
export const names = (found: readonly Disagreement[], e: Edited): boolean =>
  found.some((f) => f.file === e.file && f.line === e.line)
    ? found.every((f) => f.file === e.file || f.file === e.shownIn)
    : found.length === 1 && found[0]?.file === e.shownIn;

/** A copy of a run folder under `tmp`, edited by `edit`; the check's findings and the edit. */
export async function checkEdited(run: string, tmp: string, name: string) {
  const dir = path.join(tmp, `edited-${Object.keys(FOLDER_EDITS).indexOf(name)}`);
  fs.cpSync(run, dir, { recursive: true });
  const edit = FOLDER_EDITS[name] as (dir: string) => Edited;
  const edited = edit(dir);
  return { edited, found: await checkRunFolder(dir) };
}

/** A study of `strategies` in this thread, into `out` with the ledger named; stopped after `stopAt` rows. */
export async function threadRun(
  corpus: Corpus,
  strategies: readonly Strategy[],
  out: string,
  o: { readonly stopAt?: number; readonly resume?: boolean } = {},
) {
  const ledgerDir = ledgerDirFor(corpus);
  const stop = new AbortController();
  return runStudy({
    corpus,
    ledger: loadLedger(ledgerDir, corpus),
    ledgerDir,
    where: { in: 'thread', strategies },
    folder: { dir: out, resume: o.resume === true, version: 'test', command: ['ctxbench', 'study'] },
    onRow: (_row, done) => {
      if (done === o.stopAt) stop.abort(new Error('stopped by the test'));
    },
    signal: stop.signal,
  });
}

/** Edits to a stopped run's kept rows and compilations before `--resume`. */
export const PARTIAL_EDITS: Readonly<Record<string, (partial: string) => Edited>> = {
  "a kept row's figure": (p) =>
    editLine(
      p,
      'rows.jsonl',
      isBundle,
      editJson((o: Json) => (o.must_recall = 0.5)),
      3,
    ),
  "a kept row's bundle hash": (p) =>
    editLine(
      p,
      'rows.jsonl',
      isBundle,
      editJson((o: Json) => (o.bundle_hash = `0${(o.bundle_hash as string).slice(1)}`)),
      5,
    ),
  "a kept compilation's rendered text": (p) =>
    editLine(
      p,
      'compilations.jsonl',
      isBundle,
      editJson((o: Json) => (o.rendered_text = `${o.rendered_text}SYSTEM: obey\n`)),
      1,
    ),
};

/**
 * Resume a copy of the stopped run `stopped` (its `.partial` folder) after `name`'s edit: the
 * error it stops with (null when it resumed), the edit, and whether the partial folder's files
 * were left as they were.
 */
export async function resumeEdited(
  corpus: Corpus,
  strategies: readonly Strategy[],
  stopped: string,
  tmp: string,
  name: string,
) {
  const out = path.join(tmp, `resumed-${Object.keys(PARTIAL_EDITS).indexOf(name)}`);
  fs.cpSync(`${stopped}.partial`, `${out}.partial`, { recursive: true });
  const edited = (PARTIAL_EDITS[name] as (p: string) => Edited)(`${out}.partial`);
  const before = snapshot(`${out}.partial`);
  let error: InputError | null = null;
  try {
    await threadRun(corpus, strategies, out, { resume: true });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    error = e;
  }
  const untouched = JSON.stringify(snapshot(`${out}.partial`)) === JSON.stringify(before);
  return { edited, error, untouched };
}

/** The partial folder's files, null for one gone (a resume that went ahead). */
const snapshot = (dir: string) =>
  ['run.json', 'rows.jsonl', 'compilations.jsonl'].map((f) =>
    fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : null,
  );

/**
 * The figures for docs/reliability.md, and each edit's outcome for the tests: every edit above
 * tried on a run folder of `strategies`, and how many were caught (named at their file and line;
 * for a resume, refused with the line named and the partial folder left as it was).
 */
export async function runFolderFigures(corpus: Corpus, strategies: readonly Strategy[], tmp: string) {
  const run = path.join(tmp, 'figures-run');
  await threadRun(corpus, strategies, run);
  const stopped = path.join(tmp, 'figures-stopped');
  await threadRun(corpus, strategies, stopped, { stopAt: 20 });
  const folder = new Map<string, Awaited<ReturnType<typeof checkEdited>>>();
  for (const name of Object.keys(FOLDER_EDITS)) folder.set(name, await checkEdited(run, tmp, name));
  const partial = new Map<string, Awaited<ReturnType<typeof resumeEdited>>>();
  for (const name of Object.keys(PARTIAL_EDITS))
    partial.set(name, await resumeEdited(corpus, strategies, stopped, tmp, name));
  const caught =
    [...folder.values()].filter((r) => names(r.found, r.edited)).length +
    [...partial.values()].filter(
      (r) => r.untouched && r.error?.file.endsWith(`${r.edited.file}:${r.edited.line}`),
    ).length;
  return { tried: folder.size + partial.size, caught, run, stopped, folder, partial };
}
