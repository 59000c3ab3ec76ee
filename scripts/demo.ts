/**
 * `npm run demo`: starts the bundled emulator of the service on loopback, runs the built action
 * (dist/index.js) against examples/ exactly as the GitHub runner would, and prints what a user sees:
 * the job summary, the outputs and the emulator's final state. No token, no network.
 */
import path from "node:path";
import { startEmulator } from "../harness/emulator/index.ts";
import {
  ACTION_BUNDLE,
  renderLogAsRunner,
  repositoryRoot,
  runActionLikeRunner,
} from "../harness/runner/action-runner.ts";

const emulator = await startEmulator({ processing: { pendingMs: 300, progressMs: 500 } });
try {
  console.log(
    `Emulator of the GitBook API on ${emulator.baseUrl} (organization demo-org, token ${emulator.token})\n`,
  );
  const run = await runActionLikeRunner({
    entry: ACTION_BUNDLE,
    workspace: path.join(repositoryRoot, "examples"),
    inputs: { token: emulator.token, organization: "demo-org", "api-url": emulator.baseUrl },
    env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "0000000000000000000000000000000000000000" },
  });
  console.log("── The action's log ──");
  console.log(renderLogAsRunner(run.stdout));
  if (run.stderr.trim()) console.log(run.stderr.trimEnd());
  console.log("\n── Job summary (GITHUB_STEP_SUMMARY) ──");
  console.log(run.summary.trimEnd());
  console.log("\n── Outputs ──");
  for (const [name, value] of Object.entries(run.outputs)) {
    console.log(`${name}: ${name === "results" ? JSON.stringify(JSON.parse(value), null, 2) : value}`);
  }
  console.log("\n── The emulator now holds ──");
  for (const spec of emulator.listSpecs("demo-org")) {
    console.log(`${spec.slug}: ${spec.processingState}, last version ${spec.lastVersion ?? "none"}`);
  }
  console.log(`\nExit code: ${run.exitCode}`);
  console.log(
    "\nThe emulator stops with the demo, so the links above no longer answer. Run it yourself with" +
      " `npm run emulator`, and see README.md for the workflows to add to a repository.",
  );
  process.exitCode = run.exitCode;
} finally {
  await emulator.close();
}
