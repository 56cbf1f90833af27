/**
 * Problems and warnings of input files, collected whole before anything stops: a user writing a
 * pool sees every problem of a file at once (`ctxbench check`), and a command that stops names
 * the first and counts the rest. Warnings are what the readers accept but probably did not mean
 * (an unknown field, an order role the policy does not know, a value out of range): they change
 * nothing, unless `--strict` makes them errors. The rules themselves are in `lint-records.ts`
 * and `lint-files.ts`; docs/formats.md lists them field by field.
 */
import { quote } from '../../compiler/index.js';
import { InputError, oneLine, shellWord } from '../errors.js';

type Severity = 'error' | 'warning';

/** One problem of one file, located down to the record and the field. */
export interface Finding {
  readonly severity: Severity;
  readonly file: string;
  /** `request`, `policy`, `candidates[3] "x"`, a case or a content identity; absent for the file. */
  readonly record: string | undefined;
  /** The JSON key at fault, when there is one (`budgets.tight`, `dependsOn`). */
  readonly field: string | undefined;
  /** What is wrong: `missing x`, `invalid x: 7 (need ...)`; a warning starts with its field. */
  readonly text: string;
}

/** How a command treats warnings. */
export interface Lint {
  /** Warnings stop the command like errors. */
  readonly strict: boolean;
  /** Where warnings are told, one line each (without the `ctxbench: ` prefix); absent: nowhere. */
  readonly warn?: ((line: string) => void) | undefined;
  /** The path `ctxbench check` takes to list every problem, when it is not the finding's file. */
  readonly checkPath?: string | undefined;
}

/** The library's default: warnings are not errors and go nowhere. */
const QUIET: Lint = { strict: false };

/**
 * A file's findings past this many are counted, not kept: a list of 25 million wrong elements
 * would otherwise hold 25 million messages before the first is shown (docs/reliability.md, "Clear
 * errors for bad input").
 */
export const FINDINGS_LISTED = 1000;

/** The findings of one file, in the order they were found, the first FINDINGS_LISTED of them. */
export class Findings {
  readonly list: Finding[] = [];
  readonly file: string;
  /** Findings past FINDINGS_LISTED, counted by severity. */
  readonly unlisted = { error: 0, warning: 0 };
  constructor(file: string) {
    this.file = file;
  }

  private kept(severity: Severity): boolean {
    if (this.list.length < FINDINGS_LISTED) return true;
    this.unlisted[severity]++;
    return false;
  }

  error(record: string | undefined, field: string | undefined, text: string): void {
    if (this.kept('error')) this.list.push({ severity: 'error', file: this.file, record, field, text });
  }

  /** `text` follows the field: `dependsOn` + `unknown field` reads `dependsOn: unknown field`. */
  warning(record: string | undefined, field: string, text: string): void {
    if (!this.kept('warning')) return;
    this.list.push({
      severity: 'warning',
      file: this.file,
      record,
      field,
      text: `${fieldName(field)}: ${text}`,
    });
  }

  get errors(): number {
    return this.list.filter((f) => f.severity === 'error').length + this.unlisted.error;
  }

  /** The problems counted but not kept: errors, and under `strict` warnings too. */
  unlistedProblems(strict: boolean): number {
    return this.unlisted.error + (strict ? this.unlisted.warning : 0);
  }
}

/** The finding as the CLI prints it: file, record, what is wrong; one bounded line. */
export const findingLine = (f: Finding): string =>
  oneLine(
    `${f.severity === 'warning' ? 'warning: ' : ''}${[f.file, f.record, f.text].filter((p) => p !== undefined && p !== '').join(': ')}`,
  );

/** A key as a message shows it: bare when it is a plain word, else quoted and elided. */
export const fieldName = (key: string): string => (/^[\w$.-]{1,60}$/.test(key) ? key : quote(key));

/** Under `--strict` a warning is a problem like any other. */
export const asProblem = (f: Finding, strict: boolean): Finding =>
  strict && f.severity === 'warning' ? { ...f, severity: 'error' } : f;

/**
 * A stop on a file's findings is one line; warnings past this many are counted in one more
 * line, since a pool of thousands of candidates with one misspelled key would otherwise bury
 * the terminal (`ctxbench check` lists them all).
 */
export const WARNINGS_TOLD = 10;

/**
 * Stop on the first problem (an error, or under `strict` a warning), counting the rest; without
 * problems, tell the warnings and go on: a warning changes nothing.
 */
export function settle(findings: Findings, lint: Lint = QUIET): void {
  const all = findings.list.map((f) => asProblem(f, lint.strict));
  const problems = all.filter((f) => f.severity === 'error');
  const [first] = problems;
  if (first !== undefined) {
    throw new InputError(first.file, first.text, first.record, {
      count: problems.length - 1 + findings.unlistedProblems(lint.strict),
      path: lint.checkPath ?? first.file,
    });
  }
  if (lint.warn === undefined) return;
  for (const f of all.slice(0, WARNINGS_TOLD)) lint.warn(findingLine(f));
  if (all.length + findings.unlisted.warning > WARNINGS_TOLD) {
    const rest = all.length + findings.unlisted.warning - WARNINGS_TOLD;
    lint.warn(
      oneLine(
        `warning: ${findings.file}: and ${rest} more warning${rest === 1 ? '' : 's'} (ctxbench check ${shellWord(lint.checkPath ?? findings.file)})`,
      ),
    );
  }
}

/** `a, b or c`, for the values a field allows. */
export function alternatives(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}
