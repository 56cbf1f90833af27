/**
 * Writing a corpus's texts once each (`blobs.ts` reads them): each new text appended to the
 * current pack, a new pack begun past PACK_BYTES, and the index written at the end, in the order
 * the texts first came, so the same corpus gives the same bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BLOB_INDEX, BLOBS_DIR, type BlobPlace, contentDigest, PACK_BYTES, packName } from './blobs.js';

export class BlobWriter {
  private readonly folder: string;
  private readonly places: BlobPlace[] = [];
  private readonly known = new Set<string>();
  private pack = 0;
  private fd: number | undefined;
  private offset = 0;
  /** The bytes of the texts written. */
  bytes = 0;

  /** `folder`: the corpus folder being written (its `blobs/` is made on the first text). */
  constructor(folder: string) {
    this.folder = folder;
  }

  /** A text's digest; its bytes appended to a pack the first time it comes. */
  put(text: string): string {
    const digest = contentDigest(text);
    if (this.known.has(digest)) return digest;
    this.known.add(digest);
    const bytes = Buffer.from(text, 'utf8');
    if (this.fd === undefined || (this.offset > 0 && this.offset + bytes.length > PACK_BYTES)) this.next();
    this.places.push({ sha256: digest, pack: packName(this.pack), offset: this.offset, bytes: bytes.length });
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(this.fd as number, bytes, at);
    this.offset += bytes.length;
    this.bytes += bytes.length;
    return digest;
  }

  private next(): void {
    this.close();
    fs.mkdirSync(path.join(this.folder, BLOBS_DIR), { recursive: true });
    this.pack++;
    this.fd = fs.openSync(path.join(this.folder, BLOBS_DIR, packName(this.pack)), 'w');
    this.offset = 0;
  }

  private close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  /** The last pack closed and the index written (none when no text came). */
  finish(): void {
    this.close();
    if (this.places.length === 0) return;
    const lines = this.places.map(
      (p) => `{"sha256":"${p.sha256}","pack":"${p.pack}","offset":${p.offset},"bytes":${p.bytes}}\n`,
    );
    fs.writeFileSync(path.join(this.folder, BLOB_INDEX), lines.join(''));
  }
}
