/**
 * The `uri` and `uri-reference` formats of the OpenAPI schemas (every `$ref` is a `uri-reference`), as
 * ajv-formats' full mode checks them. Their patterns (over 1,100 characters, case-insensitive) cost
 * about 3 ms each to compile on their first two uses, a tenth of checking a small spec. Nearly every
 * value is a plain URL (`scheme://host[:port][/path][?query][#fragment]`) or, for a reference, a
 * fragment (`#/components/…`), which the short patterns below accept at a fifteenth of that cost. Each
 * of their parts is the full pattern's own, so what they accept the full one accepts; anything else
 * goes to the full check (test/validation/uri-format.property.test.ts).
 */
import { fullFormats } from "ajv-formats/dist/formats.js";

const PLAIN_URL =
  /^[a-z][a-z0-9+\-.]*:\/\/[a-z0-9\-._~!$&'()*+,;=]*(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/** The same for `uri-reference`, whose full pattern also takes `"`, and a reference with no URL. */
const PLAIN_REFERENCE =
  /^(?:[a-z][a-z0-9+\-.]*:\/\/[a-z0-9\-._~!$&'"()*+,;=]*(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

const fullUri = fullFormats.uri as (text: string) => boolean;
const FULL_URI_REFERENCE = fullFormats["uri-reference"] as RegExp;

/** ajv-formats' `uri` (full mode): the same answer for every text. */
export function uri(text: string): boolean {
  return PLAIN_URL.test(text) || fullUri(text);
}

/** ajv-formats' `uri-reference` (full mode): the same answer for every text. */
export function uriReference(text: string): boolean {
  return PLAIN_REFERENCE.test(text) || FULL_URI_REFERENCE.test(text);
}
