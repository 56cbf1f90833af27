/**
 * What ingest and pack share: a repository state's files read, classified, outlined and scored,
 * ready for `buildPool`. Everything derived from a file version (its text's decoding, outline,
 * imports, token counts) is kept per blob in `BlobFacts`, so that a version held by many cases
 * is parsed and counted once, while the texts themselves are read per case and let go.
 */
import path from 'node:path';
import { countTokens, countTokensBeside } from '../corpus/index.js';
import type { Tokenizer } from '../types.js';
import type { Language, PathClass, SkipReason } from './ingest-types.js';
import { goModuleOf, resolveImport } from './outlines/imports.js';
import type { Grammars } from './outlines/outline.js';
import { type FormTexts, formTexts, type PoolFile } from './pool-builder.js';
import { featuresOf, TaskSignals } from './relevance/relevance-features.js';
import { chancesOf } from './relevance/relevance-model.js';
import { RelevanceIndex } from './relevance/relevance-score.js';

/** What a file version yields, whatever its path: kept for the whole ingest (and by `pack`'s cache). */
export interface Facts {
  readonly outline: string | null;
  readonly specifiers: readonly string[];
  /**
   * Identifiers the outline declares, for the identifier boost: each once, between line breaks
   * (`\nspin\nSpeed\n`), read off its declarations' lines (a test file's tests are not). One
   * string, not a set: a repository's versions hold millions of them.
   */
  readonly declared: string;
}

/** A file of a state, its bytes decoded. */
export interface StateFile {
  readonly path: string;
  readonly blob: string;
  readonly text: string;
  readonly cls: PathClass;
}

/** Skips counted by reason over a whole ingest or pack, for the summary. */
export type SkipCounts = Partial<Record<SkipReason, number>>;

/**
 * Skips counted once per (path, version), however many cases hold the file: what the summary and
 * the manifest report.
 */
export class Skips {
  readonly counts: SkipCounts = {};
  /** Each (path, version) skipped, `path\nblob`, with its reason: what shards of one ingest join. */
  readonly seen = new Map<string, SkipReason>();

  add(p: string, blob: string, reason: SkipReason): void {
    const key = `${p}\n${blob}`;
    if (this.seen.has(key)) return;
    this.seen.set(key, reason);
    this.counts[reason] = (this.counts[reason] ?? 0) + 1;
  }
}

/** The skips of one case, each path's reason noted, and counted once per version for the corpus. */
export class CaseSkips extends Skips {
  readonly reasons = new Map<string, SkipReason>();
  private readonly into: Skips;

  constructor(into: Skips) {
    super();
    this.into = into;
  }

  override add(p: string, blob: string, reason: SkipReason): void {
    this.reasons.set(p, reason);
    this.into.add(p, blob, reason);
  }
}

const IDENT = /[A-Za-z_$][\w$]*/g;

/**
 * A copy of a string that holds nothing else alive. A piece cut from a file's text (an import's
 * specifier) can keep the whole text in memory (V8 slices share their parent's characters), and
 * facts outlive the texts: for a repository of 16,000 versions that kept half a gigabyte.
 */
const detached = (s: string): string => ` ${s}`.slice(1);

/** What a caller may put between BlobFacts and the work it does per text (`pack`'s cache). */
export interface BlobMemo {
  /** A file's facts: known ones, or `make`'s. */
  readonly facts?: ((language: string, text: string, make: () => Facts) => Facts) | undefined;
  /**
   * How to count a form's text ahead, on the worker thread (`countAhead`): the caller's, so that a
   * count it knows is not sent and one counted there is kept. `countTokensBeside` when absent.
   */
  readonly ahead?: ((text: string) => Promise<number>) | undefined;
}

/** Per-blob facts and token counts, and the one relevance index. */
export class BlobFacts {
  private readonly facts = new Map<string, Facts>();
  private readonly tokens = new Map<string, number>();
  readonly index: RelevanceIndex;

  private readonly grammars: Grammars;
  /** What `counter` counts in. */
  readonly tokenizer: Tokenizer;
  private readonly memo: BlobMemo;

  /**
   * `only`: the only terms the relevance index needs, when the one task it will be asked is known
   * (`RelevanceIndex`'s `only`).
   */
  constructor(
    grammars: Grammars,
    tokenizer: Tokenizer = 'o200k',
    memo: BlobMemo = {},
    only?: ReadonlySet<string> | undefined,
  ) {
    this.grammars = grammars;
    this.tokenizer = tokenizer;
    this.memo = memo;
    this.index = new RelevanceIndex(only);
  }

  /** Index the file and find its facts, once per blob (a blob under two languages' names is rare, and keyed by both). */
  learn(f: StateFile): Facts {
    const key = `${f.blob}:${f.cls.language ?? ''}`;
    let facts = this.facts.get(key);
    if (facts === undefined) {
      const lang = f.cls.language;
      const make = (): Facts => {
        const outlined = lang === null ? null : this.grammars.outlined(lang, f.text);
        return {
          outline: outlined === null ? null : detached(outlined.outline),
          specifiers: lang === null ? [] : this.grammars.imports(lang, f.text).map(detached),
          // The declarations alone: the model was fitted on outlines without a test file's tests.
          declared: `\n${[...new Set(outlined?.declarations.match(IDENT) ?? [])].join('\n')}\n`,
        };
      };
      // A file without a grammar is cheap to know, and a cache has nothing to give it.
      facts = lang === null || this.memo.facts === undefined ? make() : this.memo.facts(lang, f.text, make);
      this.facts.set(key, facts);
    }
    this.index.add({ blob: f.blob, path: f.path, text: f.text });
    return facts;
  }

  private pending: Promise<void>[] = [];

  /**
   * Count the full and outline forms of a file just learnt on the worker thread, while this one
   * parses and indexes the next: `counter` then finds them counted. The same numbers as counting
   * here (one function counts both); only when they are ready differs.
   */
  countAhead(f: StateFile): void {
    const facts = this.facts.get(`${f.blob}:${f.cls.language ?? ''}`);
    if (facts === undefined) return;
    for (const [form, text] of formTexts({ path: f.path, text: f.text, outline: facts.outline })) {
      const key = `${f.blob}:${f.path}:${form}`;
      if (form === 'reference' || this.tokens.has(key)) continue;
      const counted = this.memo.ahead?.(text) ?? countTokensBeside(this.tokenizer, text);
      this.pending.push(counted.then((n) => void this.tokens.set(key, n)));
    }
  }

  /** Every count sent ahead in, so that the worker holds no more than a run of texts. */
  async settle(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
  }

  /** The form texts of the files of the state being built, and of the state before it. */
  private texts = new Map<string, FormTexts>();
  private lastTexts = new Map<string, FormTexts>();

  /**
   * Start a new state: the form texts its files do not take over from the last one are let go, so
   * that no more than two states' texts are held, however many versions the ingest reads.
   */
  nextState(): void {
    this.lastTexts = this.texts;
    this.texts = new Map();
  }

  /** A file's form texts by blob and path (`PoolSpec.forms`): kept from the last state when it held them. */
  forms = (key: string, make: () => FormTexts): FormTexts => {
    let t = this.texts.get(key) ?? this.lastTexts.get(key);
    if (t === undefined) t = make();
    this.texts.set(key, t);
    return t;
  };

  /**
   * Tokens of one form's text: counted once per blob, path and form (the text starts with the
   * path, so a renamed file is counted again).
   */
  counter = (key: string, text: string): number => {
    let n = this.tokens.get(key);
    if (n === undefined) {
      n = countTokens(this.tokenizer, text);
      this.tokens.set(key, n);
    }
    return n;
  };
}

/** Each file's in-state imports, resolved: file to the files it imports, and back. */
function neighbours(
  files: readonly StateFile[],
  facts: ReadonlyMap<string, Facts>,
): Map<string, Set<string>> {
  const paths = new Set(files.map((f) => f.path));
  const mod = files.find((f) => f.path === 'go.mod');
  const goModule = mod === undefined ? undefined : goModuleOf(mod.text);
  const context = goModule === undefined ? {} : { goModule };
  const out = new Map<string, Set<string>>(files.map((f) => [f.path, new Set<string>()]));
  for (const f of files) {
    const lang: Language | null = f.cls.language;
    if (lang === null) continue;
    for (const spec of facts.get(f.path)?.specifiers ?? [])
      for (const target of resolveImport(lang, f.path, spec, paths, context)) {
        if (target === f.path) continue;
        out.get(f.path)?.add(target);
        out.get(target)?.add(f.path);
      }
  }
  return out;
}

/**
 * The state's files as pool files: relevance is the model's chance that the task needs the file
 * (relevance-model.ts), from the signals of relevance-features.ts (the index's BM25 over this
 * state's blobs among them); outlines from the facts.
 */
export function poolFiles(
  task: string,
  files: readonly StateFile[],
  known: BlobFacts,
  lastChange: (path: string) => number | null,
  scores?: ReadonlyMap<string, number>,
): PoolFile[] {
  const facts = new Map(files.map((f) => [f.path, known.learn(f)]));
  // Given when the caller scored the state before letting the index go.
  const bm25 = scores ?? known.index.scores(task, new Set(files.map((f) => f.blob)));
  const signals = new TaskSignals(task);
  const features = featuresOf(
    signals,
    files.map((f) => ({
      path: f.path,
      blob: f.blob,
      size: f.text.length,
      test: f.cls.test,
      source: f.cls.source,
      declared: (facts.get(f.path) as Facts).declared,
      text: f.text,
      outline: (facts.get(f.path) as Facts).outline,
    })),
    bm25,
    neighbours(files, facts),
  );
  // Each chance is a share of the state's: the files are weighed together (relevance-model.ts).
  const chances = chancesOf(files.map((f) => features.get(f.path) as Float64Array));
  return files.map((f, k) => {
    const x = features.get(f.path) as Float64Array;
    return {
      path: f.path,
      blob: f.blob,
      text: f.text,
      cls: f.cls,
      outline: (facts.get(f.path) as Facts).outline,
      lastChange: lastChange(f.path),
      relevance: chances[k] as number,
      features: x,
    };
  });
}

/** A repository's name for scope and the corpus: its folder's name. */
export const repositoryName = (root: string): string => path.basename(path.resolve(root));
