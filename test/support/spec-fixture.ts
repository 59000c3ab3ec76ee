import type { Spec } from "../../src/core/service/types.ts";

/** A complete specification as the service returns it, created 2026-01-01 and updated 2026-01-02. */
export function specFixture(fields: Partial<Spec> = {}): Spec {
  return {
    object: "openapi-spec",
    id: "s",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-02T00:00:00.000Z",
    slug: "pets",
    processingState: "complete",
    permissions: { edit: true },
    urls: { location: "l", app: "a" },
    ...fields,
  };
}
