// The permission question as a person sees it and answers it: who asks, the exact call (a
// diff for an edit), and the answers by letter, by number, or with the arrows and Enter.
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { editTool } from '../../tools/edit.js';
import { PermissionPrompt } from './permission-prompt.js';
import type { PendingPermission } from './permission-queue.js';

const edit: PendingPermission = {
  id: 1,
  agent: {
    agentId: 'c1',
    agentType: 'explore',
    description: 'fix the typo',
    depth: 1,
    background: false,
  },
  prompt: {
    tool: editTool,
    input: { file_path: 'src/a.ts', old_string: 'cosnt a = 1;', new_string: 'const a = 1;' },
    cwd: '/p',
    allowedDirs: ['/p'],
    agent: { agentId: 'c1', parentId: 'main', depth: 1, agentType: 'explore' },
    signal: new AbortController().signal,
    subject: 'src/a.ts',
    call: 'Edit(src/a.ts)',
    suggestions: { exact: 'Edit(./src/a.ts)', broader: 'Edit(src/**)' },
  },
};

function renderPrompt(pending = edit) {
  const answers = { once: vi.fn(), always: vi.fn(), deny: vi.fn() };
  const ui = render(
    <PermissionPrompt
      pending={pending}
      waiting={2}
      onAllowOnce={answers.once}
      onAllowAlways={answers.always}
      onDeny={answers.deny}
    />,
  );
  const type = async (...keys: string[]) => {
    for (const key of keys) {
      ui.stdin.write(key);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { ui, answers, type };
}

describe('the permission question', () => {
  it('names the asking agent and shows the exact call, with the diff of an edit', () => {
    const { ui } = renderPrompt();
    const frame = ui.lastFrame()!;
    expect(frame).toContain('Permission · explore  fix the typo · 2 more waiting');
    expect(frame).toContain('Edit: src/a.ts');
    expect(frame).toContain('- cosnt a = 1;');
    expect(frame).toContain('+ const a = 1;');
    expect(frame).toContain('1. Yes (y)');
    expect(frame).toContain('2. Always: Edit(./src/a.ts) (a)');
    expect(frame).toContain('3. Always: Edit(src/**) (b)');
    expect(frame).toContain('4. No, and tell the model why (n)');
    expect(frame).toContain('for every agent of the tree');
    ui.unmount();
  });

  it('answers by letter: y once, a and b always with their rule', async () => {
    for (const [key, check] of [
      ['y', (a: ReturnType<typeof renderPrompt>['answers']) => expect(a.once).toHaveBeenCalled()],
      [
        'a',
        (a: ReturnType<typeof renderPrompt>['answers']) =>
          expect(a.always).toHaveBeenCalledWith('Edit(./src/a.ts)'),
      ],
      [
        'b',
        (a: ReturnType<typeof renderPrompt>['answers']) =>
          expect(a.always).toHaveBeenCalledWith('Edit(src/**)'),
      ],
    ] as const) {
      const { ui, answers, type } = renderPrompt();
      await type(key);
      check(answers);
      ui.unmount();
    }
  });

  it('takes the arrows and Enter, and a number', async () => {
    const arrows = renderPrompt();
    await arrows.type('\u001b[B', '\r');
    expect(arrows.answers.always).toHaveBeenCalledWith('Edit(./src/a.ts)');
    arrows.ui.unmount();
    const number = renderPrompt();
    await number.type('3');
    expect(number.answers.always).toHaveBeenCalledWith('Edit(src/**)');
    number.ui.unmount();
  });

  it('says no with an optional note for the model on n, and a plain no on Esc', async () => {
    const { ui, answers, type } = renderPrompt();
    await type('n');
    expect(ui.lastFrame()).toContain('Tell the model why (optional), Enter to send:');
    await type('use sed', '\r');
    expect(answers.deny).toHaveBeenCalledWith('use sed');
    ui.unmount();
    const onEscape = renderPrompt();
    await onEscape.type('\u001b');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(onEscape.answers.deny).toHaveBeenCalledWith('');
    onEscape.ui.unmount();
  });
});
