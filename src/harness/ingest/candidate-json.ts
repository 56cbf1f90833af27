/**
 * A candidate's JSON line for ingest's candidate files, written by hand: the very bytes of
 * `JSON.stringify(candidateToJSON(c))`, in the record's key order (src/compiler/write.ts).
 * Ingest writes a hundred cases that hold mostly the same file versions, and serialising every
 * file's text again for each of them was a fifth of its time: a content's JSON is kept from one
 * case to the next instead.
 */
import type { ContextCandidate } from '../../compiler/index.js';

const str = (s: string): string => JSON.stringify(s);
const num = (n: number): string => JSON.stringify(n);

/** Serialises candidates, keeping each candidate id's last content and its JSON. */
export class CandidateWriter {
  private readonly contents = new Map<string, { readonly content: string; readonly json: string }>();

  /**
   * The content's JSON string: reused when this id's content is the same text as the last time
   * (compared whole, so a changed file is never served its old text), serialised otherwise. One
   * entry per id, so the cache holds about one case's contents.
   */
  private content(c: ContextCandidate): string {
    const kept = this.contents.get(c.candidate_id);
    if (kept !== undefined && kept.content === c.content) return kept.json;
    const json = str(c.content);
    this.contents.set(c.candidate_id, { content: c.content, json });
    return json;
  }

  /** `JSON.stringify(candidateToJSON(c))`. */
  line(c: ContextCandidate): string {
    return (
      `{"schema_version":${str(c.schema_version)},"candidate_id":${str(c.candidate_id)}` +
      `,"content_identity":${str(c.content_identity)},"representation_id":${str(c.representation_id)}` +
      `,"form_rank":${num(c.form_rank)},"min_rank":${num(c.min_rank)}` +
      `,"source_kind":${str(c.source_kind)},"source_ref":${str(c.source_ref)},"kind":${str(c.kind)}` +
      `,"content":${this.content(c)},"token_count":${num(c.token_count)}` +
      `,"token_source":${str(c.token_source)},"requirement":${str(c.requirement)}` +
      `,"order_role":${str(c.order_role)},"scope_eligible":${c.scope_eligible}` +
      `,"scope_reason":${str(c.scope_reason)},"freshness_eligible":${c.freshness_eligible}` +
      `,"freshness_reason":${str(c.freshness_reason)},"authority_eligible":${c.authority_eligible}` +
      `,"authority_reason":${str(c.authority_reason)},"depends_on":${JSON.stringify(c.depends_on)}` +
      `,"group_id":${c.group_id === null ? 'null' : str(c.group_id)},"group_required":${c.group_required}` +
      `,"coverage_keys":${JSON.stringify(c.coverage_keys)},"relevance":${num(c.relevance)}` +
      `,"is_default_form":${c.is_default_form}}`
    );
  }
}
