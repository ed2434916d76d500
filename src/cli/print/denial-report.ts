// Text mode's account of what the permission policy refused: one stderr line per denied call,
// with what would allow it, and a summary at the end, so a run that quietly did less than it
// was asked to never looks like a clean success.
import type { AgentEvent } from '../../core/events.js';
import { terminalSafe } from '../terminal-text.js';

export interface DenialReport {
  event(event: AgentEvent): void;
  finish(): void;
}

export function denialReport(write: (text: string) => void): DenialReport {
  /** Each sub-agent's type, for naming who was denied. */
  const agentTypes = new Map<string, string>();
  let denied = 0;
  return {
    event(event) {
      if (event.type === 'run_start') agentTypes.set(event.agentId, event.agentType);
      if (event.type !== 'tool_end' || event.denial === undefined) return;
      denied += 1;
      const who = event.depth === 0 ? '' : ` (${agentTypes.get(event.agentId) ?? 'sub-agent'})`;
      write(`${terminalSafe(`warren: denied${who}: ${event.denial}`)}\n`);
    },
    finish() {
      if (denied === 0) return;
      const calls = denied === 1 ? '1 tool call was' : `${denied} tool calls were`;
      write(
        `warren: ${calls} denied, so the result may be incomplete; the lines above say how to allow them\n`,
      );
    },
  };
}
