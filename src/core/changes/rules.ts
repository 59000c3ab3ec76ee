/**
 * What breaks, by direction: the one table every change kind is classified by. A client *sends*
 * parameters and request bodies (the head must accept all it accepted before) and *receives* responses
 * (the head must send nothing a client written for the base cannot read). docs/design/change-rules.md argues
 * each row against oasdiff's and Optic's rule sets; `scripts/change-table.ts` prints this table.
 */

export type Verdict = "breaking" | "other";

export interface Rule {
  /** In what a client sends (parameters, request bodies, security it must meet). */
  readonly request: Verdict;
  /** In what a client receives (response bodies and headers, statuses). */
  readonly response: Verdict;
  /** The change, in a few words, for the table. */
  readonly summary: string;
}

const both = (verdict: Verdict, summary: string): Rule => ({ request: verdict, response: verdict, summary });
const split = (request: Verdict, response: Verdict, summary: string): Rule => ({
  request,
  response,
  summary,
});

export const RULES = {
  // Paths and operations.
  "path-removed": both("breaking", "a path and all its operations removed"),
  "operation-removed": both("breaking", "an operation removed"),
  "operation-added": both("other", "an operation added"),
  "operation-deprecated": both("other", "an operation deprecated, or no longer"),
  "operation-id-changed": both("other", "an operationId changed (generated SDKs rename a method)"),
  // Parameters.
  "required-parameter-added": both("breaking", "a required parameter added"),
  "parameter-added": both("other", "an optional parameter added"),
  "parameter-removed": both(
    "breaking",
    "a parameter removed (validating servers refuse what they no longer know)",
  ),
  "parameter-made-required": both("breaking", "a parameter made required"),
  "parameter-made-optional": both("other", "a parameter made optional"),
  "parameter-serialization-changed": both("breaking", "a parameter's style or explode changed"),
  // Request bodies.
  "required-request-body-added": both("breaking", "a required request body added"),
  "request-body-added": both("other", "an optional request body added"),
  "request-body-removed": both("breaking", "a request body removed"),
  "request-body-made-required": both("breaking", "a request body made required"),
  "request-body-made-optional": both("other", "a request body made optional"),
  "request-media-type-removed": both("breaking", "a request media type no longer accepted"),
  "request-media-type-added": both("other", "a request media type accepted"),
  // Responses.
  "response-removed": both("breaking", "a success response (1xx–3xx) removed"),
  "error-response-removed": both("other", "a 4xx, 5xx or default response removed"),
  "response-added": both("other", "a response status added"),
  "response-media-type-removed": both("breaking", "a response media type no longer returned"),
  "response-media-type-added": both("other", "a response media type returned"),
  "response-header-removed": both("breaking", "a response header removed (as a response property is)"),
  "response-header-added": both("other", "a response header added"),
  // Schemas: the same change breaks one direction and not the other.
  "type-narrowed": split("breaking", "other", "fewer types accepted (number → integer, null no longer)"),
  "type-widened": split("other", "breaking", "more types (integer → number, nullable)"),
  "type-changed": both("breaking", "another type (string → integer)"),
  "enum-added": split("breaking", "other", "a value limited to an enum it did not have"),
  "enum-removed": both("other", "a value no longer limited to an enum"),
  "enum-value-removed": split("breaking", "other", "an enum value removed"),
  "enum-value-added": both("other", "an enum value added (clients must tolerate new values)"),
  "required-property-added": split("breaking", "other", "a required property added"),
  "property-added": both("other", "an optional property added"),
  "property-removed": split("other", "breaking", "a property removed (or now read-only / write-only)"),
  "property-made-required": split("breaking", "other", "a property made required"),
  "property-made-optional": split("other", "breaking", "a property no longer required"),
  "format-changed": both("breaking", "another format (date → date-time)"),
  "format-added": split("breaking", "other", "a format added"),
  "format-removed": split("other", "breaking", "a format removed"),
  "constraint-narrowed": split("breaking", "other", "a stricter min/max, length, items or pattern"),
  "constraint-widened": both("other", "a looser min/max, length, items or pattern"),
  "additional-properties-refused": split("breaking", "other", "additional properties no longer allowed"),
  "additional-properties-allowed": both("other", "additional properties allowed (as new properties are)"),
  "default-changed": both("other", "a default value changed, added or removed"),
  "property-deprecated": both("other", "a property deprecated"),
  "variant-added": split("other", "breaking", "a oneOf/anyOf variant (or discriminator mapping) added"),
  "variant-removed": split("breaking", "other", "a oneOf/anyOf variant (or discriminator mapping) removed"),
  "discriminator-changed": both("breaking", "the discriminator's property changed"),
  // Security.
  "security-added": both("breaking", "a security requirement where there was none"),
  "security-changed": both("breaking", "a requirement a client met before is no longer enough"),
  "security-relaxed": both("other", "more ways to authenticate"),
  // Everything else.
  "servers-changed": both("other", "servers changed"),
  "description-changed": both("other", "documentation (description, summary, title, examples)"),
  "not-compared": both("other", "a schema nested too deep to compare further"),
} as const satisfies Record<string, Rule>;

export type ChangeKind = keyof typeof RULES;

export type Direction = "request" | "response";

export function verdictOf(kind: ChangeKind, direction: Direction): Verdict {
  return RULES[kind][direction];
}
