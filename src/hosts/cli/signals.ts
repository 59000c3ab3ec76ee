/**
 * Ctrl-C (SIGINT) and SIGTERM during `sync`. The first stops the run through the core's one stop
 * (`SyncPorts.stop`): no spec starts after it, those under way get a short grace to end, and the
 * partial report is printed (what published, what failed, what was cancelled, what did not start)
 * before the command exits with 130 or 143, as a shell reports a process ended by that signal. A
 * second signal exits at once with its code. Shared with the Action: core/run/stopped.ts and
 * hosts/process-signals.ts.
 */
export {
  Interrupted,
  listenForStop,
  type SignalSource,
  type StopSignal,
} from "../../core/run/stopped.ts";
export { processSignals } from "../process-signals.ts";
