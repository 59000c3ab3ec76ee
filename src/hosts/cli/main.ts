#!/usr/bin/env node
/** Entry of the `gitbook-openapi` command (built to dist/cli.js): runs once, sets the exit code. */
import "./node-version.ts";
// The namespace, not a named import: an ES module's named imports are linked before any code runs, so
// `{ enableCompileCache }` (Node 22.1+) would fail on an older Node before the version check could speak.
import * as nodeModule from "node:module";
import { isCompareWorker } from "../../core/change-review/worker-kind.ts";
import { processSignals } from "../process-signals.ts";
import { CLI_VERSION } from "./version.ts";

// V8 keeps the code it compiles for the modules loaded below in a cache on disk (Node's own folder under
// the temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a second run starts without
// compiling them again (docs/design/build-choice.md).
nodeModule.enableCompileCache();
// Built (dist/cli.js), the command is ES module chunks that import each other by relative path, about 170
// imports for one `validate`: each is joined to its importer's URL here, without Node's resolution of
// each (a file URL made from a path, its real path read from disk), 8–10 ms of CPU of such a start
// (docs/design/build-choice.md). Anything else, and the sources (.ts), resolve as Node resolves them.
if (import.meta.url.endsWith(".js")) {
  const built = new URL(".", import.meta.url).href;
  nodeModule.registerHooks?.({
    resolve: (specifier, context, next) =>
      specifier.startsWith("./") && specifier.endsWith(".js") && context.parentURL?.startsWith(built)
        ? { url: new URL(specifier, context.parentURL).href, format: "module", shortCircuit: true }
        : next(specifier, context),
  });
}

// Everything else loads after the version check, and only what the thread needs: the entry may be the
// change review's worker (src/core/change-review/compare-worker.ts), which only compares; the command line
// loads a command's implementation when that command runs (program.ts).
const args = process.argv.slice(2);
if (isCompareWorker(process.argv))
  (await import("../../core/change-review/compare-worker.ts")).serveComparison();
else if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  // What install checks and scripts run: answered as the command line would (program.ts), without it.
  process.stdout.on("error", () => {});
  process.stdout.write(`${CLI_VERSION}\n`, async (error) => {
    if (!error) return;
    process.exitCode = 1;
    const { writeFailure } = await import("./output.ts");
    process.stderr.write(`gitbook-openapi: error: cannot write to stdout: ${writeFailure(error)}.\n`);
  });
} else {
  const [{ runCli }, { processStream }, { ExitCode }, { boundHeapGrowth }] = await Promise.all([
    import("./program.ts"),
    import("./process-stream.ts"),
    import("./exit-codes.ts"),
    import("../heap-growth.ts"),
  ]);
  boundHeapGrowth();
  const code = await runCli(args, {
    env: process.env,
    cwd: process.cwd(),
    stdout: processStream(process.stdout),
    stderr: processStream(process.stderr),
    signals: processSignals,
  });
  process.exitCode = code;
  // Interrupted: everything is written (runCli waits for its writes), and the requests left under way
  // at the stop are not waited for.
  if (code === ExitCode.interrupted || code === ExitCode.terminated) process.exit(code);
}
