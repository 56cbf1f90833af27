/**
 * priompt (Cursor's prompt renderer) as a peer: its priority cutoff, by its documented algorithm.
 *
 * What it follows. anysphere/priompt README.md at 7f2d153c99b32aafd8785f61f0aac56aa772b420 (the
 * renderer's promise: the prompt is Prompt(p*), every scope with priority >= p* and no other, p*
 * the lowest cutoff whose rendering fits the token limit) and priompt/src/lib.ts at
 * 12a98ac61ed95d768693b71aa398e894a6b87664: `computePriority` (a scope's `p` if it has one, else
 * its parent's priority plus its `prel`), `computePriorityLevels` (the set of scope priorities
 * plus BASE_PRIORITY = 1e9, the priority of everything outside a scope), `renderBinarySearch`
 * (exclusive lower bound -1, inclusive upper bound the last level, probe floor((lo + hi) / 2):
 * over the limit raises lo, else lowers hi; render at hi) and `renderWithLevel` (tree order,
 * a scope kept when its priority >= the cutoff). Checked against @impowering/priompt 0.2.1's
 * dist/lib.js, the same code.
 *
 * Why not the package itself. @impowering/priompt 0.2.1 cannot run in a strategy's process:
 * its module loads @anysphere/tiktoken-node, a native addon, at import, and Node 20's permission
 * model refuses it (ERR_DLOPEN_DISABLED, seen from dist/ with only dist/, package.json and
 * node_modules readable); its import also builds a hot-shots StatsD client that sends UDP to
 * 127.0.0.1:8125 on every render, and `render` is async while `assemble` is synchronous. The
 * package was then dropped from package.json (its lock named tiktoken-node platform packages
 * the registry lacks). So this file implements the algorithm above; the token count it probes
 * with is the study's own (declared token_count plus the kit's overhead: `costOf`), where
 * priompt would call its tokenizer.
 *
 * How a pool maps onto priompt. The default form of each content (its text), one `<scope>` per
 * item inside one outer `<scope p=...>` per requirement class (after the request's promotion of
 * named ids to REQUIRED), MANDATORY first; the item's `prel` is minus the rank of its relevance
 * among the class's distinct relevances, so equal relevance is equal priority, as a priompt user
 * who scores by relevance would get. Class bands never overlap (p = rank x (n + 1), rank 4 for
 * MANDATORY down to 1 for DISCRETIONARY, in a pool of n). The bundle header is the unscoped base
 * prompt, at BASE_PRIORITY. The bundle is laid out in priompt's rendered (tree) order: class,
 * then relevance, then id (`layout: 'own'`).
 *
 * What it cannot express, and ignores: the hard gates (scope, freshness, authority, form floors:
 * priompt renders what it is given), non-default forms, dependencies, groups and coverage. Items
 * at one priority stand or fall together, so a tie at the cutoff drops the whole tie. When even
 * the base prompt (the header) overruns the limit, priompt throws TooManyTokensForBasePriority:
 * that is a refusal carrying its message. Nothing else refuses: a MANDATORY item that does not
 * fit is dropped in silence, as priompt drops any scope below the cutoff.
 */
import {
  byCandidateId,
  type ContextCandidate,
  costOf,
  defaultFormPool,
  promotedClass,
  type RequirementClass,
  type Strategy,
  type StrategyInput,
} from '../src/harness/kit/index.js';

/** Each outer scope's rank, strongest highest: its absolute priority is this rank's band. */
const RANK: Readonly<Record<RequirementClass, number>> = {
  MANDATORY: 4,
  REQUIRED: 3,
  PREFERRED: 2,
  DISCRETIONARY: 1,
};

/** priompt's priority of everything outside a scope: always rendered. */
export const BASE_PRIORITY = 1e9;

/** A priompt `<scope>`: absolute `p` or relative `prel`, its children items or scopes. */
export interface Scope {
  readonly p?: number | undefined;
  readonly prel?: number | undefined;
  readonly children: readonly Node[];
}
/** A leaf: one candidate's text. */
export type Node = Scope | ContextCandidate;

const isScope = (n: Node): n is Scope => 'children' in n;

/** priompt's computePriority: `p` takes precedence over `prel`, which adds to the parent's. */
const priorityOf = (s: Scope, parent: number): number => s.p ?? parent + (s.prel ?? 0);

/** The distinct scope priorities plus BASE_PRIORITY, ascending (computePriorityLevels). */
export function priorityLevels(root: readonly Node[]): number[] {
  const levels = new Set<number>([BASE_PRIORITY]);
  const walk = (nodes: readonly Node[], parent: number): void => {
    for (const n of nodes)
      if (isScope(n)) {
        const p = priorityOf(n, parent);
        levels.add(p);
        walk(n.children, p);
      }
  };
  walk(root, BASE_PRIORITY);
  return [...levels].sort((a, b) => a - b);
}

/** The items a render at `level` keeps, in tree order (renderWithLevel). */
export function renderAt(root: readonly Node[], level: number): ContextCandidate[] {
  const kept: ContextCandidate[] = [];
  const walk = (nodes: readonly Node[], parent: number): void => {
    for (const n of nodes) {
      if (!isScope(n)) kept.push(n);
      else {
        const p = priorityOf(n, parent);
        if (p >= level) walk(n.children, p);
      }
    }
  };
  walk(root, BASE_PRIORITY);
  return kept;
}

/** What renderBinarySearch found: the cutoff, what it keeps and costs, the levels it probed. */
export interface Render {
  readonly cutoff: number;
  readonly kept: readonly ContextCandidate[];
  readonly tokens: number;
  readonly probes: readonly number[];
}

/**
 * priompt's renderBinarySearch over the sorted levels, counting with `count`. Returns the final
 * render even when it overruns: the caller turns that into TooManyTokensForBasePriority.
 */
export function renderBinarySearch(
  root: readonly Node[],
  limit: number,
  count: (kept: readonly ContextCandidate[]) => number,
): Render {
  const levels = priorityLevels(root);
  const at = (i: number): number => levels[i] ?? BASE_PRIORITY;
  const probes: number[] = [];
  let exclusiveLower = -1;
  let inclusiveUpper = levels.length - 1;
  while (exclusiveLower < inclusiveUpper - 1) {
    const mid = Math.floor((exclusiveLower + inclusiveUpper) / 2);
    probes.push(at(mid));
    if (count(renderAt(root, at(mid))) > limit) exclusiveLower = mid;
    else inclusiveUpper = mid;
  }
  const cutoff = at(inclusiveUpper);
  const kept = renderAt(root, cutoff);
  return { cutoff, kept, tokens: count(kept), probes };
}

/** The prompt a priompt user would write for this pool: the header, then one scope per class. */
export function promptOf(input: StrategyInput): Node[] {
  const pool = defaultFormPool(input.candidates);
  const named = new Set(input.request.required_ids);
  const band = pool.length + 1;
  const members = new Map<RequirementClass, ContextCandidate[]>();
  for (const c of pool) {
    const k = promotedClass(c, named);
    members.set(k, [...(members.get(k) ?? []), c]);
  }
  return [...members]
    .sort(([a], [b]) => RANK[b] - RANK[a])
    .map(([k, list]) => {
      list.sort((a, b) => b.relevance - a.relevance || byCandidateId(a, b));
      const distinct = [...new Set(list.map((c) => c.relevance))];
      const children = list.map((c) => ({ prel: -(distinct.indexOf(c.relevance) + 1), children: [c] }));
      return { p: RANK[k] * band, children };
    });
}

/** priompt's TooManyTokensForBasePriority message, word for word (emptyTokenCount is 0 here). */
export const baseTooBig = (tokens: number, limit: number): string =>
  `Base prompt estimated token count is ${tokens} with 0 tokens reserved, which is higher than the limit ${limit}. This is probably a bug in the prompt — please add some priority levels to fix this.`;

const priompt: Strategy = {
  name: 'priompt',
  description: "priompt's priority cutoff: class as absolute priority, relevance as relative, binary search",
  assemble(input) {
    const root = promptOf(input);
    const found = renderBinarySearch(root, input.budget, (kept) => costOf(kept, input));
    const extras = {
      priority_cutoff: found.cutoff,
      levels: priorityLevels(root).length,
      probes: found.probes,
    };
    if (found.tokens > input.budget) {
      return {
        refusal: {
          reason: 'INSUFFICIENT_BUDGET',
          diagnostic: `TooManyTokensForBasePriority: ${baseTooBig(found.tokens, input.budget)}`,
        },
        extras,
      };
    }
    return { admitted: found.kept.map((c) => c.candidate_id), layout: 'own', extras };
  },
};

export default priompt;
