/**
 * Ctrl-C (SIGINT) and SIGTERM during `sync`. The first stops the run through the core's one stop
 * (`SyncPorts.stop`): no spec starts after it, those started finish, and the partial report is printed
 * (what published, what failed, what did not start) before the command exits with 130 or 143, as a
 * shell reports a process ended by that signal. A second signal exits at once with the same code.
 */
import { ExitCode } from "./exit-codes.ts";

export type StopSignal = "SIGINT" | "SIGTERM";

/** Where signals come from and how the process ends at once: the process's own in `main.ts`. */
export interface SignalSource {
  /** Calls `handler` on each SIGINT or SIGTERM until the returned function is called. */
  listen(handler: (signal: StopSignal) => void): () => void;
  /** Ends the process now with this code. */
  exit(code: number): void;
}

export const processSignals: SignalSource = {
  listen(handler) {
    const onInt = () => handler("SIGINT");
    const onTerm = () => handler("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
    return () => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    };
  },
  exit: (code) => process.exit(code),
};

/** What stopped a run: the signal, and the exit code that says so. */
export class Interrupted extends Error {
  override readonly name = "Interrupted";
  readonly signal: StopSignal;

  constructor(signal: StopSignal) {
    super(`interrupted by ${signal}`);
    this.signal = signal;
  }

  get exitCode(): number {
    return this.signal === "SIGINT" ? ExitCode.interrupted : ExitCode.terminated;
  }
}

/**
 * Listens for the run's stop: the first signal aborts the returned `stop` (and calls `onFirst`, to say
 * what happens now), a second one calls `onSecond` and exits at once. `dispose()` stops listening.
 */
export function listenForStop(
  source: SignalSource | undefined,
  handlers: { onFirst(signal: StopSignal): void; onSecond(signal: StopSignal): void },
): { stop: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (source === undefined) return { stop: controller.signal, dispose: () => {} };
  const dispose = source.listen((signal) => {
    if (!controller.signal.aborted) {
      controller.abort(new Interrupted(signal));
      handlers.onFirst(signal);
      return;
    }
    handlers.onSecond(signal);
    source.exit(new Interrupted(signal).exitCode);
  });
  return { stop: controller.signal, dispose };
}
