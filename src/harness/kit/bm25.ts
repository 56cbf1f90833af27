/**
 * The retrieval of the SWE-bench paper (Jimenez et al., ICLR 2024, Table 3) on a ctxbench pool,
 * shared by the strategies that run it (`bm25`, `bm25-swe`), which differ only in the documents
 * they index. It ranks whole files against the task by BM25 as Pyserini scores them (lucene.ts:
 * Anserini's default English analyzer, k1 0.9, b 0.4) and adds them whole, best first, after the
 * prompt. It reads the candidates' texts only, never their `relevance`.
 *
 * Where the paper is silent, its code decides (SWE-bench's inference/make_datasets:
 * bm25_retrieval.py and create_instance.py, the same in every revision up to SWE-bench/SWE-bench
 * at 10e9ca047cfc), else this module does:
 * - the prompt: every content with a MANDATORY form or in the role `task` or `instruction` (the
 *   issue, and the instructions the paper's prompt wraps it in), in its default form and the
 *   policy's role order, admitted first and whole; when the prompt alone overruns the budget the
 *   answer is a refusal (INSUFFICIENT_BUDGET), not a bundle without its task;
 * - the query: the text of the MANDATORY `task` candidates (the problem statement), joined by
 *   line breaks in id order; the task candidates of any class when none is MANDATORY. A query of
 *   more than 1,024 tokens is cut as SWE-bench's `search` cuts it (lucene.ts, `queryTerms`);
 * - a document: every other content with a form named `full`, its text the content identity
 *   (the path), a line break and that form's content without its `File: <path>` label line, as
 *   SWE-bench's `file_name_and_contents` writes a document. A content without a `full` form is
 *   not a file's whole text (an outline, a path list): it is not indexed and never admitted. A
 *   strategy may index fewer of them (`Bm25Variant.index`): the index is those documents of the
 *   case's own pool, one index per case as SWE-bench builds one per instance, so its document
 *   frequencies are theirs alone;
 * - the ranking: by score, ties by content identity in code-unit order (Lucene breaks ties by
 *   its document number, and SWE-bench writes documents in file-list order); a document holding
 *   no query term is not a hit (Lucene does not return it);
 * - the hits: the 20 best (`searcher.search(..., k=20)`); files beyond them are never added;
 * - the fill: each hit in rank order whose full form still fits the budget, priced by the
 *   harness's ruler; one that does not fit is skipped and the next is tried, as create_instance.py
 *   `add_text_inputs` does (`if cur_input_len + len(tokens) < max_context_len`, no `break`). The
 *   other reading, stop at the first file that does not fit, is `fill: 'stop'`;
 * - the layout (`layout: 'own'`): the prompt, then the files in rank order (the paper's prompt
 *   puts the issue before the code; it lists the code by path, a layout no measure here reads).
 * Not reproduced: the repository's README files the paper's prompt always carries, and its
 * instructions and example patch; the prompt's tokens are the pool's own prompt candidates.
 * Ignored, as the paper's retrieval knows none of them: relevance, requirement classes other than
 * MANDATORY, the hard gates (a generated or vendored file can be retrieved), form floors,
 * dependencies and groups. `extras.ranked` lists the hits in rank order, `extras.skipped` how
 * many hits did not fit.
 */
import { type ContextCandidate, orderByRole, renderedIncrement } from '../../compiler/index.js';
import type { Selection, StrategyInput } from '../types.js';
import { defaultFormPool } from './baselines.js';
import { bm25Scores, type Indexed, indexed, queryTerms } from './lucene.js';
import { costOf } from './ruler.js';
import { selectionTrace, type Why } from './strategy-trace.js';

/** How many hits SWE-bench's retrieval keeps (`k=20`). */
export const HITS = 20;
export type Fill = 'skip' | 'stop';
const PROMPT_ROLES: ReadonlySet<string> = new Set(['task', 'instruction']);
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A form's text as the repository has it: without the `File: <path>` line an ingested pool
 * starts each form with (pool-builder.ts), which no peer would see in the file and a tag query
 * would read as code.
 */
export function sourceText(form: ContextCandidate): string {
  const text = form.content;
  if (!text.startsWith('File: ')) return text;
  const newline = text.indexOf('\n');
  return newline < 0 ? '' : text.slice(newline + 1);
}

/** A document's text: its path, a line break, the file without the pool's `File: ` label. */
export const documentText = (full: ContextCandidate): string =>
  `${full.content_identity}\n${sourceText(full)}`;

/** The prompt (default forms, role order) and each other content's `full` form, by path. */
export function splitPool(candidates: readonly ContextCandidate[]): {
  readonly prompt: ContextCandidate[];
  readonly documents: ContextCandidate[];
  readonly query: string;
} {
  const inPrompt = new Set(
    candidates
      .filter((c) => c.requirement === 'MANDATORY' || PROMPT_ROLES.has(c.order_role))
      .map((c) => c.content_identity),
  );
  const prompt = defaultFormPool(candidates).filter((c) => inPrompt.has(c.content_identity));
  const full = new Map<string, ContextCandidate>();
  for (const c of candidates) {
    if (c.representation_id !== 'full' || inPrompt.has(c.content_identity)) continue;
    const best = full.get(c.content_identity);
    const better =
      best === undefined ||
      c.form_rank > best.form_rank ||
      (c.form_rank === best.form_rank && byCode(c.candidate_id, best.candidate_id) < 0);
    if (better) full.set(c.content_identity, c);
  }
  const tasks = prompt.filter((c) => c.order_role === 'task');
  const mandatory = tasks.filter((c) => c.requirement === 'MANDATORY');
  const query = (mandatory.length > 0 ? mandatory : tasks).map((c) => c.content).join('\n');
  return {
    prompt,
    documents: [...full.values()].sort((a, b) => byCode(a.content_identity, b.content_identity)),
    query,
  };
}

/**
 * The analysed documents of the last pool, by text: the study asks for a case's three budgets in
 * a row and a repository's cases share most files, so each text is analysed once while it recurs.
 * Each strategy keeps its own (strategies share a process, and two that index different
 * documents would evict each other's). The answer does not depend on it.
 */
export class AnalysedTexts {
  private last = new Map<string, Indexed>();

  analyse(texts: readonly string[]): Indexed[] {
    const next = new Map<string, Indexed>();
    const docs = texts.map((t) => {
      const d = next.get(t) ?? this.last.get(t) ?? indexed(t);
      next.set(t, d);
      return d;
    });
    this.last = next;
    return docs;
  }
}

/** The documents that hold a query term, best first, ties by path: the full ranking. */
export function ranking(
  documents: readonly ContextCandidate[],
  query: string,
  texts: AnalysedTexts = new AnalysedTexts(),
): { readonly form: ContextCandidate; readonly score: number }[] {
  const scores = bm25Scores(texts.analyse(documents.map(documentText)), queryTerms(query));
  return documents
    .map((form, i) => ({ form, score: scores[i] as number }))
    .filter((d) => d.score > 0)
    .sort((a, b) => b.score - a.score || byCode(a.form.content_identity, b.form.content_identity));
}

/** The documents a variant indexes, of the pool's (by path), and why the others are not. */
export interface IndexChoice {
  readonly documents: readonly ContextCandidate[];
  /** Why a document left out of the index is never retrieved. */
  readonly left: Why;
  /** Facts of the choice for `extras` (which rule chose the documents). */
  readonly extras?: Readonly<Record<string, unknown>> | undefined;
}

/** One strategy's reading of the retrieval: its name (the trace's tag), its fill, its index. */
export interface Bm25Variant {
  readonly name: string;
  readonly fill: Fill;
  /** Which of the pool's documents to index; every one when absent. */
  readonly index?: ((documents: readonly ContextCandidate[]) => IndexChoice) | undefined;
}

const DOES_NOT_FIT: Why = { code: 'does-not-fit', detail: 'a bm25 hit that does not fit the budget' };
const AFTER_STOP: Why = { code: 'after-misfit', detail: 'a bm25 hit after the first that did not fit' };

/** Why each candidate is left out, before the fill says which hits did not fit. */
function whyLeftOut(
  candidates: readonly ContextCandidate[],
  prompt: readonly ContextCandidate[],
  indexedIds: ReadonlySet<string>,
  left: Why,
): Map<string, Why> {
  const promptIds = new Set(prompt.map((c) => c.candidate_id));
  const promptContents = new Set(prompt.map((c) => c.content_identity));
  const why = new Map<string, Why>();
  for (const c of candidates) {
    if (promptIds.has(c.candidate_id)) continue;
    why.set(
      c.candidate_id,
      promptContents.has(c.content_identity)
        ? { code: 'not-default-form', detail: 'the prompt takes each content in its default form' }
        : c.representation_id !== 'full'
          ? { code: 'not-full-form', detail: 'bm25 adds whole files' }
          : !indexedIds.has(c.candidate_id)
            ? left
            : { code: 'not-retrieved', detail: `not among the ${HITS} best bm25 hits` },
    );
  }
  return why;
}

/** The variant's selection: the prompt, then the best HITS indexed documents that fit, by its fill. */
export function bm25Selector(variant: Bm25Variant): (input: StrategyInput) => Selection {
  const texts = new AnalysedTexts();
  return (input) => {
    const { prompt, documents, query } = splitPool(input.candidates);
    const choice: IndexChoice = variant.index?.(documents) ?? {
      documents,
      left: { code: 'not-indexed', detail: 'not indexed' },
    };
    const layout = orderByRole(prompt, input.policy.order_roles);
    const hits = ranking(choice.documents, query, texts).slice(0, HITS);
    const indexedIds = new Set(choice.documents.map((d) => d.candidate_id));
    const why = whyLeftOut(input.candidates, prompt, indexedIds, choice.left);
    const kept = [...layout];
    let cost = costOf(kept, input);
    if (cost > input.budget) {
      const diagnostic = `the prompt renders ${cost} tokens, over the budget of ${input.budget}`;
      return {
        refusal: { reason: 'INSUFFICIENT_BUDGET', diagnostic },
        trace: selectionTrace(input, [], variant.name, why, 'own'),
      };
    }
    let skipped = 0;
    let stopped = false;
    for (const { form } of hits) {
      const next = cost + renderedIncrement(form, kept.length, input.policy);
      if (stopped || next > input.budget) {
        why.set(form.candidate_id, stopped ? AFTER_STOP : DOES_NOT_FIT);
        skipped += stopped ? 0 : 1;
        stopped = variant.fill === 'stop';
        continue;
      }
      kept.push(form);
      cost = next;
    }
    const admitted = kept.map((c) => c.candidate_id);
    return {
      admitted,
      layout: 'own',
      trace: selectionTrace(input, admitted, variant.name, why, 'own'),
      extras: { ranked: hits.map((h) => h.form.content_identity), skipped, ...choice.extras },
    };
  };
}
