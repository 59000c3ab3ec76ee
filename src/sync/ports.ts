import type { Spec, SpecSource, SpecVersion } from "../client/types.ts";

/** The calls the sync pipeline makes to the service; `GitBookClient` implements it. */
export interface SpecService {
  putSpec(orgId: string, slug: string, source: SpecSource): Promise<{ spec: Spec; created: boolean }>;
  getSpec(orgId: string, slug: string): Promise<Spec>;
  getVersion(orgId: string, slug: string, versionId: string): Promise<SpecVersion>;
  getLatestVersion(orgId: string, slug: string): Promise<SpecVersion>;
  deleteSpec(orgId: string, slug: string): Promise<void>;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
