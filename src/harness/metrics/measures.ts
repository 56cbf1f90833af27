/**
 * The measures the people who tune context assembly use, beside the book's metrics: where the
 * needed content lands in the window (the middle third is where long contexts lose it), how well
 * the rendered order ranks it, how much of the window is useful or repeated, how close to the
 * budget a bundle gets, and what the window is made of. Each is defined in docs/formats.md
 * ("Measures") and catalogued in catalogue.ts. Like scores.ts, a reader of the ledger.
 */
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  headerCost,
  itemRenderCost,
  REQUIREMENT_CLASSES,
  type RequirementClass,
  separatorCost,
} from '../../compiler/index.js';
import { classOf, mustContents } from '../corpus/index.js';
import type { CaseLedger, Composition, EvalClass, Measures, Placed } from '../types.js';

/**
 * Graded gains for nDCG: the ledger's order, must above should above unlabelled (`optional`)
 * above distractor above harmful, on a linear scale with harmful worth nothing.
 */
export const GAIN: Readonly<Record<EvalClass, number>> = {
  must: 4,
  should: 3,
  optional: 2,
  distractor: 1,
  harmful: 0,
};

/** Words per shingle, and the share of an item's shingles already seen that makes it a near-duplicate (Broder's resemblance test uses a high bar too: a one-word change in a short sentence is not a repeat). */
export const SHINGLE_WORDS = 4;
export const NEAR_DUPLICATE = 0.8;

/** A bundle as laid out: its candidates in rendered order, and what it was asked under. */
export interface LaidOut {
  readonly live: readonly ContextCandidate[];
  readonly request: ContextRequest;
  readonly policy: CompilerPolicy;
  readonly renderedTokens: number;
  readonly budget: number;
  /** What the strategy said beside its answer: `ranked`, its ranking of contents, best first, if any. */
  readonly extras?: Readonly<Record<string, unknown>>;
}

interface Span {
  readonly c: ContextCandidate;
  readonly cls: EvalClass;
  readonly start: number;
  readonly tokens: number;
}

/** Each item's place on the rendered ruler: the header first, a separator between neighbours. */
function spans(b: LaidOut, ledger: CaseLedger): Span[] {
  const sep = separatorCost(b.policy);
  let at = headerCost(b.request, b.policy);
  return b.live.map((c, k) => {
    if (k > 0) at += sep;
    const span = {
      c,
      cls: classOf(ledger, c.content_identity),
      start: at,
      tokens: itemRenderCost(c, b.policy),
    };
    at += span.tokens;
    return span;
  });
}

/** Tokens of [start, start + tokens) inside [low, high). */
const overlap = (s: Span, low: number, high: number): number =>
  Math.max(0, Math.min(s.start + s.tokens, high) - Math.max(s.start, low));

const dcg = (gains: readonly number[]): number => gains.reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);

/**
 * nDCG at the bundle's length. Gain belongs to a content, not to a form of it: a content is
 * credited once, at its first place in the rendered order, and a further form of it gains nothing
 * (the reader learns nothing new from it, as a repeated document earns nothing in IR evaluation).
 * Every form of a content has the same gain (the ledger judges contents), so its first place is
 * also its best-credited one. The ideal takes the best contents of the pool (and of the bundle,
 * should it hold one the pool has not), each once; so the bundle's DCG never exceeds it, and nDCG
 * lies in [0, 1]. Crediting each form would let a bundle holding two forms of one must content
 * score above the ideal that counts it once.
 */
function ndcg(laid: readonly Span[], pool: readonly ContextCandidate[], ledger: CaseLedger): number | null {
  if (laid.length === 0) return null;
  const known = poolFacts(pool, ledger);
  const more = new Set(laid.map((s) => s.c.content_identity).filter((i) => !known.identities.has(i)));
  const best =
    more.size === 0
      ? known.gains
      : [...known.gains, ...[...more].map((i) => GAIN[classOf(ledger, i)])].sort((a, b) => b - a);
  const ideal = dcg(best.slice(0, laid.length));
  const credited = new Set<string>();
  const gains = laid.map((s) => {
    const first = !credited.has(s.c.content_identity);
    credited.add(s.c.content_identity);
    return first ? GAIN[s.cls] : 0;
  });
  return ideal === 0 ? null : dcg(gains) / ideal;
}

/** What the measures read of a whole pool under its ledger: the same for each of a case's cells. */
interface PoolFacts {
  readonly identities: ReadonlySet<string>;
  readonly gains: readonly number[]; // each content's, largest first
  /** The form_rank of each content's form the ledger names sufficient, where the pool has it. */
  readonly floor: ReadonlyMap<string, number>;
}

const factsOf = new WeakMap<readonly ContextCandidate[], WeakMap<CaseLedger, PoolFacts>>();

/** A pool's facts, kept with a frozen pool (a corpus's cannot change), made again for another. */
function poolFacts(pool: readonly ContextCandidate[], ledger: CaseLedger): PoolFacts {
  const kept = factsOf.get(pool)?.get(ledger);
  if (kept !== undefined) return kept;
  const identities = new Set(pool.map((c) => c.content_identity));
  const floor = new Map<string, number>();
  for (const c of pool)
    if (c.representation_id === ledger.identity_truth[c.content_identity]?.min_representation)
      floor.set(c.content_identity, c.form_rank);
  const facts = {
    identities,
    gains: [...identities].map((i) => GAIN[classOf(ledger, i)]).sort((a, b) => b - a),
    floor,
  };
  if (Object.isFrozen(pool)) {
    const byLedger = factsOf.get(pool) ?? new WeakMap<CaseLedger, PoolFacts>();
    byLedger.set(ledger, facts);
    factsOf.set(pool, byLedger);
  }
  return facts;
}

/** Lower-cased runs of letters and digits, in windows of SHINGLE_WORDS (a shorter text is one shingle). */
export function shingles(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out = new Set<string>();
  if (words.length === 0) return out;
  const last = Math.max(0, words.length - SHINGLE_WORDS);
  for (let k = 0; k <= last; k++) out.add(words.slice(k, k + SHINGLE_WORDS).join(' '));
  return out;
}

/**
 * The most shingles kept made (some 70 bytes each): a study measures the same contents in many
 * bundles (each strategy's, at each budget, of a case), so each content's are made once while it
 * is in use, and all are let go when the next would pass this.
 */
const SHINGLE_MEMORY = 1_000_000;
const made = new Map<string, Set<string>>();
let kept = 0;

function shinglesOf(text: string): Set<string> {
  let own = made.get(text);
  if (own === undefined) {
    own = shingles(text);
    if (kept + own.size > SHINGLE_MEMORY) {
      made.clear();
      kept = 0;
    }
    made.set(text, own);
    kept += own.size;
  }
  return own;
}

/** Tokens of the items whose shingles were, NEAR_DUPLICATE or more of them, seen in items before. */
function redundantTokens(laid: readonly Span[]): number {
  const seen = new Set<string>();
  let redundant = 0;
  for (const s of laid) {
    const own = shinglesOf(s.c.content);
    let old = 0;
    for (const x of own) if (seen.has(x)) old++;
    if (own.size > 0 && old / own.size >= NEAR_DUPLICATE) redundant += s.tokens;
    for (const x of own) seen.add(x);
  }
  return redundant;
}

function composition(laid: readonly Span[], total: number): Composition {
  const roles: Record<string, number> = {};
  const classes = Object.fromEntries(REQUIREMENT_CLASSES.map((k) => [k, 0])) as Record<
    RequirementClass,
    number
  >;
  let items = 0;
  for (const s of laid) {
    roles[s.c.order_role] = (roles[s.c.order_role] ?? 0) + s.tokens;
    classes[s.c.requirement] += s.tokens;
    items += s.tokens;
  }
  return { frame: total - items, roles, classes };
}

/**
 * Of `must`, the share the bundle holds in the ledger's sufficient form or a fuller one: a form
 * whose `form_rank` is at least that of the pool's form named `min_representation`. A content
 * whose named form the pool lacks is held sufficiently only in a form of that very name.
 */
function sufficientRecall(
  laid: readonly Span[],
  pool: readonly ContextCandidate[],
  ledger: CaseLedger,
  must: readonly string[],
): number | null {
  if (must.length === 0) return null;
  const { floor } = poolFacts(pool, ledger);
  const held = new Set(
    laid
      .filter((s) => {
        const needed = ledger.identity_truth[s.c.content_identity]?.min_representation;
        const rank = floor.get(s.c.content_identity);
        return rank === undefined ? s.c.representation_id === needed : s.c.form_rank >= rank;
      })
      .map((s) => s.c.content_identity),
  );
  return must.filter((i) => held.has(i)).length / must.length;
}

/** The strategy's published ranking (a list of content identities), or null with none or no must content to rank. */
function rankingOf(extras: LaidOut['extras'], must: readonly string[]): readonly string[] | null {
  const ranked = extras?.ranked;
  return must.length === 0 || !Array.isArray(ranked) || !ranked.every((i) => typeof i === 'string')
    ? null
    : ranked;
}

/**
 * 1 / the rank of the first must content in the strategy's `extras.ranked`, 0 with none there;
 * null when it published no ranking (a list of strings) or the case has no must content.
 */
function rankedRR(extras: LaidOut['extras'], must: readonly string[]): number | null {
  const ranked = rankingOf(extras, must);
  if (ranked === null) return null;
  const wanted = new Set(must);
  const rank = ranked.findIndex((i) => wanted.has(i)) + 1;
  return rank === 0 ? 0 : 1 / rank;
}

/**
 * The rank in the strategy's `extras.ranked` by which every must content has appeared (file
 * accuracy at k is this rank being 1 to k), 0 when the ranking lacks one, a must content outside
 * the pool included; null as for `rankedRR`.
 */
function rankedAllRank(extras: LaidOut['extras'], must: readonly string[]): number | null {
  const ranked = rankingOf(extras, must);
  if (ranked === null) return null;
  let last = 0;
  for (const id of must) {
    const rank = ranked.indexOf(id) + 1;
    if (rank === 0) return 0;
    last = Math.max(last, rank);
  }
  return last;
}

const meanOf = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;

/** The measures of one bundle against its case's ledger and pool. */
export function measureBundle(b: LaidOut, pool: readonly ContextCandidate[], ledger: CaseLedger): Measures {
  const laid = spans(b, ledger);
  const total = b.renderedTokens;
  const needed = laid.filter((s) => s.cls === 'must' || s.cls === 'should');
  const must = needed.filter((s) => s.cls === 'must');
  const mustTokens = must.reduce((n, s) => n + s.tokens, 0);
  const middle = must.reduce((n, s) => n + overlap(s, total / 3, (2 * total) / 3), 0);
  const firstMust = laid.findIndex((s) => s.cls === 'must');
  const mustAll = mustContents(ledger);
  const caseHasMust = mustAll.length > 0;
  return {
    must_middle_share: mustTokens === 0 ? null : middle / mustTokens,
    mean_position: total === 0 ? null : meanOf(needed.map((s) => s.start / total)),
    ndcg: ndcg(laid, pool, ledger),
    first_must_rr: caseHasMust ? (firstMust < 0 ? 0 : 1 / (firstMust + 1)) : null,
    must_sufficient_recall: sufficientRecall(laid, pool, ledger, mustAll),
    ranked_must_rr: rankedRR(b.extras, mustAll),
    ranked_all_must_rank: rankedAllRank(b.extras, mustAll),
    useful_share: total === 0 ? 0 : needed.reduce((n, s) => n + s.tokens, 0) / total,
    must_token_share: total === 0 ? 0 : mustTokens / total,
    redundant_tokens: redundantTokens(laid),
    budget_use: b.budget === 0 ? null : total / b.budget,
    overshoot_tokens: Math.max(0, total - b.budget),
    positions: needed.map(
      (s): Placed => ({
        id: s.c.candidate_id,
        class: s.cls as Placed['class'],
        start: s.start,
        tokens: s.tokens,
      }),
    ),
    composition: composition(laid, total),
  };
}
