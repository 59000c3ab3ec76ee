import { type ContentFaults, checkFaults, type FaultOptions, type ScriptedFault } from "./options.ts";

export type FaultAction =
  | { kind: "none" }
  | { kind: "drop" }
  | { kind: "status"; status: number; retryAfter?: string; body?: unknown };

export interface FaultDecision {
  /** Milliseconds to wait before acting (latency plus a scripted delay); `Infinity`: never act. */
  delayMs: number;
  action: FaultAction;
}

const SERVER_ERRORS = [500, 502, 503] as const;

/** Decides which requests get a fault: scripted faults first, in order, then seeded random ones. */
export class FaultInjector {
  #faults: FaultOptions = {};
  #random: () => number = Math.random;
  readonly #scripted: { fault: ScriptedFault; remaining: number }[] = [];

  constructor(faults: FaultOptions = {}) {
    this.setFaults(faults);
  }

  setFaults(faults: FaultOptions): void {
    checkFaults(faults);
    this.#faults = { ...faults };
    this.#random = faults.seed === undefined ? Math.random : mulberry32(faults.seed);
  }

  script(...faults: ScriptedFault[]): void {
    for (const fault of faults) this.#scripted.push({ fault, remaining: fault.times ?? 1 });
  }

  /** How successful version-content answers are sent now (`FaultOptions.content`). */
  contentFaults(): ContentFaults {
    return this.#faults.content ?? {};
  }

  isStuck(slug: string): boolean {
    return this.#faults.stuckSlugs?.includes(slug) ?? false;
  }

  isRefused(slug: string): boolean {
    return this.#faults.refusedSlugs?.includes(slug) ?? false;
  }

  decide(method: string, path: string): FaultDecision {
    const latency = this.#faults.latencyMs ?? 0;
    const index = this.#scripted.findIndex((s) => matches(s.fault, method, path));
    const scripted = this.#scripted[index];
    if (scripted !== undefined) {
      scripted.remaining -= 1;
      if (scripted.remaining <= 0) this.#scripted.splice(index, 1);
      const fault = scripted.fault.fault;
      if ("delayMs" in fault) return { delayMs: latency + fault.delayMs, action: { kind: "none" } };
      if ("drop" in fault) return { delayMs: latency, action: { kind: "drop" } };
      return { delayMs: latency, action: { kind: "status", ...fault } };
    }
    return { delayMs: latency, action: this.#randomAction() };
  }

  #randomAction(): FaultAction {
    const { dropRate = 0, rate429 = 0, rate5xx = 0 } = this.#faults;
    if (dropRate + rate429 + rate5xx === 0) return { kind: "none" };
    const draw = this.#random();
    if (draw < dropRate) return { kind: "drop" };
    if (draw < dropRate + rate429) {
      return { kind: "status", status: 429, retryAfter: String(this.#faults.retryAfterSeconds ?? 1) };
    }
    if (draw < dropRate + rate429 + rate5xx) {
      const status = SERVER_ERRORS[Math.floor(this.#random() * SERVER_ERRORS.length)] ?? 500;
      return { kind: "status", status };
    }
    return { kind: "none" };
  }
}

function matches(scripted: ScriptedFault, method: string, path: string): boolean {
  if (scripted.method !== undefined && scripted.method.toUpperCase() !== method.toUpperCase()) return false;
  if (scripted.path === undefined) return true;
  return typeof scripted.path === "string" ? scripted.path === path : scripted.path.test(path);
}

/** A small seeded PRNG (Mulberry32), so that a seed gives the same faults on every run. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
