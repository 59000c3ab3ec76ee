import { readFile } from "node:fs/promises";
import { CLI_USAGE, CliUsageError, parseCliArgs, parseOrganizationsFile } from "./cli-args.ts";
import { EmulatorOptionsError, startEmulator } from "./index.ts";

async function main(): Promise<void> {
  const command = parseCliArgs(process.argv.slice(2));
  if (command.kind === "help") {
    process.stdout.write(CLI_USAGE);
    return;
  }
  const options = command.options;
  if (command.orgsFile !== undefined) {
    let text: string;
    try {
      text = await readFile(command.orgsFile, "utf8");
    } catch (error) {
      throw new CliUsageError(`--orgs ${command.orgsFile} cannot be read: ${(error as Error).message}`);
    }
    options.organizations = parseOrganizationsFile(text, command.orgsFile);
  }
  const emulator = await startEmulator(options);
  const orgs = (options.organizations ?? [{ id: "demo-org" }]).map((org) => org.id).join(", ");
  const label = orgs.includes(",") ? "organizations" : "organization";
  process.stdout.write(
    `GitBook API emulator listening on ${emulator.baseUrl} (${label} ${orgs}, token ${emulator.token})\n`,
  );
  const stop = (signal: string): void => {
    process.stdout.write(`Received ${signal}, closing the emulator\n`);
    void emulator.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const known = error instanceof CliUsageError || error instanceof EmulatorOptionsError;
  const code = (error as { code?: unknown }).code;
  const message =
    code === "EADDRINUSE"
      ? `The port is already in use (${(error as Error).message}); pass another with --port, or --port 0`
      : error instanceof Error
        ? error.message
        : String(error);
  process.stderr.write(`emulator: ${message}\n`);
  if (!known && code !== "EADDRINUSE" && error instanceof Error && error.stack)
    process.stderr.write(`${error.stack}\n`);
  process.exit(2);
});
