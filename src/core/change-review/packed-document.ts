/**
 * A parsed document as V8's serialization: what crosses between threads for the change review. The
 * preparation's worker packs the head's and the base's documents, the main thread passes the bytes on
 * (transferred, never rebuilt), and only the comparison's worker unpacks them: a spec's documents are
 * built once more, where they are compared, instead of in every thread they pass through.
 */
import { deserialize, serialize } from "node:v8";

export class PackedDocument {
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
}

export function packDocument(document: unknown): PackedDocument {
  return new PackedDocument(serialize(document));
}

/** `value` itself, or the document it packs. */
export function unpackDocument(value: unknown): unknown {
  return value instanceof PackedDocument ? deserialize(value.bytes) : value;
}

/** What posting `bytes` may transfer rather than copy: their buffer, when they are the whole of it. */
export function transferable(bytes: Uint8Array | undefined): ArrayBuffer[] {
  if (!bytes || !(bytes.buffer instanceof ArrayBuffer)) return [];
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer] : [];
}
