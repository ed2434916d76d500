// `warren workflows [--json]`: the saved workflows of the project (and the bundled ones), and the
// runs of the session folder with their status, newest first.
import { resolve } from 'node:path';
import { defaultSessionDir } from '../../session/session-paths.js';
import { listWorkflows } from '../../workflows/saved-workflows.js';
import { cwdFlag } from '../cwd-flag.js';
import type { WorkflowsArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { textTable } from '../text-table.js';
import { sessionsWithRuns } from './workflow-sessions.js';

export async function runWorkflowsCommand(args: WorkflowsArgs, io: CliIo): Promise<number> {
  const cwd = cwdFlag(args);
  const { workflows, warnings } = await listWorkflows(cwd);
  for (const warning of warnings) io.stderr(`warren: warning: ${warning}\n`);
  const runs = sessionsWithRuns(resolve(args.sessionDir ?? defaultSessionDir())).flatMap(
    ({ sessionId, runs }) =>
      runs.toReversed().map((run) => ({
        run_id: run.runId,
        session_id: sessionId,
        name: run.name,
        status: run.status,
        reason: run.reason || null,
        spent_tokens: run.spentTokens,
        budget_tokens: run.budgetTokens,
        updated_at: new Date(run.updatedAt).toISOString(),
      })),
  );
  const saved = workflows.map((workflow) => ({
    name: workflow.name,
    description: workflow.description,
    origin: workflow.origin,
    file: workflow.filename,
  }));
  if (args.json) {
    io.stdout(`${JSON.stringify({ workflows: saved, runs }, null, 2)}\n`);
    return 0;
  }
  const table = (rows: string[][]) => `${textTable(rows).join('\n')}\n`;
  io.stdout(
    table([
      ['WORKFLOW', 'ORIGIN', 'DESCRIPTION'],
      ...saved.map((workflow) => [workflow.name, workflow.origin, clip(workflow.description, 70)]),
    ]),
  );
  io.stdout('\n');
  io.stdout(
    runs.length === 0
      ? 'No workflow runs in this session folder.\n'
      : table([
          ['RUN', 'NAME', 'STATUS', 'TOKENS', 'SESSION', 'REASON'],
          ...runs.map((run) => [
            run.run_id,
            run.name,
            run.status,
            String(run.spent_tokens),
            run.session_id,
            clip(run.reason ?? '', 60),
          ]),
        ]),
  );
  return 0;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
