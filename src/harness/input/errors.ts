/**
 * Bad input that stops a command: exit 2 and one line naming the file, the record (an id or an
 * index) and the field. Never a stack trace, and nothing written.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly file: string;
  readonly record: string | undefined;

  constructor(file: string, message: string, record?: string | undefined) {
    super(message);
    this.file = file;
    this.record = record;
  }

  get line(): string {
    return [this.file, this.record, this.message].filter((p) => p !== undefined && p !== '').join(': ');
  }
}

/** Wrong flags or arguments: exit 2 with one line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A record locator for messages: the index, and the id when the record has one. */
export function recordName(kind: string, index: number, raw: unknown): string {
  const id =
    typeof raw === 'object' && raw !== null && 'candidate_id' in raw && typeof raw.candidate_id === 'string'
      ? ` "${raw.candidate_id}"`
      : '';
  return `${kind}[${index}]${id}`;
}
