/**
 * The rules of a strategy's answer, which the guard (guard.ts) applies where the strategy runs and
 * the harness applies again where the answer is measured, since a strategy's process can send
 * anything: its shape (admitted or a refusal, a trace, extras, a layout), the caps on its JSON and
 * on any one text, and how a text past its cap is cut.
 */
import { isPlainObject } from '../../compiler/index.js';
import { escapeBreaks } from '../errors.js';

/** The most JSON a strategy's `extras` may take, per compilation (docs/reliability.md, "Limits"). */
export const EXTRAS_CAP = 64 * 1024;
/** The most JSON a whole selection may take: ids and a trace, which grow with the pool. */
export const SELECTION_CAP = 256 * 1024 * 1024;

/**
 * The most characters of any one text a strategy puts in a row, a compilation or a message (an
 * error, a refusal's reason or diagnostic, an id, a trace's words): far above what an honest
 * strategy writes (under 200), far below what would swell a run folder or a terminal.
 */
export const TEXT_CAP = 4096;

/**
 * A strategy's text as ctxbench keeps it: at most TEXT_CAP characters, the rest cut and counted
 * in a marker at the end. The cut depends on the text alone, and a cut text is kept as it is, so
 * a row measured again from its run folder comes out the same.
 */
export function cutText(text: string): string {
  if (text.length <= TEXT_CAP) return text;
  // The marker's count has at most as many digits as the length, so this much always fits.
  let keep = TEXT_CAP - marker(text.length).length;
  // Never half a surrogate pair: the kept text stays well-formed.
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return `${text.slice(0, keep)}${marker(text.length - keep)}`;
}

const marker = (cut: number) => ` …[${cut} more characters cut]`;

/**
 * A strategy's message (why its cell failed) as ctxbench keeps it: one line, since it is printed
 * as a line of stderr, cut as any text. Kept as it is when it comes back (`validate`).
 */
export const cutMessage = (text: string): string => cutText(escapeBreaks(text));

/** A strategy's answer: its selection as JSON text, or why there is none. */
export type Answer =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly message: string };

/** A selection that breaks the plug-in contract: its message starts "returned a malformed selection". */
export class Malformed extends Error {}

/** `instanceof` that a thrown Proxy cannot turn into a second throw. */
export function isA(e: unknown, kind: abstract new (...args: never[]) => unknown): boolean {
  try {
    return e instanceof kind;
  } catch {
    return false;
  }
}

export function shapeOf(selection: unknown) {
  if (!isPlainObject(selection)) throw new Malformed('not an object');
  const admits = 'admitted' in selection;
  if (admits && 'refusal' in selection) throw new Malformed('both admitted and refusal');
  if (!admits && !('refusal' in selection)) throw new Malformed('neither admitted nor refusal');
  const extras = selection.extras ?? {};
  if (!isPlainObject(extras)) throw new Malformed('extras is not an object');
  return { selection, admits, extras, layout: layoutOf(selection.layout, admits) };
}

/** A selection's `layout`, read once: absent or "policy" lays out by role, "own" as admitted. */
function layoutOf(layout: unknown, admits: boolean): 'policy' | 'own' {
  if (layout === undefined) return 'policy';
  if (!admits) throw new Malformed('layout on a refusal: only a bundle is laid out');
  if (layout !== 'policy' && layout !== 'own')
    throw new Malformed(`layout ${describeValue(layout)} is neither "policy" nor "own"`);
  return layout;
}

/** A short description of a value that may be anything, for a message. */
function describeValue(x: unknown): string {
  if (typeof x === 'string') return JSON.stringify(x.slice(0, 40));
  return x === null ? 'null' : typeof x;
}

export function capText(text: string): string {
  if (text.length > SELECTION_CAP)
    throw new Malformed(`it takes ${text.length} characters of JSON, over the cap of ${SELECTION_CAP}`);
  return text;
}

/**
 * A selection's JSON text as data, every rule of the contract checked again: the text came from
 * a strategy's process, which may have sent anything. Throws `Malformed`.
 */
export function readSelection(text: unknown): {
  readonly selection: Record<string, unknown>;
  readonly extras: Record<string, unknown>;
  readonly layout: 'policy' | 'own';
} {
  if (typeof text !== 'string') throw new Malformed('the answer is not text');
  let value: unknown;
  try {
    value = JSON.parse(capText(text));
  } catch (e) {
    if (isA(e, Malformed)) throw e;
    throw new Malformed('the answer is not JSON');
  }
  const { selection, extras, layout } = shapeOf(value);
  cappedJson(extras, EXTRAS_CAP, 'extras');
  return { selection, extras, layout };
}

/** Whether a message is an answer as the guard makes them: a strategy's process may send anything. */
export const isAnswer = (x: unknown): x is Answer =>
  isPlainObject(x) &&
  ((x.ok === true && typeof x.text === 'string') || (x.ok === false && typeof x.message === 'string'));

/**
 * JSON text of at most `cap` characters. The count runs while writing, so a value of gigabytes
 * is stopped near the cap instead of first being written whole.
 */
export function cappedJson(value: unknown, cap: number, what: string): string {
  let size = 0;
  const over = () =>
    new Malformed(`${what} takes more than ${cap} characters of JSON (the cap per compilation)`);
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (key, v: unknown) => {
      size += key.length + (typeof v === 'string' ? v.length : 8);
      if (size > cap) throw over();
      return v;
    });
  } catch (e) {
    if (isA(e, Malformed)) throw e;
    throw new Malformed(`${what} cannot be written as JSON (${describeThrown(e)})`);
  }
  if (text === undefined || text.length > cap) throw over();
  return text;
}

/** Any thrown value as one line of text, even one with no prototype or a throwing `toString`. */
export function describeThrown(e: unknown): string {
  let text: string;
  try {
    text = e instanceof Error ? `${e.message}` : String(e);
  } catch {
    try {
      text = Object.prototype.toString.call(e);
    } catch {
      text = 'a value that cannot be described';
    }
  }
  return text.split('\n')[0] as string;
}
