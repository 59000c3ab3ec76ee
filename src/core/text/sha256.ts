/**
 * The SHA-256 of a text or of bytes, in hex. node:crypto loads at the first digest (3 ms of a start): a
 * check that writes and reads no publish record never loads it.
 */
import { createRequire } from "node:module";

let crypto: typeof import("node:crypto") | undefined;

export function sha256Hex(data: string | Uint8Array): string {
  crypto ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return crypto.createHash("sha256").update(data).digest("hex");
}
