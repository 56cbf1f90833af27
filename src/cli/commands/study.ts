import { RUN_FILE } from '../../harness/runfolder/index.js';
import { finishedText, plannedStudy, runStudy, stoppedLine } from '../../harness/study/index.js';
import {
  corpusOption,
  defineCommand,
  formatOption,
  lintOf,
  memoryOf,
  memoryOption,
  quietTableOption,
  splitList,
  strictOption,
  tableOutput,
  timeoutOf,
  timeoutOption,
} from '../command.js';
import { EXIT } from '../io.js';
import { Stopped, shellLine, stoppable } from '../signals.js';
import { tokenizerOption, tokenizerSetting } from '../tokenizer.js';

/**
 * Run the matrix and write the run folder. Everything that can be wrong with the inputs is
 * found before anything is written; a strategy that fails becomes an error row and exit 1.
 */
export const study = defineCommand({
  examples: [
    ['$0 study', 'the reference study into runs/compiler-v1'],
    [
      '$0 study --strategies compiler,exact --jobs 2 --out runs/two',
      'two strategies, two compilations at once',
    ],
    ['$0 study --out runs/two --resume', 'finish a run that was stopped or killed'],
    [
      '$0 study --tokenizer o200k --out runs/o200k',
      `the overhead priced by o200k; the run records it in ${RUN_FILE.manifest}`,
    ],
  ],
  options: (y) =>
    y
      .option('corpus', corpusOption)
      .option('strategies', {
        type: 'string',
        describe: 'comma-separated names or groups: all, peers (default: all registered)',
      })
      .option('policy', { type: 'string', describe: "a policy file replacing the corpus's" })
      .option('tokenizer', tokenizerOption)
      .option('out', { type: 'string', describe: 'run folder (default runs/<corpus name>)' })
      .option('force', { type: 'boolean', default: false, describe: 'replace a non-empty --out' })
      .option('jobs', {
        type: 'number',
        default: 1,
        describe: 'compilations at once, each strategy in processes of its own (same bytes as one job)',
      })
      .option('timeout', timeoutOption)
      .option('memory', memoryOption)
      .option('shard', { type: 'string', describe: 'i/n: run only the i-th of n slices of the matrix' })
      .option('resume', {
        type: 'boolean',
        default: false,
        describe: 'continue a stopped or killed run into the same --out from its finished compilations',
      })
      .option('strict', strictOption)
      .option('format', formatOption)
      .option('quiet', quietTableOption),
  run: async (a, { io, argv, version }) => {
    const { out, study, end } = plannedStudy({
      corpus: a.corpus,
      policy: a.policy,
      policyOf: tokenizerSetting(a.tokenizer),
      lint: lintOf(a.strict, io),
      strategies: splitList(a.strategies),
      out: a.out,
      force: a.force,
      resume: a.resume,
      jobs: a.jobs,
      timeout: timeoutOf(a.timeout),
      memory: memoryOf(a.memory),
      shard: a.shard,
      progress: { sink: io, quiet: a.quiet },
      version: version(),
      command: ['ctxbench', ...argv],
    });
    const outcome = await stoppable((signal) => runStudy({ ...study, signal }));
    if (outcome.state === 'stopped') {
      if (!(outcome.reason instanceof Stopped)) throw outcome.reason;
      const again = argv.includes('--resume') ? argv : [...argv, '--resume'];
      io.err(stoppedLine(outcome, outcome.reason.message, out, shellLine(['ctxbench', ...again])));
      return EXIT[outcome.reason.signal];
    }
    end(outcome.rows.length);
    const { note, table, errors } = finishedText(outcome, out, study.corpus.ingested);
    const printed = tableOutput(io, a.format, a.quiet);
    printed.note(note);
    printed.table(table);
    if (errors !== '') io.err(errors);
    return errors === '' ? EXIT.ok : EXIT.checkFailed;
  },
});
