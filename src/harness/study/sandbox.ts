/**
 * The guard around a strategy's `assemble`, the same in its own process and in this one: the
 * input is frozen, anything thrown or unreadable becomes a message, and what comes back is
 * copied out as JSON text under a size cap. Nothing a strategy returns is read twice, so a
 * getter or a Proxy cannot answer one way when checked and another when used.
 */
import { isPlainObject } from '../../compiler/index.js';
import { escapeBreaks } from '../errors.js';
import type { Strategy, StrategyInput, WaitingStrategy } from '../types.js';

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

const deeplyFrozen = new WeakSet<object>();

const frozenMap = (name: string) => () => {
  throw new TypeError(`Cannot ${name}: the map is frozen`);
};

/**
 * Freeze a value and everything it holds, Maps included (their `set`, `delete` and `clear`
 * throw), so that a change is a TypeError in the strategy that tries it, never a change seen by
 * another cell.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const x = stack.pop();
    // Not Object.isFrozen: something frozen only on top may still hold what can change.
    if (typeof x !== 'object' || x === null || deeplyFrozen.has(x)) continue;
    deeplyFrozen.add(x);
    if (x instanceof Map) {
      for (const name of ['set', 'delete', 'clear'])
        Object.defineProperty(x, name, { value: frozenMap(name), enumerable: false });
      for (const [k, v] of x) stack.push(k, v);
    } else if (x instanceof Set) {
      for (const name of ['add', 'delete', 'clear'])
        Object.defineProperty(x, name, { value: frozenMap(name), enumerable: false });
      for (const v of x) stack.push(v);
    }
    Object.freeze(x);
    for (const key of Reflect.ownKeys(x)) stack.push((x as Record<PropertyKey, unknown>)[key]);
  }
  return value;
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

/** V8's words for a write to something frozen. */
const FROZEN_WRITE =
  /read only property|not extensible|Cannot delete property|Cannot redefine|the map is frozen/;

/** Run `assemble` on a frozen input and copy its selection out; never throws. */
export function assembleGuarded(strategy: Strategy, input: StrategyInput): Answer {
  const called = call(strategy, input);
  if (!called.ok) return called;
  // Only a strategy's process, or a study run here, awaits: this caller is synchronous.
  if (isA(called.selection, Promise))
    return { ok: false, message: `${strategy.name} returned a promise, which only a study awaits` };
  return copyOut(strategy.name, called.selection);
}

/**
 * `assembleGuarded` for a strategy whose library renders only asynchronously (a peer such as
 * prompt-tsx): a promise it returns is awaited, a rejection is a throw. For every synchronous
 * strategy the answer is the same as `assembleGuarded`'s.
 */
export async function assembleAwaited(strategy: WaitingStrategy, input: StrategyInput): Promise<Answer> {
  const called = call(strategy, input);
  if (!called.ok) return called;
  let selection = called.selection;
  if (isA(selection, Promise)) {
    try {
      selection = await selection;
    } catch (e) {
      return thrown(strategy.name, e);
    }
  }
  return copyOut(strategy.name, selection);
}

function call(
  strategy: Strategy | WaitingStrategy,
  input: StrategyInput,
): { readonly ok: true; readonly selection: unknown } | { readonly ok: false; readonly message: string } {
  try {
    return { ok: true, selection: strategy.assemble(deepFreeze(input)) };
  } catch (e) {
    return thrown(strategy.name, e);
  }
}

function thrown(name: string, e: unknown): { readonly ok: false; readonly message: string } {
  const text = describeThrown(e);
  if (isA(e, TypeError) && FROZEN_WRITE.test(text))
    return { ok: false, message: `${name} tried to change its input, which is read-only: ${text}` };
  return { ok: false, message: `${name} threw: ${text}` };
}

function copyOut(name: string, selection: unknown): Answer {
  try {
    return { ok: true, text: selectionText(selection) };
  } catch (e) {
    if (isA(e, Malformed))
      return { ok: false, message: `${name} returned a malformed selection: ${describeThrown(e)}` };
    return { ok: false, message: `${name} returned a selection that cannot be read: ${describeThrown(e)}` };
  }
}

/** `instanceof` that a thrown Proxy cannot turn into a second throw. */
function isA(e: unknown, kind: abstract new (...args: never[]) => unknown): boolean {
  try {
    return e instanceof kind;
  } catch {
    return false;
  }
}

/**
 * The selection as JSON text: each field the contract names read once, into a plain object.
 * Copying needs only these checks; `readSelection` checks the text again where it is measured,
 * since a strategy's process can send anything.
 */
function selectionText(selection: unknown): string {
  const o = shapeOf(selection);
  const copy = {
    ...(o.admits ? { admitted: o.selection.admitted } : { refusal: o.selection.refusal }),
    // Written only when it changes something, so a published strategy's answer stays as it was.
    ...(o.layout === 'own' ? { layout: o.layout } : {}),
    trace: o.selection.trace,
    extras: JSON.parse(cappedJson(o.extras, EXTRAS_CAP, 'extras')),
  };
  return capText(JSON.stringify(copy));
}

function shapeOf(selection: unknown) {
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

function capText(text: string): string {
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
function cappedJson(value: unknown, cap: number, what: string): string {
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
