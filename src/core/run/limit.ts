import pLimit, { type LimitFunction } from "p-limit";
import type { SpecService } from "../ports.ts";

/**
 * Wraps a service so that at most `concurrency` of its calls are in flight at once, whichever spec
 * makes them: specs upload and poll independently, and a sleeping poller holds no slot.
 */
export function limitConcurrency(service: SpecService, concurrency: number | LimitFunction): SpecService {
  const limit = typeof concurrency === "number" ? pLimit(concurrency) : concurrency;
  return {
    putSpec: (orgId, slug, source) => limit(() => service.putSpec(orgId, slug, source)),
    getSpec: (orgId, slug, options) => limit(() => service.getSpec(orgId, slug, options)),
    getVersion: (orgId, slug, versionId) => limit(() => service.getVersion(orgId, slug, versionId)),
    getLatestVersion: (orgId, slug) => limit(() => service.getLatestVersion(orgId, slug)),
    getVersionContent: (orgId, slug, versionId, options) =>
      limit(() => service.getVersionContent(orgId, slug, versionId, options)),
    deleteSpec: (orgId, slug) => limit(() => service.deleteSpec(orgId, slug)),
  };
}
