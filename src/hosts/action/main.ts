import { processSignals } from "../process-signals.ts";
import { createCoreHost } from "./core-host.ts";
import { defaultDependencies, runAction } from "./run.ts";

/** The action's entry: runs once with the real runner; every error ends as a failed step. */
export async function run(): Promise<void> {
  const code = await runAction(createCoreHost(), { ...defaultDependencies, signals: processSignals });
  if (code === undefined) return;
  // Stopped by a signal: what was written reaches the runner, then the process ends with the signal's
  // code rather than waiting for the requests left under way.
  await new Promise((resolve) => process.stdout.write("", resolve));
  process.exit(code);
}
