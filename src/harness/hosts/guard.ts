/**
 * The guard around a strategy's `assemble`, the same in its own process and in this one: the
 * input is frozen, anything thrown or unreadable becomes a message, and what comes back is
 * copied out as JSON text under a size cap, by the rules of an answer (answer-rules.ts). Nothing a
 * strategy returns is read twice, so a getter or a Proxy cannot answer one way when checked and
 * another when used.
 */
import type { Strategy, StrategyInput, WaitingStrategy } from '../types.js';
import {
  type Answer,
  cappedJson,
  capText,
  describeThrown,
  EXTRAS_CAP,
  isA,
  Malformed,
  shapeOf,
} from './answer-rules.js';

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
