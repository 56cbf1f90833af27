/**
 * `--require` means the file's text. The pool offers a required file in its full text, its outline
 * and its reference line, and a strategy satisfying REQUIRED content in its cheapest legal form
 * would take the path alone. So each compilation offers each required file in one form, its
 * level: the full text first; while the bundle does not fit, the required file whose form costs
 * most goes one form poorer, down to the poorest its requirement accepts (the outline, unless the
 * user named another, pack.ts). A level list is small (one entry per required file) and every step
 * makes one form poorer, so the steps are bounded by twice the number of required files. Here
 * too: what each `--require` names, and why a path it names is not in the pool.
 */
import path from 'node:path';
import type { ContextCandidate } from '../../compiler/index.js';
import { InputError } from '../errors.js';
import { type Form, formId, type SkipReason } from '../ingest/index.js';
import type { DefaultKind } from './default-ignores.js';

const RICHEST_FIRST: readonly Form[] = ['full', 'outline', 'reference'];

/** The form each required file is offered in, by path. */
export type Levels = ReadonlyMap<string, Form>;

export class Requirements {
  /** Each required file's forms that satisfy it, richest first. */
  private readonly ladders: ReadonlyMap<string, readonly Form[]>;
  private readonly tokens: ReadonlyMap<string, number>;
  private readonly candidates: readonly ContextCandidate[];

  constructor(candidates: readonly ContextCandidate[], required: ReadonlyMap<string, Form>) {
    this.candidates = candidates;
    this.tokens = new Map(candidates.map((c) => [c.candidate_id, c.token_count]));
    const ladders = new Map<string, Form[]>();
    for (const [path, floor] of [...required].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const accepted = RICHEST_FIRST.slice(0, RICHEST_FIRST.indexOf(floor) + 1);
      ladders.set(
        path,
        accepted.filter((f) => this.tokens.has(formId(path, f))),
      );
    }
    this.ladders = ladders;
  }

  get paths(): readonly string[] {
    return [...this.ladders.keys()];
  }

  /** Every required file in its richest form. */
  richest(): Levels {
    return new Map([...this.ladders].map(([path, forms]) => [path, forms[0] ?? 'full']));
  }

  /** Tokens of a required file's form in the pool (as printed, for a printed pool). */
  cost(path: string, form: Form): number {
    return this.tokens.get(formId(path, form)) ?? 0;
  }

  /** Tokens of the required files at `levels`. */
  total(levels: Levels): number {
    let sum = 0;
    for (const [path, form] of levels) sum += this.cost(path, form);
    return sum;
  }

  /**
   * `levels` with the required file whose form costs most (ties by path) one form poorer, or null
   * when every one is at the poorest form its requirement accepts.
   */
  poorer(levels: Levels): Levels | null {
    let pick: string | undefined;
    for (const [path, form] of levels) {
      const forms = this.ladders.get(path) ?? [];
      if (forms.indexOf(form) >= forms.length - 1) continue;
      if (pick === undefined || this.cost(path, form) > this.cost(pick, levels.get(pick) as Form))
        pick = path;
    }
    if (pick === undefined) return null;
    const forms = this.ladders.get(pick) as readonly Form[];
    const next = new Map(levels);
    next.set(pick, forms[forms.indexOf(levels.get(pick) as Form) + 1] as Form);
    return next;
  }

  /** The pool with each required file offered in its level's form alone. */
  pool(levels: Levels): ContextCandidate[] {
    return this.candidates.filter((c) => {
      const form = levels.get(c.content_identity);
      return form === undefined || c.representation_id === form;
    });
  }
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** What a requirement means, as the CLI's help and the MCP tool's schema say it. */
export const REQUIRE_MEANING =
  'in full, else as an outline, else a refusal; path#full for the full text alone, path#reference to accept the path alone';

/** What a requirement may end with to name the poorest form it accepts. */
const FLOOR = /#(full|outline|reference)$/;

/**
 * Each `--require` as a path of the pool and the poorest form that satisfies it: `path` takes the
 * full text or, failing that, the outline; `path#full` the full text alone; `path#reference` any
 * form, the path alone included. A string that names a file as it is is that file, whatever it
 * ends with.
 */
export function requirements(
  given: readonly string[],
  paths: ReadonlySet<string>,
  why: (file: string) => string,
): Map<string, Form> {
  const out = new Map<string, Form>();
  for (const r of given) {
    const plain = toPosix(path.normalize(r)).replace(/^\.\//, '');
    const floor = FLOOR.exec(plain);
    const file = paths.has(plain) || floor === null ? plain : plain.slice(0, floor.index);
    if (!paths.has(file))
      throw new InputError('--require', `${file} is not a file of the pool (${why(file)})`);
    out.set(file, file === plain ? 'outline' : (floor?.[1] as Form));
  }
  return out;
}

/** What a skip reason means to the user who required the file. */
const SKIPPED: Readonly<Partial<Record<SkipReason, string>>> = {
  binary: 'a binary file',
  'not-utf8': 'not UTF-8 text',
  'too-large': 'larger than --max-bytes',
  symlink: 'a symbolic link, or behind one',
  submodule: 'a nested repository',
  special: 'not a regular file',
  lockfile: 'a lockfile',
  excluded: 'left out by --include or --exclude',
  empty: 'empty, or white space alone',
  ignored: 'ignored by an ignore rule',
};

/**
 * Why a path is not a file of the pool, from what the listing and the reading said of it or of a
 * folder above it; else it was never there.
 */
export function whySkipped(
  file: string,
  reasons: ReadonlyMap<string, SkipReason>,
  defaulted: ReadonlyMap<string, DefaultKind>,
): string {
  const parts = file.split('/');
  for (let k = parts.length; k > 0; k--) {
    const at = parts.slice(0, k).join('/');
    const kind = defaulted.get(at);
    if (kind !== undefined)
      return `${at === file ? '' : `${at}/ is `}left out by the default ignores (${kind}); --no-default-ignores packs it`;
    const reason = reasons.get(at);
    if (reason !== undefined) return `${at === file ? '' : `${at}/ is `}${SKIPPED[reason] ?? reason}`;
  }
  return 'not found in the folder';
}
