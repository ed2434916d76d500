import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentRef } from '../../core/events.js';
import { denialReport } from './denial-report.js';

const main: AgentRef = { agentId: 'main', parentId: null, depth: 0 };
const child: AgentRef = { agentId: 'child', parentId: 'main', depth: 1 };

const toolEndFields = {
  type: 'tool_end',
  toolCallId: 'call',
  toolName: 'Bash',
  durationMs: 1,
} as const;

const toolEnd = (who: AgentRef, denial?: string): AgentEvent => ({
  ...who,
  ...toolEndFields,
  output: denial ?? 'ok',
  isError: denial !== undefined,
  ...(denial !== undefined && { denial }),
});

function report(events: AgentEvent[]): string {
  let text = '';
  const denials = denialReport((line) => {
    text += line;
  });
  for (const event of events) denials.event(event);
  denials.finish();
  return text;
}

describe('denialReport', () => {
  it('says nothing when nothing was denied, failed calls included', () => {
    const failed: AgentEvent = { ...main, ...toolEndFields, isError: true, output: 'boom' };
    expect(report([toolEnd(main), failed])).toBe('');
  });

  it('prints one line per denial, naming the sub-agent, then a summary', () => {
    const events: AgentEvent[] = [
      toolEnd(
        main,
        'Bash(rm x) was denied by the rule "Bash(rm:*)" from --disallowed-tools; to allow it, remove that rule.',
      ),
      {
        ...child,
        type: 'run_start',
        agentType: 'explore',
        description: 'look',
        model: 'm',
        tools: [],
        cwd: '/',
        path: 'main/Agent#1/explore',
      },
      toolEnd(
        child,
        'Permission to use Bash(make) was not granted. To allow it, rerun with --allowed-tools "Bash(make)".',
      ),
    ];
    expect(report(events).split('\n')).toEqual([
      'warren: denied: Bash(rm x) was denied by the rule "Bash(rm:*)" from --disallowed-tools; to allow it, remove that rule.',
      'warren: denied (explore): Permission to use Bash(make) was not granted. To allow it, rerun with --allowed-tools "Bash(make)".',
      'warren: 2 tool calls were denied, so the result may be incomplete; the lines above say how to allow them',
      '',
    ]);
  });

  it('keeps each denial on one line, whatever the command held', () => {
    const text = report([
      toolEnd(main, 'Permission to use Bash(echo a\necho \u001b[2J) was not granted.'),
    ]);
    expect(text.split('\n')[0]).toBe(
      'warren: denied: Permission to use Bash(echo a\\u{a}echo \\u{1b}[2J) was not granted.',
    );
  });
});
