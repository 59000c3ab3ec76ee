import { createCoreHost } from "./core-host.ts";
import { runAction } from "./run.ts";

/** The action's entry: runs once with the real runner; every error ends as a failed step. */
export async function run(): Promise<void> {
  await runAction(createCoreHost());
}
