// The `workflowRecord` object (key: a workflow run id): the run's record kept in Restate, so
// `warren workflow resume` on another machine finds it. Entries arrive encrypted by the parent
// (sealed-record.ts) and every call is sealed (signed-envelope.ts): a caller without the remote
// key can neither read nor write a record, and this worker never sees what one holds.
import * as restate from '@restatedev/restate-sdk';
import { z } from 'zod';
import { admitted, type RefusalLog, refuse, stderrLog } from './refusal.js';
import { WORKFLOW_RECORD_SERVICE } from './restate-services.js';
import { READ_MAX_AGE_MS, type RemoteAuth, SIGNED_MAX_AGE_MS } from './signed-envelope.js';

/** `run`, or one item's slot: its key (a hash) and its occurrence. */
const ENTRY_NAME = /^(run|item:[0-9a-f]{1,64}#\d{1,6})$/;
/** A run holds at most 1,000 items (the workflow limit), with room for older changed ones. */
const MAX_ENTRIES = 10_000;
/** One entry (a script, an item's result) at most this long, encrypted. */
const MAX_ENTRY_CHARS = 4_000_000;

const entriesSchema = z.record(
  z.string().regex(ENTRY_NAME),
  z.string().min(1).max(MAX_ENTRY_CHARS),
);

export function workflowRecord(settings: { auth: RemoteAuth; log?: RefusalLog }) {
  const { auth } = settings;
  const log = settings.log ?? stderrLog;
  return restate.object({
    name: WORKFLOW_RECORD_SERVICE,
    handlers: {
      write: async (ctx: restate.ObjectContext, input: unknown): Promise<void> => {
        // A replay of a signed write sets the same entries again: harmless, so a day's window.
        const { body } = admitted(
          input,
          { auth, kind: 'record-write', key: ctx.key, maxAgeMs: SIGNED_MAX_AGE_MS },
          log,
          'a write of a workflow record',
        );
        let parsed: ReturnType<typeof entriesSchema.safeParse>;
        try {
          parsed = entriesSchema.safeParse(JSON.parse(body));
        } catch {
          parsed = entriesSchema.safeParse(undefined);
        }
        if (!parsed.success) {
          refuse(log, 'a write of a workflow record', ctx.key, 'not record entries', 400);
        }
        const names = (await ctx.get<string[]>('names')) ?? [];
        for (const [name, value] of Object.entries(parsed.data)) {
          if (!names.includes(name)) {
            if (names.length >= MAX_ENTRIES) {
              refuse(log, 'a write of a workflow record', ctx.key, 'the record is full', 403);
            }
            names.push(name);
          }
          ctx.set(`entry:${name}`, value);
        }
        ctx.set('names', names);
      },
      read: restate.handlers.object.shared(
        async (
          ctx: restate.ObjectSharedContext,
          input: unknown,
        ): Promise<Record<string, string>> => {
          admitted(
            input,
            { auth, kind: 'record-read', key: ctx.key, maxAgeMs: READ_MAX_AGE_MS },
            log,
            'a read of a workflow record',
          );
          const names = (await ctx.get<string[]>('names')) ?? [];
          const entries: Record<string, string> = {};
          // One await at a time: the SDK takes no concurrent ones.
          for (const name of names) {
            const value = await ctx.get<string>(`entry:${name}`);
            if (value !== null) entries[name] = value;
          }
          return entries;
        },
      ),
    },
  });
}
