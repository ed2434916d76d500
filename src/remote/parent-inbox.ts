// The `parentInbox` object (key: a session): a background remote child's last step posts its
// ending here, so the notification waits for a parent process that was down when it ended. The
// parent reads what is pending and acknowledges each ending once it is delivered.
import * as restate from '@restatedev/restate-sdk';
import { z } from 'zod';
import type { RemoteEnding } from '../core/remote-executor.js';
import { PARENT_INBOX_SERVICE } from './restate-services.js';

/** Endings one inbox keeps at most; the oldest go first. */
const MAX_ENDINGS = 10_000;

const endingSchema = z.object({
  taskId: z.string().min(1).max(200),
  agentId: z.string().min(1).max(200),
  result: z.looseObject({ agentId: z.string(), status: z.string(), result: z.string() }),
});

export const parentInbox = restate.object({
  name: PARENT_INBOX_SERVICE,
  handlers: {
    childDone: async (ctx: restate.ObjectContext, input: unknown): Promise<void> => {
      const parsed = endingSchema.safeParse(input);
      if (!parsed.success) {
        throw new restate.TerminalError('not a child ending', { errorCode: 400 });
      }
      const ending = parsed.data as unknown as RemoteEnding;
      const order = (await ctx.get<string[]>('order')) ?? [];
      if (!order.includes(ending.taskId)) order.push(ending.taskId);
      while (order.length > MAX_ENDINGS) ctx.clear(`ending:${order.shift()}`);
      ctx.set('order', order);
      ctx.set(`ending:${ending.taskId}`, ending);
    },
    pending: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<RemoteEnding[]> => {
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
    acknowledge: async (ctx: restate.ObjectContext, taskId: unknown): Promise<void> => {
      if (typeof taskId !== 'string') return;
      const order = (await ctx.get<string[]>('order')) ?? [];
      ctx.set(
        'order',
        order.filter((id) => id !== taskId),
      );
      ctx.clear(`ending:${taskId}`);
    },
  },
});
