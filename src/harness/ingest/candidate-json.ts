/**
 * A candidate's JSON line for ingest's candidate files, written by hand: the bytes of
 * `JSON.stringify(candidateToJSON(c))`, in the record's key order (src/compiler/write.ts), less the
 * fields that hold the value a reader gives an absent one (the schema version, no dependencies, no
 * group, no coverage keys, not the default form): the same record, read back, in a fifth fewer
 * bytes, which over a corpus of 140 pools of 1,500 files in three forms is 70 MB.
 * Ingest writes a hundred cases that hold mostly the same file versions, and serialising every
 * file's text again for each of them was a fifth of its time: the opening of a line, up to and with its
 * content, is kept from one case to the next instead. A content the store keeps apart (a corpus's
 * blob) is named by its digest, `"content_sha256"`, where `"content"` would be.
 */
import { type ContextCandidate, SCHEMA } from '../../compiler/index.js';

const str = (s: string): string => JSON.stringify(s);
const num = (n: number): string => JSON.stringify(n);
const list = (a: readonly string[]): string => JSON.stringify(a);

/** The short strings every line repeats (a requirement, a role, a reason), each serialised once. */
const said = new Map<string, string>();
function short(s: string): string {
  let json = said.get(s);
  if (json === undefined) {
    json = str(s);
    if (said.size >= 10_000) said.clear();
    said.set(s, json);
  }
  return json;
}

/** The fields a candidate's line opens with, up to its content: what its file version decides. */
type Head = Pick<
  ContextCandidate,
  | 'schema_version'
  | 'content_identity'
  | 'representation_id'
  | 'form_rank'
  | 'min_rank'
  | 'source_kind'
  | 'source_ref'
  | 'kind'
  | 'content'
>;

const sameHead = (a: Head, b: Head): boolean =>
  a.content === b.content &&
  a.source_ref === b.source_ref &&
  a.schema_version === b.schema_version &&
  a.content_identity === b.content_identity &&
  a.representation_id === b.representation_id &&
  a.form_rank === b.form_rank &&
  a.min_rank === b.min_rank &&
  a.source_kind === b.source_kind &&
  a.kind === b.kind;

/**
 * Where a content is stored apart from its line: the digest its line names instead
 * (`content_sha256`, a corpus's blob), or null to carry it inline.
 */
export type ContentStore = (content: string) => string | null;

/** Serialises candidates, keeping each candidate id's last opening fields and their JSON. */
export class CandidateWriter {
  // The candidate itself is kept (records are read-only): its opening fields need no copy.
  private readonly heads = new Map<string, { readonly head: Head; readonly json: string }>();
  private readonly store: ContentStore;

  /** `store`: which contents go to blobs; every content inline when absent. */
  constructor(store: ContentStore = () => null) {
    this.store = store;
  }

  /**
   * The line up to its content: reused when this id's opening fields are the same as the last
   * time (the content compared whole, so a changed file is never served its old text), written
   * otherwise. One entry per id, so the cache holds about one case's contents.
   */
  private head(c: ContextCandidate): string {
    const kept = this.heads.get(c.candidate_id);
    if (kept !== undefined && sameHead(kept.head, c)) return kept.json;
    const version = c.schema_version === SCHEMA.candidate ? '' : `"schema_version":${str(c.schema_version)},`;
    const json =
      `{${version}"candidate_id":${str(c.candidate_id)}` +
      `,"content_identity":${str(c.content_identity)},"representation_id":${str(c.representation_id)}` +
      `,"form_rank":${num(c.form_rank)},"min_rank":${num(c.min_rank)}` +
      `,"source_kind":${str(c.source_kind)},"source_ref":${str(c.source_ref)},"kind":${str(c.kind)}` +
      this.content(c.content);
    this.heads.set(c.candidate_id, { head: c, json });
    return json;
  }

  /** Forget every kept opening: the next pools share none of them (another repository's). */
  forget(): void {
    this.heads.clear();
  }

  private content(text: string): string {
    const digest = this.store(text);
    return digest === null ? `,"content":${str(text)}` : `,"content_sha256":"${digest}"`;
  }

  /**
   * `JSON.stringify(candidateToJSON(c))` less the fields at their readers' defaults, its content
   * named by digest where the store keeps it.
   */
  line(c: ContextCandidate): string {
    return (
      `${this.head(c)},"token_count":${num(c.token_count)}` +
      `,"token_source":${short(c.token_source)},"requirement":${short(c.requirement)}` +
      `,"order_role":${short(c.order_role)},"scope_eligible":${c.scope_eligible}` +
      `,"scope_reason":${short(c.scope_reason)},"freshness_eligible":${c.freshness_eligible}` +
      `,"freshness_reason":${short(c.freshness_reason)},"authority_eligible":${c.authority_eligible}` +
      `,"authority_reason":${short(c.authority_reason)}` +
      (c.depends_on.length === 0 ? '' : `,"depends_on":${list(c.depends_on)}`) +
      (c.group_id === null ? '' : `,"group_id":${str(c.group_id)}`) +
      (c.group_required ? `,"group_required":true` : '') +
      (c.coverage_keys.length === 0 ? '' : `,"coverage_keys":${list(c.coverage_keys)}`) +
      `,"relevance":${num(c.relevance)}${c.is_default_form ? ',"is_default_form":true' : ''}}`
    );
  }
}
