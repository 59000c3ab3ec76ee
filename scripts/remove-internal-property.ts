/**
 * The property of remove-internal (test/shaping/internal-documents.ts) over more documents than
 * `npm test` shapes: `RUNS=20000 SEED=7 node scripts/remove-internal-property.ts` (defaults: 5,000 runs,
 * a seed from the clock, printed so that a failure can be replayed with it). Exits 1 on a counterexample,
 * which fast-check prints shrunk.
 */
import { assertRemoveInternal } from "../test/shaping/internal-documents.ts";

const numRuns = Number(process.env.RUNS ?? 5000);
const seed = Number(process.env.SEED ?? Date.now() % 2 ** 31);
if (!Number.isSafeInteger(numRuns) || numRuns < 1 || !Number.isSafeInteger(seed)) {
  console.error("RUNS must be a positive whole number and SEED a whole number.");
  process.exit(2);
}
console.log(`remove-internal property: ${numRuns} documents from seed ${seed}`);
const started = performance.now();
try {
  assertRemoveInternal({ seed, numRuns });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
console.log(`held for all ${numRuns} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
