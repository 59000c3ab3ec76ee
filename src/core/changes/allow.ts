import type { ApiChange } from "./types.ts";

/**
 * Whether the `breaking-allowed` list names this change: an entry is an `operationId`, an API path
 * (`/pets/{id}`, every method) or `METHOD /path` (method in any case). Entries are trimmed; blank ones
 * match nothing.
 */
export function isAllowed(change: ApiChange, allowList: readonly string[]): boolean {
  return allowList.some((raw) => {
    const entry = raw.trim();
    if (entry === "") return false;
    if (change.operationId !== undefined && entry === change.operationId) return true;
    if (change.path === undefined) return false;
    if (entry === change.path) return true;
    const match = /^([A-Za-z]+)\s+(\/.*)$/.exec(entry);
    return (
      match !== null &&
      change.method !== undefined &&
      match[1]?.toUpperCase() === change.method.toUpperCase() &&
      match[2] === change.path
    );
  });
}
