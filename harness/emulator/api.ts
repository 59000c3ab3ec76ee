import type { Organization } from "../../src/core/service/types.ts";
import { organizationsForDomain, withOwnLinks } from "./organizations.ts";
import { PaginationError, paginate, parsePageQuery } from "./pagination.ts";
import type { Processor } from "./processor.ts";
import {
  ApiError,
  checkJsonContentType,
  checkSlug,
  parseCreateBody,
  parseJsonBody,
  parsePutBody,
} from "./request-body.ts";
import type { Route } from "./routes.ts";
import type { SpecStore, StoredSpec, StoredVersion } from "./store.ts";
import {
  type LinkBase,
  mediaTypeOf,
  renderContent,
  renderRawContent,
  renderSpec,
  renderVersion,
} from "./views.ts";

export interface ApiRequest {
  method: string;
  query: URLSearchParams;
  contentType?: string;
  body: Buffer;
}

export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; contentType: string }
  | { status: 204 };

export interface ApiContext {
  store: SpecStore;
  processor: Processor;
  organizations: readonly Organization[];
  forbiddenOrganizations: ReadonlySet<string>;
  links: LinkBase;
}

/** Answers one routed request (authentication and faults are already dealt with). */
export function handleRoute(ctx: ApiContext, route: Route, request: ApiRequest): Reply {
  try {
    return dispatch(ctx, route, request);
  } catch (error) {
    if (error instanceof PaginationError) throw new ApiError(400, error.message);
    throw error;
  }
}

function dispatch(ctx: ApiContext, route: Route, request: ApiRequest): Reply {
  const { store, links } = ctx;
  switch (route.name) {
    case "listOrgsForDomain": {
      const visible = ctx.organizations.filter((org) => !ctx.forbiddenOrganizations.has(org.id));
      const found = organizationsForDomain(visible, route.domain);
      return ok({ organizations: found.map((org) => withOwnLinks(org, links)) });
    }
    case "versionFile": {
      const version = findVersion(ctx, route.orgId, route.slug, route.versionId);
      if (version === undefined || route.file !== `openapi.${version.format}`) {
        return { status: 404, text: "Not found\n", contentType: "text/plain; charset=utf-8" };
      }
      return { status: 200, text: version.text, contentType: mediaTypeOf(version) };
    }
    case "appPage":
      return appPage(ctx, route);
    default:
      checkOrganization(ctx, route.orgId);
  }
  switch (route.name) {
    case "listSpecs": {
      const page = paginate(
        store.list(route.orgId).map((spec) => ({ seq: spec.seq, value: spec })),
        parsePageQuery(request.query, `specs:${route.orgId}`),
        `specs:${route.orgId}`,
      );
      return ok({ ...page, items: page.items.map((spec) => renderSpec(links, spec)) });
    }
    case "createSpec": {
      checkJsonContentType("POST", request.contentType);
      const { slug, source } = parseCreateBody(parseJsonBody(request.body));
      if (store.get(route.orgId, slug) !== undefined) {
        throw new ApiError(
          400,
          `A specification with slug "${slug}" already exists in organization "${route.orgId}"; update it with PUT /v1/orgs/${route.orgId}/openapi/${slug} or choose another slug`,
        );
      }
      const spec = store.create(route.orgId, slug, source);
      ctx.processor.start(spec);
      return { status: 201, json: renderSpec(links, spec) };
    }
    case "putSpec": {
      const slug = checkSlug(route.slug);
      checkJsonContentType("PUT", request.contentType);
      const { source } = parsePutBody(parseJsonBody(request.body));
      const existing = store.get(route.orgId, slug);
      const spec = existing ?? store.create(route.orgId, slug, source);
      if (existing !== undefined) store.replaceSource(existing, source);
      ctx.processor.start(spec);
      return { status: existing === undefined ? 201 : 200, json: renderSpec(links, spec) };
    }
    case "getSpec":
      return ok(renderSpec(links, requireSpec(ctx, route.orgId, route.slug)));
    case "deleteSpec": {
      const spec = requireSpec(ctx, route.orgId, route.slug);
      ctx.processor.cancel(spec);
      store.delete(route.orgId, route.slug);
      return { status: 204 };
    }
    case "listVersions": {
      const spec = requireSpec(ctx, route.orgId, route.slug);
      const key = `versions:${spec.id}`;
      const page = paginate(
        spec.versions.map((version) => ({ seq: version.seq, value: version })),
        parsePageQuery(request.query, key),
        key,
      );
      return ok({ ...page, items: page.items.map((version) => renderVersion(links, spec, version)) });
    }
    case "getVersion":
    case "getContent":
    case "getRawContent": {
      const spec = requireSpec(ctx, route.orgId, route.slug);
      const version = requireVersion(spec, route.versionId);
      if (route.name === "getVersion") return ok(renderVersion(links, spec, version));
      if (route.name === "getContent") return ok(renderContent(links, spec, version));
      return ok(renderRawContent(version));
    }
  }
}

function ok(json: unknown): Reply {
  return { status: 200, json };
}

function checkOrganization(ctx: ApiContext, orgId: string): void {
  if (ctx.forbiddenOrganizations.has(orgId)) {
    throw new ApiError(
      403,
      `The token is not allowed to access organization "${orgId}"; use a token of a member`,
    );
  }
  if (!ctx.organizations.some((org) => org.id === orgId)) {
    throw new ApiError(404, `Organization "${orgId}" not found; check the organization id`);
  }
}

function requireSpec(ctx: ApiContext, orgId: string, slug: string): StoredSpec {
  const spec = ctx.store.get(orgId, slug);
  if (spec === undefined) {
    throw new ApiError(404, `No specification with slug "${slug}" in organization "${orgId}"`);
  }
  return spec;
}

function requireVersion(spec: StoredSpec, versionId: string): StoredVersion {
  if (versionId === "latest") {
    const latest = spec.versions.find((v) => v.id === spec.lastVersion);
    if (latest === undefined) {
      throw new ApiError(
        404,
        `Specification "${spec.slug}" has no version yet (processingState: ${spec.processingState}${spec.lastProcessErrorCode ? `, lastProcessErrorCode: ${spec.lastProcessErrorCode}` : ""})`,
      );
    }
    return latest;
  }
  const version = spec.versions.find((v) => v.id === versionId);
  if (version === undefined) {
    throw new ApiError(404, `Specification "${spec.slug}" has no version "${versionId}"`);
  }
  return version;
}

function findVersion(
  ctx: ApiContext,
  orgId: string,
  slug: string,
  versionId: string,
): StoredVersion | undefined {
  return ctx.store.get(orgId, slug)?.versions.find((v) => v.id === versionId);
}

/**
 * What a `urls.app` link of the emulator opens: a plain page naming the spec, its state and its versions'
 * files (GitBook's own page is its editor; the emulator has none).
 */
function appPage(ctx: ApiContext, route: { orgId: string; slug: string; versionId?: string }): Reply {
  const spec = ctx.store.get(route.orgId, route.slug);
  const notFound: Reply = { status: 404, text: "Not found\n", contentType: "text/plain; charset=utf-8" };
  if (spec === undefined) return notFound;
  const versions =
    route.versionId === undefined ? spec.versions : spec.versions.filter((v) => v.id === route.versionId);
  if (versions.length === 0 && route.versionId !== undefined) return notFound;
  const lines = [
    `OpenAPI specification "${spec.slug}" of organization "${spec.orgId}" (emulator of GitBook)`,
    `Processing: ${spec.processingState}${spec.lastProcessErrorCode ? `, last error ${spec.lastProcessErrorCode}` : ""}`,
    ...versions.map((version) => `Version ${version.id}: ${renderVersion(ctx.links, spec, version).url}`),
  ];
  return { status: 200, text: `${lines.join("\n")}\n`, contentType: "text/plain; charset=utf-8" };
}
