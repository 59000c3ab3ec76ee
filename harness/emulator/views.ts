import type { FilesystemEntry, Spec, SpecVersion, SpecVersionContent } from "../../src/core/service/types.ts";
import type { StoredSpec, StoredVersion } from "./store.ts";

/** Where the emulator is reachable and where its `urls.app` links point. */
export interface LinkBase {
  baseUrl: string;
  appUrl: string;
}

const seg = encodeURIComponent;

export function specLocation(base: LinkBase, orgId: string, slug: string): string {
  return `${base.baseUrl}/v1/orgs/${seg(orgId)}/openapi/${seg(slug)}`;
}

/**
 * The public address of a version's text, as submitted. It lies outside /v1 and needs no token, so that
 * the link works in a browser; `GET /v1/.../versions/{id}/content/raw` gives the same text as JSON.
 */
export function versionFileUrl(base: LinkBase, spec: StoredSpec, version: StoredVersion): string {
  return `${base.baseUrl}/files/${seg(spec.orgId)}/${seg(spec.slug)}/${seg(version.id)}/openapi.${version.format}`;
}

export function renderSpec(base: LinkBase, spec: StoredSpec): Spec {
  const appLocation = `${base.appUrl}/o/${seg(spec.orgId)}/openapi/${seg(spec.slug)}`;
  return {
    object: "openapi-spec",
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
    ...("url" in spec.source ? { sourceURL: spec.source.url } : {}),
    processingState: spec.processingState,
    visibility: "private",
    ...(spec.lastVersion !== undefined ? { lastVersion: spec.lastVersion } : {}),
    ...(spec.lastProcessedAt !== undefined ? { lastProcessedAt: spec.lastProcessedAt } : {}),
    ...(spec.lastProcessErrorCode !== undefined ? { lastProcessErrorCode: spec.lastProcessErrorCode } : {}),
    ...(spec.lastProcessedErrors !== undefined ? { lastProcessedErrors: spec.lastProcessedErrors } : {}),
    lastProcessedErrorCount: spec.lastProcessedErrorCount,
    permissions: { view: true, edit: true },
    urls: { location: specLocation(base, spec.orgId, spec.slug), app: appLocation },
  };
}

export function renderVersion(base: LinkBase, spec: StoredSpec, version: StoredVersion): SpecVersion {
  return {
    object: "openapi-spec-version",
    id: version.id,
    createdAt: version.createdAt,
    url: versionFileUrl(base, spec, version),
    urls: {
      location: `${specLocation(base, spec.orgId, spec.slug)}/versions/${seg(version.id)}`,
      app: `${base.appUrl}/o/${seg(spec.orgId)}/openapi/${seg(spec.slug)}/versions/${seg(version.id)}`,
    },
  };
}

/**
 * The filesystem as GitBook's OpenAPI parser builds it (`createFileSystem` in GitbookIO/gitbook
 * packages/openapi-parser/src/filesystem.ts; see docs/design/version-content.md): a list with one entry, the
 * entrypoint, whose `specification` is the parsed document as GitBook's parser stores it
 * (`storedDocument` in gitbook-parser.ts: Swagger 2.0 upgraded to OpenAPI 3.1.1, a missing `info.version`
 * set to "0.0.1", a root `x-ext-urls` dropped). The emulator does not bundle external references, so
 * every specification is one file with no `references`. The file is named after the last segment of a
 * URL source, otherwise `openapi.json` or `openapi.yaml` after the format of the text.
 */
export function renderContent(base: LinkBase, spec: StoredSpec, version: StoredVersion): SpecVersionContent {
  const url = versionFileUrl(base, spec, version);
  const entry: FilesystemEntry = {
    dir: ".",
    filename: fileNameOf(version),
    isEntrypoint: true,
    references: [],
    specification: version.document(),
  };
  return {
    filesystem: [entry],
    url,
    urls: { source: version.sourceURL ?? url, public: null },
  };
}

function fileNameOf(version: StoredVersion): string {
  const fallback = `openapi.${version.format}`;
  if (version.sourceURL === undefined) return fallback;
  try {
    const last = new URL(version.sourceURL).pathname.split("/").pop() ?? "";
    const name = decodeURIComponent(last);
    return name === "" || name.includes("/") ? fallback : name;
  } catch {
    return fallback;
  }
}

export function renderRawContent(version: StoredVersion): { text: string; format: "json" | "yaml" } {
  return { text: version.text, format: version.format };
}

export function mediaTypeOf(version: StoredVersion): string {
  return version.format === "json" ? "application/json; charset=utf-8" : "application/yaml; charset=utf-8";
}
