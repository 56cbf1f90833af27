import { describe, expect, it } from 'vitest';
import { generateCase } from '../../src/harness/generate/index.js';
import { auditOf, costOf } from '../../src/harness/kit/index.js';
import type { Admission, StrategyInput } from '../../src/harness/types.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import aiderFiles from '../../strategies/aider-files.js';
import aider, { identWeight } from '../../strategies/aider-repomap.js';
import { asBundle, measured } from '../helpers/compiled.js';
import { inputAt } from '../helpers/generated.js';
import { cand, strategyInputAt as input, rendered } from '../helpers/pool.js';
import { referenceInputs } from '../helpers/reference-inputs.js';

const admission = (i: StrategyInput) => aider.assemble(i) as Admission;
const extras = (i: StrategyInput) => admission(i).extras ?? {};
/** The ranked tags, `file#ident` for a definition and `file` for a file alone (Aider's `ranked_tags`). */
const rankedTags = (i: StrategyInput) => extras(i).ranked_tags as string[];
const topFile = (i: StrategyInput) => (extras(i).ranked as string[])[0];

/** A source file: its path is its identity and its id, its text the full form. */
const file = (path: string, text: string, tokens = 50) =>
  cand(path, { content_identity: path, content: text, token_count: tokens });
/** A Python file defining each function, bodies empty. */
const defs = (path: string, ...names: string[]) =>
  file(path, names.map((n) => `def ${n}():\n    pass\n`).join(''));
/** A Python file calling each function once. */
const calls = (path: string, ...names: string[]) => file(path, names.map((n) => `${n}()\n`).join(''));
const task = (text: string) =>
  cand('the-task', { order_role: 'task', requirement: 'MANDATORY', content: text, token_count: 20 });
/** A file with a full form and a `reference` form (`File: path`), as ingest and pack give every file. */
const withName = (path: string, text: string, tokens = 400) => [
  file(path, text, tokens),
  cand(`${path}#reference`, {
    content_identity: path,
    representation_id: 'reference',
    form_rank: 0,
    is_default_form: false,
    content: `File: ${path}`,
    token_count: 5,
  }),
];

describe('aider-repomap: tags are tree-sitter captures of Aider’s queries', () => {
  it('ranks a small repository as get_ranked_tags does, worked out by hand', () => {
    // views.py calls Order, total and fmt; only views.py has out-edges, so a definition's rank is
    // views' rank times its edge's share: total x10 (the message names it), Order and fmt x1. The
    // tie between fmt and Order goes to (file, ident) descending: utils.py first. Then the files
    // by PageRank that have no ranked definition (views.py), then those without tags (README.md).
    const pool = [
      file('models.py', 'class Order:\n    pass\n\ndef total(order):\n    return 0\n'),
      calls('views.py', 'Order', 'total', 'fmt'),
      defs('utils.py', 'fmt'),
      file('README.md', '# Shop\n\nCall total() to add up an Order.\n'),
      task('Fix total rounding'),
    ];
    expect(rankedTags(input(10_000, pool))).toEqual([
      'models.py#total',
      'utils.py#fmt',
      'models.py#Order',
      'views.py',
      'README.md',
    ]);
    expect(extras(input(10_000, pool)).ranked).toEqual(['models.py', 'utils.py', 'views.py', 'README.md']);
  });

  it("reads each file's own text: the pool's `File: <path>` label line is no definition (issue 51)", () => {
    // As ingest builds a pool: each form starts with its label. Aider's Python query reads
    // `File: views.py` as an annotated assignment, a module-level definition named File, in every
    // file; from the file on disk it sees none.
    const labelled = (path: string, text: string) => file(path, `File: ${path}\n${text}`);
    const bare = [
      file('models.py', 'class Order:\n    pass\n\ndef total(order):\n    return 0\n'),
      calls('views.py', 'Order', 'total'),
      file('pkg/__init__.py', ''),
      task('Fix total rounding'),
    ];
    const pool = bare.map((c) => (c.order_role === 'task' ? c : labelled(c.candidate_id, c.content)));
    const tags = rankedTags(input(10_000, pool));
    expect(tags.some((t) => t.endsWith('#File'))).toBe(false);
    expect(tags).toEqual(rankedTags(input(10_000, bare)));
  });

  it('a file name, a candidate id or a coverage key is no definition', () => {
    // `helper` is a file named like the function the caller calls, its coverage key the same name:
    // only def_z.py's tree-sitter definition is one.
    const pool = [
      cand('helper', { coverage_keys: ['helper'], content: 'helper' }),
      defs('def_z.py', 'widget'),
      calls('caller.py', 'helper', 'widget'),
    ];
    expect(rankedTags(input(10_000, pool))).toEqual(['def_z.py#widget', 'caller.py', 'helper']);
  });

  it("a file with definitions and no reference takes the names in its text as references (Aider's Pygments fallback)", () => {
    // Every file here defines and calls nothing, so each takes its names: lib.py and zeta.py
    // refer to their own definitions, aaa.py to go (itself) and target (lib.py). PageRank then
    // puts lib.py (its own loop and aaa's edge) above zeta.py (its loop) above aaa.py (half its
    // rank kept by the edge to itself). With no references at all, every definition would have a
    // 0.1 self-edge alone, all three files one rank, and the tie-break order zeta, aaa, lib.
    const pool = [
      file('aaa.py', 'def go():\n    return target\n'),
      defs('lib.py', 'target'),
      defs('zeta.py', 'zz'),
    ];
    expect(rankedTags(input(10_000, pool))).toEqual(['lib.py#target', 'zeta.py#zz', 'aaa.py#go']);
  });

  it('a file without tags is listed by its name, never sent in full', () => {
    const pool = [
      ...withName('README.md', '# Project\n\nSee parse_config.\n'),
      ...withName('data/settings.json', '{"parse_config": true}'),
      defs('config.py', 'parse_config'),
      calls('main.py', 'parse_config'),
    ];
    const a = admission(input(10_000, pool));
    // main.py calls and defines nothing the map ranks: it too is listed by name, with no form for it.
    expect(a.admitted).toEqual(['README.md#reference', 'config.py', 'data/settings.json#reference']);
    // Where the pool has no form that names a file, a file without tags takes no room at all.
    const bare = pool.filter((c) => c.representation_id !== 'reference');
    expect(admission(input(10_000, bare)).admitted).toEqual(['config.py']);
  });
});

describe('aider-repomap: the message personalises the files it mentions', () => {
  // Two files each defining one function nobody calls: a tie that (file, ident) descending gives
  // to zebra.py. Personalising the other file must turn it round.
  const pair = (name: string) => [defs(name, 'run_job'), defs('zebra.py', 'zz')];

  it("a word whose lower case is a file's stem of five or more letters (get_ident_filename_matches)", () => {
    expect(topFile(input(10_000, pair('worker.py')))).toBe('zebra.py');
    // "Worker": the stem rule lowers it; the path-component rule, case-sensitive, would not.
    expect(topFile(input(10_000, [...pair('worker.py'), task('Worker hangs on exit')]))).toBe('worker.py');
    // A stem of four letters is not matched by the stem rule.
    expect(topFile(input(10_000, [...pair('work.py'), task('Work hangs on exit')]))).toBe('zebra.py');
  });

  it('a path component, basename or stem among the message’s identifiers: "Add `retry.delay`" lifts retry.py', () => {
    expect(topFile(input(10_000, [...pair('retry.py'), task('Add `retry.delay`')]))).toBe('retry.py');
    expect(topFile(input(10_000, [...pair('src/net/io.py'), task('the net layer leaks')]))).toBe(
      'src/net/io.py',
    );
  });

  // A path none of whose components, basename or root is a \W+ word of it: only a file mention lifts it.
  const dashed = 'lib-x/my-mod.py';

  it('a path the message spells out whole, punctuation and quotes stripped (get_file_mentions)', () => {
    expect(topFile(input(10_000, pair(dashed)))).toBe('zebra.py');
    expect(topFile(input(10_000, [...pair(dashed), task(`Look at "${dashed}", please.`)]))).toBe(dashed);
  });

  it('a basename holding a dot, dash or underscore, when no other file has it', () => {
    expect(topFile(input(10_000, [...pair(dashed), task('see my-mod.py')]))).toBe(dashed);
    const twin = defs('other/my-mod.py', 'aa');
    expect(topFile(input(10_000, [...pair(dashed), twin, task('see my-mod.py')]))).toBe('zebra.py');
  });
});

describe("aider-repomap: Aider's identifier weights decide the ranking", () => {
  // Each pool is a tie without the weight under test, which (file, ident) descending gives to
  // def_z.py: the weight must turn that round.
  const tie = (a: string, z: string, ...extra: ReturnType<typeof cand>[]) => [
    defs('def_a.py', a),
    defs('def_z.py', z),
    calls('caller.py', a, z),
    ...extra,
  ];

  it('x10 for an identifier the message mentions', () => {
    expect(topFile(input(10_000, tie('helper', 'widget')))).toBe('def_z.py');
    expect(topFile(input(10_000, tie('helper', 'widget', task('fix the helper please'))))).toBe('def_a.py');
  });

  it('x10 for a snake, kebab or camel identifier of 8 characters or more, not a shorter one', () => {
    expect(topFile(input(10_000, tie('parse_config', 'widget')))).toBe('def_a.py');
    expect(topFile(input(10_000, tie('parseConf', 'widget')))).toBe('def_a.py');
    expect(topFile(input(10_000, tie('ab_cd', 'widget')))).toBe('def_z.py');
  });

  it('x0.1 for a name starting with an underscore', () => {
    expect(topFile(input(10_000, tie('gadget', '_wid')))).toBe('def_a.py');
  });

  it('x0.1 for a name defined in more than five places, not in five', () => {
    const many = (n: number) => [
      defs('def_a.py', 'single'),
      ...Array.from({ length: n }, (_, k) => defs(`z_${k + 1}.py`, 'common')),
      calls('caller.py', 'single', 'common'),
    ];
    expect(topFile(input(10_000, many(5)))).toBe('z_5.py');
    expect(topFile(input(10_000, many(6)))).toBe('def_a.py');
  });

  it('a chat file (one the request names) is sent whole after the map, never in it', () => {
    // PageRank shares a file's rank among its out-edges by weight, so the x50 on all of a chat
    // file's references moves rank only against its own 0.1 self-edges: no ranking shows it alone.
    const pool = [defs('def_a.py', 'helper'), calls('in_chat.py', 'helper'), task('look at in_chat.py')];
    const i = input(10_000, pool, ['in_chat.py']);
    // get_ranked_tags lists the chat file among the files by rank; to_tree leaves it out.
    expect(rankedTags(i)).toEqual(['def_a.py#helper', 'in_chat.py']);
    expect(admission(i).admitted).toEqual(['def_a.py', 'in_chat.py', 'the-task']);
  });

  it('a chat file that has a name form is still left out of the map: never both whole and listed', () => {
    // The pool gives every file a `reference` form, as ingest and pack do: to_tree must skip the
    // chat file though get_ranked_tags lists it, or the bundle holds two forms of it (illegal).
    const pool = [
      ...withName('def_a.py', 'def helper():\n    pass\n', 50),
      ...withName('in_chat.py', 'helper()\n', 50),
      ...withName('other.py', 'print(1)\n', 50),
      task('look at in_chat.py'),
    ];
    const i = input(10_000, pool, ['in_chat.py']);
    const admitted = admission(i).admitted;
    expect(admitted).toContain('in_chat.py');
    expect(admitted).not.toContain('in_chat.py#reference');
    expect(auditOf(i, admitted).legal).toBe(true);
    // The other files are in the map as before: by their definitions, or by name.
    expect(admitted).toEqual(expect.arrayContaining(['def_a.py', 'other.py#reference']));
  });

  it("mul itself, case by case, as repomap.py's get_ranked_tags computes it", () => {
    const none = new Set<string>();
    expect(identWeight('helper', none, 1)).toBe(1);
    expect(identWeight('helper', new Set(['helper']), 1)).toBe(10);
    expect(identWeight('parse-config', none, 1)).toBe(10);
    expect(identWeight('_private_name', none, 1)).toBeCloseTo(1);
    expect(identWeight('helper', none, 6)).toBeCloseTo(0.1);
    expect(identWeight('helper', none, 5)).toBe(1);
    expect(identWeight('12345678', none, 1)).toBe(1);
  });
});

describe("aider-repomap: the budget is the map's, as max_map_tokens is", () => {
  // Ten files of 300 tokens, each defining one function nobody calls.
  const ten = Array.from({ length: 10 }, (_, k) => defs(`m${k}.py`, `f${k}`)).map((c) => ({
    ...c,
    token_count: 300,
  }));

  it('asks for the map at what the prompt leaves over 1.15, so that its 15% tolerance never runs past the window', () => {
    const two = ten.slice(0, 2);
    const both = rendered(300, 300);
    // Where Aider given the whole window would keep both files 14% over it, this keeps one.
    const hard = asBundle(measured(aider, input(Math.ceil(both / 1.14), two)));
    expect(hard.admitted).toHaveLength(1);
    // Both once the map asked for holds them, and never a token over the window at any budget.
    expect(asBundle(measured(aider, input(Math.ceil(both * 1.15) + 2, two))).admitted).toEqual([
      'm0.py',
      'm1.py',
    ]);
    for (let b = Math.floor(both / 2); b <= both * 1.3; b += 7)
      expect(asBundle(measured(aider, input(b, two))).renderedTokens, String(b)).toBeLessThanOrEqual(b);
  });

  it('the message and the system prompt are sent whole, and the map gets what they leave', () => {
    const system = cand('rules', { order_role: 'instruction', requirement: 'MANDATORY', token_count: 600 });
    const short = input(3_000, [...ten, task('go')]);
    const long = input(3_000, [...ten, task('go'), system]);
    const a = admission(short);
    const b = admission(long);
    expect(b.admitted[0]).toBe('rules');
    expect(b.admitted.at(-1)).toBe('the-task');
    // The map's files: all but the prompt's (the task; the rules and the task).
    expect(b.admitted.length - 2).toBeLessThan(a.admitted.length - 1);
    const outside = costOf(
      long.candidates.filter((c) => c.candidate_id === 'rules' || c.candidate_id === 'the-task'),
      long,
    );
    expect(b.extras?.map_window).toBe(3_000 - outside);
    expect(b.extras?.map_budget).toBe(Math.floor((3_000 - outside) / 1.15));
  });

  it('sends the prompt and no map when the prompt alone fills the budget', () => {
    const i = input(100, [...ten, cand('the-task', { order_role: 'task', token_count: 500 })]);
    expect(admission(i).admitted).toEqual(['the-task']);
  });
});

describe('aider-repomap: shows definitions and lays out as Aider does', () => {
  it("a file with ranked definitions shows its outline form, Aider's lines of those definitions", () => {
    const pool = [
      defs('lib.py', 'helper'),
      cand('lib.py#outline', {
        content_identity: 'lib.py',
        representation_id: 'outline',
        form_rank: 2,
        is_default_form: false,
        content: 'File: lib.py (outline)\n1: def helper()',
      }),
      calls('app.py', 'helper'),
    ];
    // app.py has no definition: listed by name, which this pool has no form for.
    expect(admission(input(10_000, pool)).admitted).toEqual(['lib.py#outline']);
  });

  it('lays the map out by file name, as to_tree sorts it, whatever the rank', () => {
    const pool = [defs('def_a.py', 'helper'), defs('def_z.py', 'widget'), calls('caller.py', 'widget')];
    expect(topFile(input(10_000, pool))).toBe('def_z.py');
    const a = admission(input(10_000, pool));
    expect(a.layout).toBe('own');
    expect(a.admitted).toEqual(['def_a.py', 'def_z.py']);
  });
});

describe('aider-repomap: deterministic', () => {
  it('same pool in any order, same bytes', () => {
    const pool = [
      defs('def_a.py', 'helper'),
      defs('def_z.py', 'widget'),
      calls('caller.py', 'helper', 'widget'),
    ];
    const once = JSON.stringify(aider.assemble(input(60, pool)));
    expect(JSON.stringify(aider.assemble(input(60, pool)))).toBe(once);
    expect(JSON.stringify(aider.assemble(input(60, [...pool].reverse())))).toBe(once);
  });
});

describe('aider-repomap: every reference case and budget runs', () => {
  const cells = referenceInputs(0).map(({ label, input }) => ({ name: label, i: input }));

  it('an answer in every cell, over the budget only where the prompt alone is, the same twice', () => {
    for (const { name, i } of cells) {
      const a = admission(i);
      const out = asBundle(measured(aider, i));
      const window = a.extras?.map_window as number;
      if (window >= 0) expect(out.renderedTokens, name).toBeLessThanOrEqual(i.budget);
      expect(JSON.stringify(aider.assemble(i)), name).toBe(JSON.stringify(a));
    }
  });

  it('a generated 200-candidate agent pool, every budget', () => {
    const g = generateCase('aider-repomap-1', 200, 'agent-200', 'agent');
    for (const b of BUDGETS) expect(measured(aider, inputAt(g, b)).outcome, b).toBe('bundle');
  });
});

describe('aider-repomap: a message built to make its expressions backtrack', () => {
  // A word of a long run of the punctuation Aider strips: the regular expression /[...]+$/ takes
  // time quadratic in the run, hours here. A regression does not make this test slow: it never ends.
  it('reads a message of millions of commas and dots in one pass', () => {
    const run = 2_000_000;
    const out = admission(
      input(10_000, [defs('a.py', 'helper'), task(`fix ${','.repeat(run)}x helper${'.'.repeat(run)}`)]),
    );
    expect(out.admitted).toContain('a.py');
  });
});

describe('aider-files: the files an Aider user adds once the model asks for the top of the map', () => {
  // models.py is ranked first (the message names total), utils.py next, views.py and README.md after.
  const pool = [
    file('models.py', 'class Order:\n    pass\n\ndef total(order):\n    return 0\n', 100),
    calls('views.py', 'Order', 'total', 'fmt'),
    defs('utils.py', 'fmt'),
    file('README.md', '# Shop\n\nCall total() to add up an Order.\n', 400),
    task('Fix total rounding'),
  ];

  it("adds whole files in Aider's own ranking order while they fit, skipping one that does not", () => {
    const ranked = (extras(input(10_000, pool)).ranked as string[]).filter((f) => f !== 'the-task');
    const all = aiderFiles.assemble(input(10_000, pool)) as Admission;
    expect(all.extras?.ranked).toEqual(ranked);
    // Everything fits: the ranked files in that order, then the message.
    expect(all.admitted).toEqual([...ranked, 'the-task']);
    // Room for the task, models.py and the small files, not README.md's 400 tokens: it alone is
    // left out.
    const room = rendered(20, 100, 50, 50, 50);
    const some = (aiderFiles.assemble(input(room, pool)) as Admission).admitted;
    expect(some).not.toContain('README.md');
    expect(some).toEqual([...ranked.filter((f) => f !== 'README.md'), 'the-task']);
  });

  it('sends a chat file once, whole, first, and never adds it again', () => {
    const i = input(10_000, pool, ['utils.py']);
    const a = (aiderFiles.assemble(i) as Admission).admitted;
    expect(a[0]).toBe('utils.py');
    expect(a.filter((id) => id === 'utils.py')).toHaveLength(1);
    expect(auditOf(i, a).legal).toBe(true);
  });
});
