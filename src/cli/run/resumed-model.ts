// Which model and server a resumed session (`--resume`, `--continue`) runs with: the ones it
// ran with before, unless the command line names a model; and what a session records of them.
import { resolve } from 'node:path';
import {
  readSessionModel,
  type SessionModel,
  writeSessionModel,
} from '../../session/session-model.js';
import { defaultSessionDir } from '../../session/session-paths.js';
import type { RunArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';

/**
 * The args with the session's model and server filled in. `--model` wins, and then the session
 * keeps its server only if the model is the same; `WARREN_MODEL` (ambient, not a decision about
 * this session) does not win over what the session ran with, nor does `WARREN_BASE_URL`.
 */
export function withSessionModel(args: RunArgs, recorded: SessionModel | undefined): RunArgs {
  if (!recorded) return args;
  const toldOtherwise = args.model !== undefined && !args.modelFromEnv;
  if (toldOtherwise && args.model !== recorded.model) return args;
  return {
    ...args,
    model: recorded.model,
    modelFromEnv: false,
    baseUrl: args.baseUrl ?? recorded.baseUrl,
  };
}

/** What a session records: the model spec it runs with and the server named for it. */
export function sessionModelOf(
  args: RunArgs,
  definitionModel: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): SessionModel | undefined {
  const model = args.model ?? definitionModel;
  if (!model || args.replay) return undefined;
  const baseUrl = args.baseUrl ?? (env.WARREN_BASE_URL || undefined);
  return baseUrl === undefined ? { model } : { model, baseUrl };
}

/** Records each session's model once, so `--resume` goes on with it; a failure only warns. */
export function rememberModel(
  sessionDir: string,
  model: SessionModel | undefined,
  io: CliIo,
): (sessionId: string) => void {
  const done = new Set<string>();
  return (sessionId) => {
    if (!model || done.has(sessionId)) return;
    done.add(sessionId);
    try {
      writeSessionModel(sessionDir, sessionId, model);
    } catch (error) {
      io.stderr(
        `warren: warning: cannot record the session's model (--resume will need --model): ${(error as Error).message}\n`,
      );
    }
  };
}

/**
 * The session folder, the session to go on with (`--resume`, `--continue`), and the args with
 * its model and server filled in.
 */
export async function sessionToRun(
  given: RunArgs,
  cwd: string,
): Promise<{ args: RunArgs; sessionDir: string; resume: string | undefined }> {
  const sessionDir = resolve(given.sessionDir ?? defaultSessionDir());
  const resume = given.continue ? await latestSession(sessionDir, cwd) : given.resume;
  const recorded = resume ? readSessionModel(sessionDir, resume) : undefined;
  return { args: withSessionModel(given, recorded), sessionDir, resume };
}

/** `--continue`: the latest session of this directory (session/latest-session.ts). */
async function latestSession(sessionDir: string, cwd: string): Promise<string> {
  const { findLatestSession } = await import('../../session/latest-session.js');
  return findLatestSession({ sessionDir, cwd });
}
