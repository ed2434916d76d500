// Where a session's workflow runs are kept besides its task store: with `--restate-url` (and so
// `--executor restate`), the `workflowRecord` object in Restate, signed and encrypted with the
// remote key, so `warren workflow resume` on another machine finds them.
import { ConfigError } from '../../core/config-error.js';
import { takeRemoteKeys } from '../../remote/remote-key.js';
import type { RecordPort } from '../../workflows/workflow-record.js';
import type { RunArgs } from '../parsed-args.js';

/** The Restate record of this command's runs; undefined without `--restate-url` (or in a replay). */
export async function workflowRecordPort(args: RunArgs): Promise<RecordPort | undefined> {
  if (args.restateUrl === undefined || args.replay) return undefined;
  const keys = takeRemoteKeys(args.remoteKeyFile);
  if (!keys) {
    throw new ConfigError(
      '--restate-url',
      "a workflow's record in Restate needs the remote key its workers accept",
      'set WARREN_REMOTE_KEY (or --remote-key-file) to the key the workers have; `warren restate keygen` makes one',
    );
  }
  const { RestateRecordClient } = await import('../../remote/workflow-record-client.js');
  return new RestateRecordClient({ ingressUrl: args.restateUrl, auth: { keys } });
}

/** Whether Restate holds run `runId` (it is then resumed in a new session here). */
export async function heldInRestate(record: RecordPort, runId: string): Promise<boolean> {
  const entries = await record.read(runId);
  return entries.run !== undefined;
}
