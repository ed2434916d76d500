// The flags of `warren workflow run <file.js>`, `warren workflow resume <run>` and
// `warren workflows`, checked as every other command's are.

import { ConfigError } from '../core/config-error.js';
import { messageOf } from '../core/error-message.js';
import type { ParsedValues } from './cli-args.js';
import type { OutputFormat, RunArgs, WorkflowArgs, WorkflowsArgs } from './parsed-args.js';

export const WORKFLOW_OPTIONS = {
  args: { type: 'string' },
  budget: { type: 'string' },
  script: { type: 'string' },
} as const;

const FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];

/** `runArgs` is cli-args.ts's own: passed in, so the two modules do not import each other. */
export function workflowArgs(
  positionals: readonly string[],
  values: ParsedValues,
  runArgs: (values: ParsedValues) => RunArgs,
): WorkflowArgs | WorkflowsArgs {
  if (positionals[0] === 'workflows') {
    if (positionals.length > 1)
      throw new ConfigError(
        `workflows ${positionals[1]}`,
        'unexpected argument',
        'warren workflows [--json]',
      );
    refuseWorkflowFlags(values);
    return {
      command: 'workflows',
      json: values.json === true,
      cwd: values.cwd,
      sessionDir: values['session-dir'],
    };
  }
  const [, action, target, ...extra] = positionals;
  if (action !== 'run' && action !== 'resume') {
    throw new ConfigError(
      `workflow ${action ?? ''}`.trim(),
      'needs an action',
      'warren workflow run <file.js> [--args JSON], or warren workflow resume <run-id>',
    );
  }
  if (target === undefined) {
    throw new ConfigError(
      `warren workflow ${action}`,
      action === 'run' ? 'needs a script file' : 'needs a run id',
      `warren workflow ${action} ${action === 'run' ? '<file.js>' : '<run-id>'}`,
    );
  }
  if (extra.length > 0)
    throw new ConfigError(
      `warren workflow ${action} ${extra.join(' ')}`,
      'unexpected argument',
      'run warren --help',
    );
  if (action === 'run' && values.script !== undefined)
    throw new ConfigError('--script', 'is for `warren workflow resume`', 'leave it out');
  if (action === 'resume' && values.args !== undefined)
    throw new ConfigError(
      '--args',
      'cannot change on resume: the run keeps its args',
      'leave it out',
    );
  if (action === 'resume' && !/^wf_[0-9a-f]{8}$/.test(target))
    throw new ConfigError(
      target,
      'is not a workflow run id',
      '`warren workflows` lists the runs (wf_…)',
    );
  if (values.args !== undefined) {
    try {
      JSON.parse(values.args);
    } catch (error) {
      throw new ConfigError(
        '--args',
        `is not JSON: ${messageOf(error)}`,
        `e.g. --args '{"files": ["a.ts"]}'`,
      );
    }
  }
  const budget = values.budget === undefined ? undefined : Number(values.budget);
  if (
    budget !== undefined &&
    (!/^\d+$/.test(values.budget!) || !Number.isSafeInteger(budget) || budget < 1)
  ) {
    throw new ConfigError(
      '--budget',
      `expected a positive whole number of tokens, got "${values.budget}"`,
      'e.g. --budget 2000000',
    );
  }
  const format = values['output-format'] ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new ConfigError(
      '--output-format',
      `unknown value "${format}"`,
      `use one of: ${FORMATS.join(', ')}`,
    );
  }
  return {
    command: 'workflow',
    action,
    file: action === 'run' ? target : undefined,
    runId: action === 'resume' ? target : undefined,
    argsJson: values.args,
    budget,
    script: values.script,
    outputFormat: format as OutputFormat,
    ...runArgs(values),
  };
}

/** `--args`, `--budget` and `--script` belong to `warren workflow`. */
export function refuseWorkflowFlags(values: ParsedValues): void {
  for (const flag of ['args', 'budget', 'script'] as const) {
    if (values[flag] !== undefined)
      throw new ConfigError(
        `--${flag}`,
        'is only for `warren workflow run|resume`',
        'leave it out',
      );
  }
}
