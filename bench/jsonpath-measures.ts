/**
 * What bench/overlays.ts and bench/overlay-patterns.ts share: the JSONPath Compliance Test Suite's tests
 * counted against an implementation (the whole suite, or its regex cases), and the median of timed runs.
 */
import { isDeepStrictEqual } from "node:util";

export interface ComplianceTest {
  selector: string;
  document?: unknown;
  result?: unknown[];
  results?: unknown[][];
  invalid_selector?: boolean;
}

/** How many of `tests` `values` passes: the expected nodes' values, or an error for an invalid selector. */
export function passedTests(
  tests: readonly ComplianceTest[],
  values: (document: unknown, selector: string) => unknown[],
): number {
  let passed = 0;
  for (const test of tests) {
    let ok: boolean;
    try {
      const got = values(test.document, test.selector);
      ok =
        !test.invalid_selector &&
        (test.result
          ? isDeepStrictEqual(got, test.result)
          : (test.results ?? []).some((r) => isDeepStrictEqual(got, r)));
    } catch {
      ok = test.invalid_selector === true;
    }
    if (ok) passed++;
  }
  return passed;
}

/** The median of `times` runs of `run`, in milliseconds. */
export function median(run: () => unknown, times = 5): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)] as number;
}
