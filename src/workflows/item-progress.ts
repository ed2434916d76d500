// What a running item says of itself as `workflow_item` events: `running` once, when its agent
// is named (so a view can tie that agent's own events to the item), `blocked` while the agent
// waits on a person's answer, and `running` again once it is answered.
import type { ItemRequest } from './item-request.js';
import type { WorkflowEvent } from './workflow-events.js';

export interface ItemProgress {
  /** The item runs, by this agent when known; said once, however often it is called. */
  running(itemAgentId: string | undefined): void;
  /** Its agent waits on a person's answer about `on`, or (null) no longer. */
  blocked(on: string | null): void;
}

export function itemProgress(
  emit: (event: WorkflowEvent) => void,
  item: { runId: string; request: ItemRequest; occurrence: number; resumeAgentId?: string },
): ItemProgress {
  const { runId, request, occurrence } = item;
  const { key, label } = request;
  let announced = false;
  const progress: ItemProgress = {
    running(itemAgentId) {
      if (announced) return;
      announced = true;
      emit({
        type: 'workflow_item',
        runId,
        key,
        occurrence,
        label,
        status: 'running',
        itemAgentId,
      });
    },
    blocked(on) {
      progress.running(item.resumeAgentId);
      const status = on === null ? 'running' : 'blocked';
      emit({
        type: 'workflow_item',
        runId,
        key,
        occurrence,
        label,
        status,
        blockedOn: on ?? undefined,
      });
    },
  };
  return progress;
}
