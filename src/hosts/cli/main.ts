#!/usr/bin/env node
/** Entry of the `gitbook-openapi` command (built to dist/cli.js): runs once, sets the exit code. */
import "./node-version.ts";
import { isCompareWorker, serveComparison } from "../../core/review/compare-worker.ts";
import { runCli } from "./program.ts";
import { processSignals } from "./signals.ts";

// The bundle is also the change review's worker (src/core/review/compare-worker.ts): there it only compares.
if (isCompareWorker()) serveComparison();
else {
  // `gitbook-openapi specs list | head` closes the pipe early: that is not an error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });

  process.exitCode = await runCli(process.argv.slice(2), {
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    signals: processSignals,
  });
}
