/**
 * Peer `aider-files`: what an Aider user's context holds once the model has asked for the files
 * the repo map ranks first (issue 51). Aider's map never holds a file body: the model reads the
 * map, asks for files, and the user adds them to the chat, where they are sent whole. So this row
 * takes Aider's own ranking (get_ranked_tags, the kit's aider-ranking.ts: each file at its first
 * place among the ranked tags) and adds the files whole in that order while they fit, skipping one
 * that does not, beside what Aider always sends: the system prompt, the chat files the request
 * names, and the message. Laid out as Aider's `format_messages` orders them (`layout: 'own'`):
 * the system prompt, the chat files (the request's first, then the files added), the message.
 * Like the map, it ignores requirement classes, the hard gates (`aider-files+gates` filters on
 * them), form floors, groups, dependencies and relevance.
 */
import { costOf, loadAider, renderedIncrement, type Strategy } from '../src/harness/kit/index.js';

const { aiderPrompt, rankedOnce } = await loadAider();

/** How many of its ranked files the answer lists. */
const RANKED = 100;

const aiderFiles: Strategy = {
  name: 'aider-files',
  description:
    "Aider's chat once the model has asked for the top of its repo map: whole files in Aider's ranking order while they fit",
  assemble(input) {
    const { files, chat, system, chatForms, message, text } = aiderPrompt(input);
    const ranked = files.size > chat.size ? [...new Set(rankedOnce(files, chat, text).map((t) => t[0]))] : [];
    const added = [];
    // Priced one file at a time: what each adds to the bundle so far (the cost of a bundle is its
    // items' and their separators', wherever each stands).
    let used = costOf([...system, ...chatForms, ...message], input);
    let count = system.length + chatForms.length + message.length;
    for (const name of ranked) {
      const whole = files.get(name)?.whole;
      if (whole === undefined || chat.has(name)) continue;
      const more = renderedIncrement(whole, count, input.policy);
      if (used + more > input.budget) continue;
      added.push(whole);
      used += more;
      count++;
    }
    const bundle = [...system, ...chatForms, ...added, ...message];
    return {
      admitted: bundle.map((c) => c.candidate_id),
      layout: 'own',
      extras: { ranked: ranked.slice(0, RANKED), added: added.length },
    };
  },
};

export default aiderFiles;
