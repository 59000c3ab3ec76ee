/** One change between two versions of an API description, in words a reviewer reads. */
export interface ApiChange {
  /** What changed, e.g. `operation-removed`, `required-parameter-added`, `type-narrowed`. */
  readonly kind: string;
  /** The API path (`/pets/{id}`), when the change is inside one. */
  readonly path?: string;
  /** The HTTP method in upper case, when the change is inside an operation. */
  readonly method?: string;
  /** The operation's `operationId`, when it has one. */
  readonly operationId?: string;
  /**
   * A JSON pointer into the head document (the base's for what was removed; Swagger 2.0: into its
   * OpenAPI 3 form): the change itself, or the schema whose inside changed.
   */
  readonly location: string;
  /**
   * One line, at most {@link MAX_MESSAGE_LENGTH} characters, without control characters; never repeats the
   * place (`changeLine` writes both).
   */
  readonly message: string;
}

export interface ApiChanges {
  readonly breaking: ApiChange[];
  readonly other: ApiChange[];
  /** Changes found beyond the listing cap, counted and not listed. */
  readonly omitted?: number;
}

export { MAX_MESSAGE_LENGTH } from "../text/truncate.ts";
