/**
 * The process's SIGINT and SIGTERM, and its exit, for both hosts (the Action and the CLI): what each
 * does with them is the core's stop (core/run/stopped.ts `listenForStop`, `SyncPorts.stop`).
 */
import type { SignalSource } from "../core/run/stopped.ts";

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
