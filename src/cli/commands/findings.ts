import fs from 'node:fs';
import path from 'node:path';
import { loadCorpus, readJsonFile, readJsonLines } from '../../harness/corpus/index.js';
import { InputError, UsageError } from '../../harness/errors.js';
import { guardOutput, writeFileAtomic } from '../../harness/output/index.js';
import { FindingsError, type FindingsRun, renderFindings } from '../../harness/report/index.js';
import { corpusDigest, readRows } from '../../harness/runfolder/index.js';
import type { CompilationLine } from '../../harness/types.js';
import { defineCommand } from '../command.js';
import { EXIT, type Io } from '../io.js';

/**
 * A findings document from a template and run folders: every figure comes from a run, so a
 * document can be regenerated, and checked, whenever the results change. The first run fills the
 * placeholders that name no run; `{NAME:...}`, `{{stat NAME ...}}` and `{{table NAME ...}}` read
 * the run whose folder is called NAME.
 */
export const findings = defineCommand({
  examples: [
    [
      '$0 findings runs/compiler-v2 --template docs/findings.template.md --out docs/findings.md',
      "the corpus-v2 findings from that corpus's run",
    ],
    [
      '$0 findings runs/compiler-v2 runs/reference runs/agent-200 --template docs/findings.template.md',
      'the same, with figures of two more runs, named reference and agent-200',
    ],
  ],
  options: (y) =>
    y
      .positional('runs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'run folders; the first fills placeholders that name no run',
      })
      .option('template', {
        type: 'string',
        demandOption: true,
        describe: 'the document with placeholders ({case/budget/strategy.metric}, {{outcomes case}}, ...)',
      })
      .option('out', { type: 'string', describe: 'write the document here (default: print it)' })
      .option('corpus', {
        type: 'string',
        describe:
          "the corpus folder the run compiled, for purposes and candidates (default: the run's; one run only)",
      }),
  run: (a, { io }) => {
    const runs = a.runs as string[];
    const template = a.template as string;
    if (a.corpus !== undefined && runs.length > 1)
      throw new UsageError('--corpus names the corpus of one run: give one run folder, or none of --corpus');
    if (a.out !== undefined) {
      const inputs = [
        template,
        a.corpus,
        ...runs.flatMap((run) =>
          ['rows.jsonl', 'compilations.jsonl', 'manifest.json'].map((f) => path.join(run, f)),
        ),
      ];
      guardOutput({ path: a.out, kind: 'file', option: '--out', inputs });
    }
    if (!fs.existsSync(template)) throw new InputError(template, 'template not found');
    const named = new Map<string, FindingsRun>();
    for (const run of runs) {
      const name = path.basename(path.resolve(run));
      if (named.has(name))
        throw new InputError(run, `a second run folder named "${name}": runs are named by their folder`);
      named.set(name, findingsRun(run, a.corpus, io));
    }
    let text: string;
    try {
      text = renderFindings(
        fs.readFileSync(template, 'utf8'),
        named.values().next().value as FindingsRun,
        named,
      );
    } catch (e) {
      if (!(e instanceof FindingsError)) throw e;
      throw new InputError(template, e.where);
    }
    if (a.out === undefined) io.out(text);
    else {
      writeFileAtomic(a.out, text);
      io.out(`findings written to ${a.out}\n`);
    }
    return EXIT.ok;
  },
});

/** A run folder's rows and compilations, with the purposes and candidates of the corpus it compiled. */
function findingsRun(run: string, given: string | undefined, io: Io): FindingsRun {
  const rows = readRows(run);
  const recorded = runCorpus(run, given);
  const dir = given ?? recorded.dir;
  if (!fs.existsSync(dir))
    throw new InputError(dir, "the run's corpus folder is not found from here: pass --corpus");
  // Purposes and candidates are read from the folder as it is now, which the run may predate.
  if (recorded.digest !== undefined && corpusDigest(dir) !== recorded.digest)
    io.err(
      `ctxbench: warning: ${dir} has changed since the run; its purposes and candidates may not match\n`,
    );
  const corpus = loadCorpus(dir);
  const lines = path.join(run, 'compilations.jsonl');
  const compilations = fs.existsSync(lines)
    ? readJsonLines(lines).map(({ value }) => value as CompilationLine)
    : [];
  return {
    rows,
    compilations,
    purposes: corpus.purposes,
    candidates: new Map(corpus.cases.map((c) => [c.name, c.candidates])),
  };
}

/** The corpus folder and digest the run's manifest records (not needed when --corpus names one). */
function runCorpus(run: string, given: string | undefined): { dir: string; digest: string | undefined } {
  const file = path.join(run, 'manifest.json');
  const read = given !== undefined && !fs.existsSync(file) ? null : readJsonFile(file);
  const corpus = (read as { corpus?: { dir?: unknown; digest?: unknown } } | null)?.corpus;
  if (typeof corpus?.dir !== 'string') {
    if (given !== undefined) return { dir: given, digest: undefined };
    throw new InputError(file, 'the run names no corpus folder: pass --corpus');
  }
  return { dir: corpus.dir, digest: typeof corpus.digest === 'string' ? corpus.digest : undefined };
}
