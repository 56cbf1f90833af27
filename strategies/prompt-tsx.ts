/**
 * Peer: the priority pruning of `@vscode/prompt-tsx` 0.4.0-alpha.9 (the pinned package itself,
 * node_modules/@vscode/prompt-tsx/dist/base; upstream github.com/microsoft/vscode-prompt-tsx,
 * tag v0.4.0-alpha.9: promptRenderer.ts `_getFinalElementTree`, materialized.ts
 * `removeLowestPriorityChild`, promptElements.tsx `PrioritizedList`).
 *
 * The pool as a prompt-tsx user would write it, built with `globalThis.vscpp` (what TSX compiles
 * to) and rendered by `PromptRenderer` outside VS Code in `OutputMode.Raw`:
 *
 *   <UserMessage>
 *     <PrioritizedList priority={4} descending>  MANDATORY contents, most relevant first
 *       <Chunk>{default form's text}</Chunk> ...
 *     </PrioritizedList>
 *     <PrioritizedList priority={3} descending>  REQUIRED (request-named ids promoted)
 *     ... PREFERRED (2), DISCRETIONARY (1)
 *   </UserMessage>
 *
 * One element per content identity, in its default form (`defaultFormPool`); ties in relevance go
 * by candidate id. The tokenizer we hand the renderer charges the study's counting, not the text:
 * the message's base count is the bundle header, each item its declared `token_count` plus its
 * decoration, and a separator between items (the kit's ruler, docs/compiler.md §11.2), so the
 * renderer's `tokenCount` equals `costOf` of what survives. Each chunk's text is a private-use tag
 * holding the item's index, which is all the tokenizer reads; the harness renders the bundle
 * itself, so no tag reaches a bundle.
 *
 * What survives the render is admitted, in the rendered order (`layout: 'own'`). prompt-tsx
 * prunes whole chunks, lowest priority first, and over-prunes by design (it subtracts 1.25x each
 * removed chunk's upper bound before recounting): that is kept, it is the library's behaviour.
 * A `BudgetExceededError` (nothing left to prune) becomes a refusal carrying its message. With
 * this tree it arises only for a negative budget: when even the header does not fit, prompt-tsx
 * prunes the message itself and renders nothing, which is admitted as the empty bundle it is.
 *
 * What prompt-tsx cannot express, and this peer therefore ignores: the hard gates (scope,
 * freshness, authority) and form floors (every identity goes in by its default form), forms
 * other than the default, groups (all-or-none), dependencies, coverage. Priorities order the
 * pruning; nothing is ever "required".
 *
 * The renderer is asynchronous (its `render` returns a Promise even with a synchronous
 * tokenizer), so `assemble` returns a Promise; the harness awaits it where a strategy answers.
 */
import ptsx, { type PromptPiece } from '@vscode/prompt-tsx';
// Not re-exported by the package's index; the same module instance the renderer throws from.
import { BudgetExceededError } from '@vscode/prompt-tsx/dist/base/materialized.js';
import {
  type ContextCandidate,
  defaultFormPool,
  headerCost,
  itemRenderCost,
  promotedClass,
  type RequirementClass,
  type Selection,
  type StrategyInput,
  separatorCost,
} from '../src/harness/kit/index.js';

// The package is CommonJS (a default import); its index also installs `globalThis.vscpp`, the
// element factory TSX compiles to.
const { Chunk, OutputMode, PrioritizedList, PromptElement, PromptRenderer, Raw, UserMessage } = ptsx;

const h = (ctor: unknown, props: Record<string, unknown>, ...children: unknown[]): PromptPiece =>
  (globalThis as unknown as { vscpp: (...a: unknown[]) => PromptPiece }).vscpp(ctor, props, ...children);

/** The outer priority of each requirement class: higher survives longer. */
export const CLASS_PRIORITY: Readonly<Record<RequirementClass, number>> = {
  MANDATORY: 4,
  REQUIRED: 3,
  PREFERRED: 2,
  DISCRETIONARY: 1,
};

const TAG = /\uE000(\d+)\uE001/g;
/** Item `k`'s stand-in text. */
const tag = (k: number) => `\uE000${k}\uE001`;
/** The item indexes a rendered text holds, in order. */
const itemsIn = (text: string): number[] => [...text.matchAll(TAG)].map((m) => Number(m[1]));

/** The pool in declaration order: classes strongest first, each by relevance, then id. */
export function declared(input: StrategyInput): ContextCandidate[][] {
  const named = new Set(input.request.required_ids);
  const byClass = new Map<RequirementClass, ContextCandidate[]>();
  for (const c of defaultFormPool(input.candidates)) {
    const k = promotedClass(c, named);
    byClass.set(k, [...(byClass.get(k) ?? []), c]);
  }
  return (Object.keys(CLASS_PRIORITY) as RequirementClass[]).map((k) =>
    (byClass.get(k) ?? []).sort(
      (a, b) => b.relevance - a.relevance || (a.candidate_id < b.candidate_id ? -1 : 1),
    ),
  );
}

async function assemble(input: StrategyInput): Promise<Selection> {
  const lists = declared(input);
  const items = lists.flat();
  const header = headerCost(input.request, input.policy);
  const sep = separatorCost(input.policy);
  const cost = items.map((c) => itemRenderCost(c, input.policy));
  const textCost = (text: string, parts: { n: number }) => {
    let t = 0;
    for (const k of itemsIn(text)) {
      t += cost[k] ?? 0;
      parts.n++;
    }
    return t;
  };
  const tokenizer = {
    mode: OutputMode.Raw,
    // A chunk's upper bound: its item and one separator.
    tokenLength(part: { type: number; text?: string }) {
      const parts = { n: 0 };
      const t = part.type === Raw.ChatCompletionContentPartKind.Text ? textCost(part.text ?? '', parts) : 0;
      return t + parts.n * sep;
    },
    countMessageTokens(message: { content: { type: number; text?: string }[] }) {
      const parts = { n: 0 };
      let t = header;
      for (const p of message.content)
        if (p.type === Raw.ChatCompletionContentPartKind.Text) t += textCost(p.text ?? '', parts);
      return t + Math.max(0, parts.n - 1) * sep;
    },
  };
  let k = 0;
  const tree = h(
    UserMessage,
    {},
    ...(Object.values(CLASS_PRIORITY) as number[]).map((priority, i) =>
      h(
        PrioritizedList,
        { priority, descending: true },
        // The tag alone stands for the text: the tokenizer above charges by tag, never by the
        // text, so pruning is the same, and the renderer, which joins every survivor's text again
        // after each cut, does not copy a whole repository's files a thousand times.
        ...(lists[i] ?? []).map(() => h(Chunk, {}, tag(k++))),
      ),
    ),
  );
  class Prompt extends PromptElement {
    render() {
      return tree;
    }
  }
  const endpoint = { modelMaxPromptTokens: input.budget };
  try {
    // biome-ignore lint/suspicious/noExplicitAny: the renderer's generics want a vscode-typed ctor
    const out = await new PromptRenderer(endpoint, Prompt as any, {}, tokenizer as any).render();
    const kept: number[] = [];
    for (const m of out.messages as { content: { type: number; text?: string }[] }[])
      for (const p of m.content)
        if (p.type === Raw.ChatCompletionContentPartKind.Text) kept.push(...itemsIn(p.text ?? ''));
    return {
      admitted: kept.map((i) => (items[i] as ContextCandidate).candidate_id),
      layout: 'own',
      extras: { rendered_tokens: out.tokenCount, pruned: items.length - kept.length },
    };
  } catch (e) {
    if (!(e instanceof BudgetExceededError)) throw e;
    return { refusal: { reason: 'BUDGET_EXCEEDED', diagnostic: `prompt-tsx: ${e.message}` } };
  }
}

export default {
  name: 'prompt-tsx',
  description:
    '@vscode/prompt-tsx priority pruning: class as outer priority, relevance inside, default forms',
  assemble,
};
