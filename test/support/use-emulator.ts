/**
 * The setup of a test file that runs against the emulator: the emulator itself, started once with
 * quick processing and closed after the file's tests; the variables that point a CLI run at it; and
 * temporary folders, each removed after the test that made it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";

export const ORG = "demo-org";

/** The emulator for the file's tests, started once (quick processing) and closed after them. */
export function useEmulator(token: string): () => RunningEmulator {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ token, processing: { pendingMs: 5, progressMs: 5 } });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return () => emulator as RunningEmulator;
}

/** The variables that send a CLI run to `emulator` with `token`, in the organization {@link ORG}. */
export function emulatorEnv(emulator: RunningEmulator, token: string): Record<string, string> {
  return { GITBOOK_TOKEN: token, GITBOOK_API_URL: emulator.baseUrl, GITBOOK_ORGANIZATION: ORG };
}

/** Makes a new temporary folder named from `prefix`; each is removed after the test that made it. */
export function useTempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return async () => {
    const dir = await mkdtemp(path.join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}
