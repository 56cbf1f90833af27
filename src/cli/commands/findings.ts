import { UsageError } from '../../harness/errors.js';
import { guardOutput, writeFileAtomic } from '../../harness/output/index.js';
import { findingsDocument, runInputs } from '../../harness/runfolder/index.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

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
      const inputs = [template, a.corpus, ...runs.flatMap(runInputs)];
      guardOutput({ path: a.out, kind: 'file', option: '--out', inputs });
    }
    const text = findingsDocument({
      template,
      runs,
      corpus: a.corpus,
      warn: (line) => io.err(`ctxbench: warning: ${line}\n`),
    });
    if (a.out === undefined) io.out(text);
    else {
      writeFileAtomic(a.out, text);
      io.out(`findings written to ${a.out}\n`);
    }
    return EXIT.ok;
  },
});
