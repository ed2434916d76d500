// The `parentInbox` object (key: a session): a background remote child's last step posts its
// ending here, so the notification waits for a parent process that was down when it ended. The
// parent reads what is pending and acknowledges each ending once it is delivered. Every call is
// sealed (signed-envelope.ts): endings by the worker, reads and acknowledgements by the parent.
import * as restate from '@restatedev/restate-sdk';
import { z } from 'zod';
import type { RemoteEnding } from '../core/remote-executor.js';
import { admitted, type RefusalLog, refuse, stderrLog } from './refusal.js';
import { PARENT_INBOX_SERVICE } from './restate-services.js';
import { READ_MAX_AGE_MS, type RemoteAuth, SIGNED_MAX_AGE_MS } from './signed-envelope.js';

/** Endings one inbox keeps at most; the oldest go first. */
const MAX_ENDINGS = 10_000;

const endingSchema = z.object({
  taskId: z.string().min(1).max(200),
  agentId: z.string().min(1).max(200),
  result: z.looseObject({ agentId: z.string(), status: z.string(), result: z.string() }),
});

export function parentInbox(settings: { auth: RemoteAuth; log?: RefusalLog }) {
  const { auth } = settings;
  const log = settings.log ?? stderrLog;
  return restate.object({
    name: PARENT_INBOX_SERVICE,
    handlers: {
      childDone: async (ctx: restate.ObjectContext, input: unknown): Promise<void> => {
        // No age limit: an ending may wait for this object's worker longer than any window,
        // and a replayed one changes nothing (each task's ending is kept once, and never again
        // once acknowledged).
        const { body } = admitted(
          input,
          { auth, kind: 'ending', key: ctx.key, maxAgeMs: Infinity },
          log,
          'a child ending',
        );
        let parsed: ReturnType<typeof endingSchema.safeParse>;
        try {
          parsed = endingSchema.safeParse(JSON.parse(body));
        } catch {
          parsed = endingSchema.safeParse(undefined);
        }
        if (!parsed.success) refuse(log, 'a child ending', ctx.key, 'not a child ending', 400);
        const ending = parsed.data as unknown as RemoteEnding;
        const done = (await ctx.get<string[]>('acknowledged')) ?? [];
        if (done.includes(ending.taskId)) return;
        const order = (await ctx.get<string[]>('order')) ?? [];
        if (!order.includes(ending.taskId)) order.push(ending.taskId);
        while (order.length > MAX_ENDINGS) ctx.clear(`ending:${order.shift()}`);
        ctx.set('order', order);
        ctx.set(`ending:${ending.taskId}`, ending);
      },
      pending: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext, input: unknown): Promise<RemoteEnding[]> => {
          admitted(
            input,
            { auth, kind: 'read-inbox', key: ctx.key, maxAgeMs: READ_MAX_AGE_MS },
            log,
            'a read of an inbox',
          );
          const order = (await ctx.get<string[]>('order')) ?? [];
          const endings: RemoteEnding[] = [];
          // One await at a time: the SDK takes no concurrent ones.
          for (const taskId of order) {
            const ending = await ctx.get<RemoteEnding>(`ending:${taskId}`);
            if (ending) endings.push(ending);
          }
          return endings;
        },
      ),
      acknowledge: async (ctx: restate.ObjectContext, input: unknown): Promise<void> => {
        const { body: taskId } = admitted(
          input,
          { auth, kind: 'acknowledge', key: ctx.key, maxAgeMs: SIGNED_MAX_AGE_MS },
          log,
          'an acknowledgement',
        );
        const order = (await ctx.get<string[]>('order')) ?? [];
        ctx.set(
          'order',
          order.filter((id) => id !== taskId),
        );
        ctx.clear(`ending:${taskId}`);
        const done = (await ctx.get<string[]>('acknowledged')) ?? [];
        if (!done.includes(taskId)) done.push(taskId);
        ctx.set('acknowledged', done.slice(-MAX_ENDINGS));
      },
    },
  });
}
