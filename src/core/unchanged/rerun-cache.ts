/**
 * The re-run cache's part of the unchanged check: a version whose content an earlier run read and
 * found proving its spec's text, remembered with the publish record it holds, stands in for reading that
 * content again — only while GitBook still lists that very version as the spec's last, processed
 * without error. Versions are never remembered from an upload: a concurrent upload could have made the
 * version the wait saw. It can only ever prove sameness: a record that does not prove this
 * text the same sends the check back to GitBook's version (skip-unchanged.ts). Why this is sound, and
 * what a forged cache could do: docs/design/rerun-cache.md.
 */

import type { PublishRecord } from "../ownership/ownership.ts";
import type { RememberedVersion } from "../ports.ts";
import type { Spec } from "../service/types.ts";
import type { HeldVersion } from "./skip-unchanged.ts";
import { unreadableReason } from "./unchanged.ts";

/** The cache's word on a listed spec, as if its last version had been read; undefined: read it. */
export function rememberedHeld(
  slug: string,
  listed: Spec,
  remembered: ReadonlyMap<string, RememberedVersion> | undefined,
): HeldVersion | undefined {
  const known = remembered?.get(slug);
  if (!known || listed.lastVersion === undefined || known.version !== listed.lastVersion) return undefined;
  if (known.record.slug !== slug || unreadableReason(listed) !== undefined) return undefined;
  const { versionUrl } = known;
  return {
    kind: "held",
    spec: listed,
    record: { ...known.record, contentProven: true },
    ...(versionUrl ? { versionUrl } : {}),
    remembered: true,
  };
}

/** What to remember of a spec whose last version holds `record`'s text. */
export function rememberedOf(
  spec: Spec,
  record: PublishRecord & { contentProven?: boolean },
  versionUrl: string | undefined,
): RememberedVersion | undefined {
  if (spec.lastVersion === undefined || record.slug !== spec.slug) return undefined;
  const { contentProven: _checked, ...kept } = record;
  return { version: spec.lastVersion, record: kept, ...(versionUrl ? { versionUrl } : {}) };
}
