// The one piece of the compiler a message needs: importing its index would load every stage at start-up.
import { quote } from '../compiler/json.js';

/**
 * Bad input that stops a command: exit 2 and one line naming the file, the record (an id or an
 * index) and the field. Never a stack trace, and nothing written.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly file: string;
  readonly record: string | undefined;
  /** The other problems found with this one, and the path `ctxbench check` lists them all for. */
  readonly more: More | undefined;

  constructor(file: string, message: string, record?: string | undefined, more?: More | undefined) {
    super(message);
    this.file = file;
    this.record = record;
    this.more = more !== undefined && more.count > 0 ? more : undefined;
  }

  get line(): string {
    const text = [this.file, this.record, this.message].filter((p) => p !== undefined && p !== '').join(': ');
    return oneLine(this.more === undefined ? text : `${text} ${moreText(this.more)}`);
  }
}

/** Problems beyond the first: the CLI shows one line, and says where to see the rest. */
export interface More {
  readonly count: number;
  readonly path: string;
}

const moreText = ({ count, path }: More): string =>
  `(and ${count} more problem${count === 1 ? '' : 's'}: ctxbench check ${shellWord(path)})`;

/** A path as one shell word, so the suggested command can be pasted as it is. */
export const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;

const LONGEST_LINE = 1000;

/**
 * Text made one line of bounded length, whatever the input put in it: control characters (line
 * breaks included) escaped, and past LONGEST_LINE the middle elided, keeping the file and record
 * at the start and what is wrong at the end.
 */
export function oneLine(text: string): string {
  const flat = escapeBreaks(text);
  if (flat.length <= LONGEST_LINE) return flat;
  return `${flat.slice(0, 700)} …(${flat.length - 950} characters)… ${flat.slice(-250)}`;
}

/** Text with its control characters (line breaks included) escaped: it can no longer start a line. */
export const escapeBreaks = (text: string): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes.
  text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** Wrong flags or arguments: exit 2 with one line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * A bad value of one option of a library call both front ends make. Its message is the CLI's,
 * naming the flag (`--max-bytes must be ...`); the MCP server names the tool's argument instead
 * (`max_bytes must be ...`, argumentName), since a client has no flags.
 */
export class OptionError extends UsageError {
  /** The option as the CLI spells it, without its dashes: `max-bytes`. */
  readonly option: string;
  /** What is wrong with its value: `must be a whole number >= 1`. */
  readonly said: string;

  constructor(option: string, said: string) {
    super(`--${option} ${said}`);
    this.option = option;
    this.said = said;
  }
}

/** An option as an MCP tool's argument is named: `max-bytes` is `max_bytes`. */
export const argumentName = (option: string): string => option.replaceAll('-', '_');

/** A record locator for messages: the index, and the id when the record has one. */
export function recordName(kind: string, index: number, raw: unknown): string {
  const id =
    typeof raw === 'object' && raw !== null && 'candidate_id' in raw && typeof raw.candidate_id === 'string'
      ? ` ${quote(raw.candidate_id)}`
      : '';
  return `${kind}[${index}]${id}`;
}
