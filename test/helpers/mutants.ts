/**
 * Compilations broken on purpose, one rule at a time. Each generator edits an honest compilation
 * (as JSON, the way a file on disk would be edited) and then re-seals everything the edit did not
 * mean to break: positions, layout, hash, rendered text, trace positions, so that only its own
 * rule can catch it. `also` names the rules a generator cannot avoid breaking with it.
 */
import {
  type ContextBundle,
  type ContextCandidate,
  hashBundle,
  readBundle,
  renderBundleText,
  renderedCost,
} from '../../src/compiler/index.js';
import type { CheckInputs } from '../../src/harness/audit/compilation.js';
import type { ValidationRule } from '../../src/harness/types.js';
import { edited, nullPaths, PLANTED, withoutField } from './break-it.js';

// biome-ignore lint/suspicious/noExplicitAny: a mutant is edited as raw JSON, like a file would be.
type Json = any;

/** A compilation as `compile` writes it. */
export interface Doc {
  readonly bundle: Json;
  readonly result: Json;
  readonly rendered_text: string | null;
  /** `"own"` when the strategy laid the bundle out in its own order. */
  readonly layout?: 'own' | undefined;
}

export interface Generator {
  readonly rule: ValidationRule;
  readonly also?: readonly ValidationRule[];
  /**
   * More rules broken on the compiler's own compilations: their trace is re-derived by running
   * the compiler again on the inputs, so an edit of the inputs shows there too.
   */
  readonly alsoOnCompiler?: readonly ValidationRule[];
  readonly name: string;
  /** A mutant of `doc`, or null when this rule cannot be broken alone on it. */
  readonly make: (doc: Doc, inputs: CheckInputs, pick: (n: number) => number) => Mutant | null;
}

/** A broken compilation, and the inputs when the generator changed them too. */
export interface Mutant {
  readonly doc: Doc;
  readonly inputs?: CheckInputs | undefined;
}

/** Positions, layout, hash, rendered text and trace positions made to agree with the items. */
function reseal(doc: Json, inputs: CheckInputs, tokens = false): Doc {
  const items = doc.bundle.items as Json[];
  items.forEach((item, k) => {
    item.position = k;
  });
  doc.bundle.layout_trace = items.map((i) => i.id);
  const bundle = readBundle(doc.bundle);
  doc.result.bundle_hash = hashBundle(bundle);
  doc.rendered_text = renderBundleText(bundle, inputs.policy.frame);
  const at = new Map(items.map((i, k) => [i.id as string, k]));
  for (const e of doc.result.trace.entries)
    if (e.decision === 'ADMITTED') e.position = at.get(e.candidate_id) ?? null;
  if (tokens) doc.result.bundle_tokens = renderedCost(liveOf(bundle, inputs), inputs.request, inputs.policy);
  return doc;
}

const liveOf = (bundle: ContextBundle, inputs: CheckInputs): ContextCandidate[] => {
  const known = new Map(inputs.candidates.map((c) => [c.candidate_id, c]));
  return bundle.items.flatMap((i) => known.get(i.id) ?? []);
};

const success = (doc: Doc) => doc.bundle !== null && doc.bundle.items.length > 0;
const entries = (d: Json, decision?: string): Json[] =>
  d.result.trace.entries.filter((e: Json) => decision === undefined || e.decision === decision);

/** Edit one item of a bundle, re-sealed. */
const onItem =
  (edit: (item: Json, d: Json, inputs: CheckInputs) => void, seal = true) =>
  (doc: Doc, inputs: CheckInputs, pick: (n: number) => number): Mutant | null => {
    if (!success(doc)) return null;
    const d = structuredClone(doc) as Json;
    edit(d.bundle.items[pick(d.bundle.items.length)], d, inputs);
    return { doc: seal ? reseal(d, inputs) : d, inputs };
  };

/** Edit one trace entry with the given decision. */
const onEntry =
  (decision: string | undefined, edit: (e: Json) => unknown) =>
  (doc: Doc, inputs: CheckInputs, pick: (n: number) => number): Mutant | null => {
    const d = structuredClone(doc) as Json;
    const choices = entries(d, decision);
    if (choices.length === 0) return null;
    return edit(choices[pick(choices.length)]) === false ? null : { doc: d, inputs };
  };

/** Edit the candidate behind one item, in the inputs, and the item to match. */
const onCandidate =
  (edit: (c: Json, item: Json) => void) =>
  (doc: Doc, inputs: CheckInputs, pick: (n: number) => number): Mutant | null => {
    if (!success(doc)) return null;
    const d = structuredClone(doc) as Json;
    const item = d.bundle.items[pick(d.bundle.items.length)];
    const candidates = inputs.candidates.map((c) =>
      c.candidate_id === item.id ? structuredClone(c) : c,
    ) as Json[];
    edit(
      candidates.find((c) => c.candidate_id === item.id),
      item,
    );
    const next = { ...inputs, candidates };
    return { doc: reseal(d, next), inputs: next };
  };

/** Edit a refusal (a compilation without a bundle). */
const onRefusal =
  (change: (d: Json, pick: (n: number) => number) => void) =>
  (doc: Doc, _inputs: CheckInputs, pick: (n: number) => number): Mutant | null =>
    doc.bundle !== null ? null : { doc: edited<Json>(doc, (d) => change(d, pick)) };

export const GENERATORS: readonly Generator[] = [
  {
    rule: 'item',
    name: 'content edited',
    make: onItem((i) => {
      i.content += PLANTED.ledger;
    }),
  },
  {
    rule: 'item',
    name: 'token_count lowered',
    make: onItem((i) => {
      i.token_count = Math.max(0, i.token_count - 1 - (i.token_count > 5 ? 3 : 0));
    }),
  },
  {
    rule: 'item',
    name: 'source forged',
    make: onItem((i) => {
      i.source = 'forged-source';
    }),
  },
  {
    rule: 'item',
    name: 'kind forged',
    make: onItem((i) => {
      i.kind = `${i.kind}-forged`;
    }),
  },
  {
    rule: 'item',
    name: 'position off',
    make: onItem((i) => {
      i.position += 1;
    }, false),
  },
  {
    rule: 'item',
    also: ['legal'],
    name: 'item duplicated',
    make: onItem((i, d) => {
      const k = d.bundle.items.indexOf(i);
      d.bundle.items.splice(k + 1, 0, structuredClone(i));
    }),
  },
  {
    rule: 'trace',
    name: 'item deleted',
    make: (doc, inputs, pick) => {
      if (!success(doc)) return null;
      const known = new Map(inputs.candidates.map((c) => [c.candidate_id, c]));
      const ids = doc.bundle.items.map((i: Json) => i.id as string);
      // Only an item nothing else needs, so that legality does not notice the hole.
      const free = ids.filter((id: string) => {
        const c = known.get(id);
        return (
          c !== undefined &&
          !inputs.request.required_ids.includes(id) &&
          !(c.group_id && c.group_required) &&
          !ids.some((other: string) => known.get(other)?.depends_on.includes(id))
        );
      });
      if (free.length === 0) return null;
      const gone = free[pick(free.length)];
      const d = structuredClone(doc) as Json;
      d.bundle.items = d.bundle.items.filter((i: Json) => i.id !== gone);
      return { doc: reseal(d, inputs, true), inputs };
    },
  },
  {
    rule: 'trace',
    name: 'admission flipped to REJECTED_BUDGET',
    make: onEntry('ADMITTED', (e) => {
      Object.assign(e, {
        decision: 'REJECTED_BUDGET',
        reason_code: 'budget',
        position: null,
        pulled_in_by: [],
      });
    }),
  },
  {
    rule: 'trace',
    name: 'admitted position moved',
    make: onEntry('ADMITTED', (e) => {
      if (e.position === null) return false;
      e.position += 1;
    }),
  },
  {
    rule: 'trace',
    name: 'content identity swapped',
    make: onEntry(undefined, (e) => {
      e.content_identity += '-x';
    }),
  },
  {
    rule: 'trace',
    name: 'relevance edited',
    make: onEntry(undefined, (e) => {
      e.relevance += 0.25;
    }),
  },
  {
    rule: 'trace',
    name: 'a rejection spends budget',
    make: onEntry(undefined, (e) => {
      if (e.decision === 'ADMITTED' || e.reason_code === 'repair-drop' || e.budget_after <= 0) return false;
      e.budget_after -= 1;
    }),
  },
  {
    rule: 'hash',
    name: 'hash replaced',
    make: (doc) => {
      if (doc.bundle === null) return null;
      const d = structuredClone(doc) as Json;
      d.result.bundle_hash = `${d.result.bundle_hash.slice(1)}${d.result.bundle_hash[0] === '0' ? '1' : '0'}`;
      return { doc: d };
    },
  },
  {
    rule: 'tokens',
    name: 'bundle_tokens changed',
    make: (doc, _inputs, pick) => {
      if (doc.bundle === null) return null;
      const d = structuredClone(doc) as Json;
      d.result.bundle_tokens += pick(2) === 0 ? -1 - pick(20) : 1 + pick(20);
      return { doc: d };
    },
  },
  {
    rule: 'rendered',
    name: 'rendered_text edited',
    make: (doc) => {
      if (doc.bundle === null) return null;
      return {
        doc: { ...structuredClone(doc), rendered_text: `${doc.rendered_text}${PLANTED.ledger.trim()}\n` },
      };
    },
  },
  {
    rule: 'rendered',
    name: 'rendered_text on a refusal',
    make: (doc) => (doc.bundle === null ? { doc: { ...structuredClone(doc), rendered_text: 'text' } } : null),
  },
  {
    rule: 'order',
    name: 'two neighbours of different roles swapped',
    make: (doc, inputs, pick) => {
      if (!success(doc)) return null;
      const live = liveOf(readBundle(doc.bundle), inputs);
      const roles = inputs.policy.order_roles;
      const rank = (c: ContextCandidate) =>
        roles.includes(c.order_role) ? roles.lastIndexOf(c.order_role) : roles.length;
      const spots = live.flatMap((c, k) =>
        k > 0 && rank(live[k - 1] as ContextCandidate) !== rank(c) ? [k] : [],
      );
      if (spots.length === 0) return null;
      const k = spots[pick(spots.length)] as number;
      const d = structuredClone(doc) as Json;
      [d.bundle.items[k - 1], d.bundle.items[k]] = [d.bundle.items[k], d.bundle.items[k - 1]];
      return { doc: reseal(d, inputs), inputs };
    },
  },
  {
    rule: 'result',
    name: 'request_id changed',
    make: (doc) => ({
      doc: edited<Json>(doc, (d) => {
        d.result.request_id += '-x';
      }),
    }),
  },
  {
    rule: 'result',
    name: 'policy_version changed',
    make: (doc) => ({
      doc: edited<Json>(doc, (d) => {
        d.result.policy_version += '-x';
      }),
    }),
  },
  {
    rule: 'result',
    name: 'bundle_id changed',
    make: (doc) =>
      doc.bundle === null
        ? null
        : {
            doc: edited<Json>(doc, (d) => {
              d.result.bundle_id += '-x';
            }),
          },
  },
  {
    rule: 'result',
    name: 'failure budget_total changed',
    make: (doc) =>
      doc.bundle !== null
        ? null
        : {
            doc: edited<Json>(doc, (d) => {
              d.result.failure.budget_total += 1;
            }),
          },
  },
  {
    rule: 'trace',
    name: 'a position in a refusal',
    make: (doc, _inputs, pick) => {
      if (doc.bundle !== null || doc.result.trace.entries.length === 0) return null;
      const d = structuredClone(doc) as Json;
      d.result.trace.entries[pick(d.result.trace.entries.length)].position = 0;
      return { doc: d };
    },
  },
  // Issue 33: a refusal carries no bundle fields, and a field written as null is never deleted.
  {
    rule: 'hash',
    name: 'a refusal given a bundle_hash',
    make: onRefusal((d, pick) => {
      d.result.bundle_hash = pick(2) === 0 ? '0'.repeat(64) : 'forged';
    }),
  },
  {
    rule: 'tokens',
    name: 'a refusal given bundle_tokens',
    make: onRefusal((d, pick) => {
      d.result.bundle_tokens = pick(2) === 0 ? 5 : 0;
    }),
  },
  {
    rule: 'hash',
    name: 'bundle_hash deleted',
    make: (doc) => ({ doc: withoutField(doc, ['result', 'bundle_hash']) }),
  },
  {
    rule: 'tokens',
    name: 'bundle_tokens deleted',
    make: (doc) => ({ doc: withoutField(doc, ['result', 'bundle_tokens']) }),
  },
  {
    rule: 'trace',
    name: "a left-out candidate's null position deleted",
    make: (doc, _inputs, pick) => {
      const places = nullPaths(doc.result.trace.entries).filter((p) => p[1] === 'position');
      if (places.length === 0) return null;
      const at = places[pick(places.length)] as readonly (string | number)[];
      return { doc: withoutField(doc, ['result', 'trace', 'entries', ...at]) };
    },
  },
  {
    rule: 'frame',
    name: 'content forging the v1 frame',
    make: onCandidate((c, i) => {
      i.content = c.content = c.content + PLANTED.frame;
    }),
  },
  {
    rule: 'legal',
    alsoOnCompiler: ['trace'],
    name: 'an admitted candidate out of scope',
    make: onCandidate((c) => {
      c.scope_eligible = false;
    }),
  },
];
