export type Route =
  | { name: "listSpecs" | "createSpec"; orgId: string }
  | { name: "getSpec" | "putSpec" | "deleteSpec" | "listVersions"; orgId: string; slug: string }
  /** `versionId` may be the alias "latest". */
  | { name: "getVersion" | "getContent" | "getRawContent"; orgId: string; slug: string; versionId: string }
  | { name: "listOrgsForDomain"; domain: string }
  /** The public text of a version, outside /v1 (see `versionFileUrl`). */
  | { name: "versionFile"; orgId: string; slug: string; versionId: string; file: string }
  /** The page a `urls.app` link opens (outside /v1, no token): the spec, or one of its versions. */
  | { name: "appPage"; orgId: string; slug: string; versionId?: string };

export type RouteName = Route["name"];

export type RouteMatch =
  | { found: true; route: Route }
  | { found: false; status: 404 }
  | { found: false; status: 405; allow: string[] };

type Params = Record<string, string>;

const TABLE: { pattern: string[]; methods: Partial<Record<string, RouteName>> }[] = [
  { pattern: ["v1", "orgs", ":orgId", "openapi"], methods: { GET: "listSpecs", POST: "createSpec" } },
  {
    pattern: ["v1", "orgs", ":orgId", "openapi", ":slug"],
    methods: { GET: "getSpec", PUT: "putSpec", DELETE: "deleteSpec" },
  },
  { pattern: ["v1", "orgs", ":orgId", "openapi", ":slug", "versions"], methods: { GET: "listVersions" } },
  {
    pattern: ["v1", "orgs", ":orgId", "openapi", ":slug", "versions", ":versionId"],
    methods: { GET: "getVersion" },
  },
  {
    pattern: ["v1", "orgs", ":orgId", "openapi", ":slug", "versions", ":versionId", "content"],
    methods: { GET: "getContent" },
  },
  {
    pattern: ["v1", "orgs", ":orgId", "openapi", ":slug", "versions", ":versionId", "content", "raw"],
    methods: { GET: "getRawContent" },
  },
  { pattern: ["v1", "email-domains", ":domain", "orgs"], methods: { GET: "listOrgsForDomain" } },
  { pattern: ["files", ":orgId", ":slug", ":versionId", ":file"], methods: { GET: "versionFile" } },
  { pattern: ["o", ":orgId", "openapi", ":slug"], methods: { GET: "appPage" } },
  { pattern: ["o", ":orgId", "openapi", ":slug", "versions", ":versionId"], methods: { GET: "appPage" } },
];

/** Finds the route of a request; path parameters are URL-decoded. */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const segments = pathname.split("/").slice(1);
  for (const { pattern, methods } of TABLE) {
    const params = matchPattern(pattern, segments);
    if (params === undefined) continue;
    const name = methods[method.toUpperCase()];
    if (name === undefined) return { found: false, status: 405, allow: Object.keys(methods) };
    return { found: true, route: { name, ...params } as Route };
  }
  return { found: false, status: 404 };
}

function matchPattern(pattern: string[], segments: string[]): Params | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Params = {};
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i] ?? "";
    if (part.startsWith(":")) {
      const value = decode(segment);
      if (value === undefined || value.length === 0) return undefined;
      params[part.slice(1)] = value;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
