/**
 * The re-run cache's part of the unchanged check: a version this configuration's own earlier run
 * uploaded (or proved by reading), remembered with the publish record its text carried, stands in for
 * reading that version's content again — only while GitBook still lists that very version as the spec's
 * last, processed without error. It can only ever prove sameness: a record that does not prove this
 * text the same sends the check back to GitBook's version (skip-unchanged.ts). Why this is sound, and
 * what a forged cache could do: docs/design/rerun-cache.md.
 */
import type { Spec } from "../service/types.ts";
import type { PublishRecord } from "./ownership.ts";
import type { RememberedUpload } from "./ports.ts";
import type { HeldVersion } from "./skip-unchanged.ts";
import { unreadableReason } from "./unchanged.ts";

/** The cache's word on a listed spec, as if its last version had been read; undefined: read it. */
export function rememberedHeld(
  slug: string,
  listed: Spec,
  remembered: ReadonlyMap<string, RememberedUpload> | undefined,
): HeldVersion | undefined {
  const upload = remembered?.get(slug);
  if (!upload || listed.lastVersion === undefined || upload.version !== listed.lastVersion) return undefined;
  if (upload.record.slug !== slug || unreadableReason(listed) !== undefined) return undefined;
  const { versionUrl } = upload;
  return {
    kind: "held",
    spec: listed,
    record: { ...upload.record, contentProven: true },
    ...(versionUrl ? { versionUrl } : {}),
    remembered: true,
  };
}

/** What to remember of a spec whose last version holds `record`'s text. */
export function uploadOf(
  spec: Spec,
  record: PublishRecord & { contentProven?: boolean },
  versionUrl: string | undefined,
): RememberedUpload | undefined {
  if (spec.lastVersion === undefined || record.slug !== spec.slug) return undefined;
  const { contentProven: _checked, ...kept } = record;
  return { version: spec.lastVersion, record: kept, ...(versionUrl ? { versionUrl } : {}) };
}
