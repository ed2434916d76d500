// The worker's Restate SDK log: its own lines at the level RESTATE_LOGGING names (default WARN),
// less the SDK's warning and stack trace for each refusal, which refusal.ts has already said in
// one line: a forged request must not fill the log with traces.
import * as restate from '@restatedev/restate-sdk';
import { REFUSED } from './refusal.js';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;

export function workerLogger(env: Record<string, string | undefined>): restate.LoggerTransport {
  const wanted = (env.RESTATE_LOGGING || 'WARN').toLowerCase();
  const floor = Math.max(0, LEVELS.indexOf(wanted as (typeof LEVELS)[number]));
  return (meta, message, ...rest) => {
    if (meta.replaying || LEVELS.indexOf(meta.level) < floor) return;
    if (rest.some(isRefusal)) return;
    const where = meta.context ? `[${meta.context.invocationTarget}]` : '';
    const line = `[restate]${where} ${meta.level.toUpperCase()}:`;
    if (meta.level === 'error') console.error(line, message, ...rest);
    else console.warn(line, message, ...rest);
  };
}

function isRefusal(value: unknown): boolean {
  return value instanceof restate.TerminalError && value.message.startsWith(REFUSED);
}
