/** The changes one comparison found, deduplicated and capped, breaking ones first (./compare.ts). */
import { type ChangeKind, type Direction, verdictOf } from "./rules.ts";
import { oneLine, pointer } from "./text.ts";
import type { ApiChange, ApiChanges } from "./types.ts";

/**
 * Changes listed per comparison, breaking ones first; more are counted, not listed (a reviewer reads
 * none of 50,000 lines). Past {@link MAX_FOUND} changes found, the rest are only counted.
 */
export const MAX_CHANGES = 20_000;
const MAX_FOUND = 200_000;

export interface Place {
  readonly path?: string;
  readonly method?: string;
  readonly operationId?: string;
}

/** The kinds found inside schemas (./schema-diff.ts), listed after the others past the cap. */
const SCHEMA_KINDS: ReadonlySet<string> = new Set<ChangeKind>([
  "type-narrowed",
  "type-widened",
  "type-changed",
  "enum-added",
  "enum-removed",
  "enum-value-removed",
  "enum-value-added",
  "required-property-added",
  "property-added",
  "property-removed",
  "property-made-required",
  "property-made-optional",
  "property-deprecated",
  "format-changed",
  "format-added",
  "format-removed",
  "constraint-narrowed",
  "constraint-widened",
  "additional-properties-refused",
  "additional-properties-allowed",
  "default-changed",
  "variant-added",
  "variant-removed",
  "discriminator-changed",
  "not-compared",
]);

export class Collector {
  private readonly breaking: ApiChange[] = [];
  private readonly other: ApiChange[] = [];
  private uncounted = 0;
  private readonly seen = new Set<string>();

  add(
    kind: ChangeKind,
    direction: Direction,
    place: Place,
    location: readonly (string | number)[],
    message: string,
  ) {
    const text = oneLine(message);
    const key = `${kind}\u0000${place.path}\u0000${place.method}\u0000${text}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.breaking.length + this.other.length >= MAX_FOUND) {
      this.uncounted++;
      return;
    }
    const change: ApiChange = { ...place, kind, location: pointer(location), message: text };
    (verdictOf(kind, direction) === "breaking" ? this.breaking : this.other).push(change);
  }

  /**
   * What is listed: breaking changes first, then the others, {@link MAX_CHANGES} in all; among the
   * others, changes to operations, parameters, bodies and responses before changes deep in schemas.
   */
  result(): ApiChanges {
    const breaking = this.breaking.slice(0, MAX_CHANGES);
    const room = MAX_CHANGES - breaking.length;
    const outer = this.other.filter((change) => !SCHEMA_KINDS.has(change.kind));
    const other =
      this.other.length <= room
        ? this.other
        : [...outer, ...this.other.filter((change) => SCHEMA_KINDS.has(change.kind))].slice(0, room);
    const omitted =
      this.uncounted + this.breaking.length + this.other.length - breaking.length - other.length;
    return omitted > 0 ? { breaking, other, omitted } : { breaking, other };
  }
}
