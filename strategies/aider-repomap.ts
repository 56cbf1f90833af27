/**
 * Peer `aider-repomap`: Aider's repo map as Aider builds it (aider/repomap.py and what
 * aider/coders/base_coder.py feeds it, Aider-AI/aider at 5dc9490bb35f), on a ctxbench pool: tags
 * from tree-sitter with Aider's queries (the kit's aider-tags.json, aider-ranking.ts), PageRank, the map's search.
 * Upstream names are cited at each step; docs/peers.md maps the pool onto Aider's inputs (task =
 * message, instructions = system prompt, `required_ids` = chat files, sent whole outside the map,
 * which gets the budget they leave) and lists what still differs and whom it helps.
 * Layout (`layout: 'own'`): `format_messages`' order: system prompt, map (by name, as `to_tree`
 * sorts), chat files, message. Ignores requirement classes, the hard gates (`aider-repomap+gates`
 * filters on them), form floors, groups, dependencies and relevance.
 */
import {
  type ContextCandidate,
  costOf,
  type AiderFile as File,
  loadAider,
  type RankedTag,
  type Strategy,
} from '../src/harness/kit/index.js';

const { aiderPrompt, byCode, identWeight, rankedOnce } = await loadAider();

export { identWeight };

const OK_ERR = 0.15;
/** How many of its ranked files the answer lists. */
const RANKED = 100;

/**
 * `to_tree`'s files: a file whose tags in the slice are definitions shows them, any other its
 * name; a chat file never, as `to_tree` skips `chat_rel_fnames` (it is sent whole).
 */
function mapOf(
  tags: readonly RankedTag[],
  files: ReadonlyMap<string, File>,
  chat: ReadonlySet<string>,
): ContextCandidate[] {
  const shown = new Map<string, boolean>();
  for (const t of tags)
    if (!chat.has(t[0])) shown.set(t[0], (shown.get(t[0]) ?? false) || t[1] !== undefined);
  return [...shown.keys()]
    .sort(byCode)
    .flatMap((n) => (shown.get(n) ? files.get(n)?.shown : files.get(n)?.named) ?? []);
}

const aiderRepomap: Strategy = {
  name: 'aider-repomap',
  description:
    "Aider's repo map: tree-sitter tags, personalised PageRank, --map-tokens set so that the map's 15% tolerance stays within what the prompt leaves",
  assemble(input) {
    const { files, chat, system, chatForms, message, text } = aiderPrompt(input);
    const outside = [...system, ...chatForms, ...message];
    const outsideCost = costOf(outside, input);
    // `--map-tokens` as a user who must stay within a hard window sets it: what the prompt leaves,
    // over the 15% the search may go past it (issue 51), so the map never runs over the window.
    const window = input.budget - outsideCost;
    const mapBudget = Math.floor(window / (1 + OK_ERR));
    const tags = mapBudget > 0 && files.size > chat.size ? rankedOnce(files, chat, text) : [];
    // get_ranked_tags_map_uncached's search, tolerance and all: the map may end up to 15% over.
    let [lower, upper, best, bestTokens, steps] = [0, tags.length, [] as ContextCandidate[], 0, 0];
    let middle = Math.min(Math.floor(mapBudget / 25), tags.length);
    while (lower <= upper && tags.length > 0) {
      steps += 1;
      const tree = mapOf(tags.slice(0, middle), files, chat);
      const tokens = costOf([...tree, ...outside], input) - outsideCost;
      const pctErr = Math.abs(tokens - mapBudget) / mapBudget;
      if ((tokens <= mapBudget && tokens > bestTokens) || pctErr < OK_ERR) {
        [best, bestTokens] = [tree, tokens];
        if (pctErr < OK_ERR) break;
      }
      if (tokens < mapBudget) lower = middle + 1;
      else upper = middle - 1;
      middle = Math.floor((lower + upper) / 2);
    }
    const bundle = [...system, ...best, ...chatForms, ...message];
    return {
      admitted: bundle.map((c) => c.candidate_id),
      layout: 'own',
      extras: {
        // The files in the order the map ranks them (by their best tag), and the best tags.
        ranked: [...new Set(tags.map((t) => t[0]))].slice(0, RANKED),
        ranked_tags: tags.slice(0, 50).map((t) => t.slice(0, 2).join('#')),
        map_window: window,
        map_budget: mapBudget,
        map_tokens: bestTokens,
        search_steps: steps,
      },
    };
  },
};

export default aiderRepomap;
