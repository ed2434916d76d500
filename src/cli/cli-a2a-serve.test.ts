// `warren a2a serve` driven by the official A2A SDK client: the agent card (a skill per
// definition, the security scheme), callers without the token refused, a streamed task whose lead
// starts two helpers (one in the background), a structured result, a cancel mid-run, and tasks
// that outlive a restart. Runs the built CLI (`npm test` builds first).
import { writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { type AgentCard, type StreamResponse, TaskState } from '@a2a-js/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { sendTextRequest } from '../a2a/a2a-parts.js';
import { bearerA2aClient } from '../testing/a2a-client.js';
import { type ServedProject, servedProject, serveWarren } from '../testing/served-project.js';

let project: ServedProject;
let tokenFile: string;

beforeEach(async () => {
  project = await servedProject();
  tokenFile = join(project.home, 'token');
  await writeFile(tokenFile, 'a2a-token\n');
});

const serve = () =>
  serveWarren(project, [
    'a2a',
    'serve',
    '--port',
    '0',
    '--agent',
    'lead,counter,slow',
    '--token-file',
    tokenFile,
  ]);

/** The SDK's client, sending the token as a bearer token on every request. */
const a2aClient = (url: string, token = 'a2a-token') => bearerA2aClient(url, token);

const message = (text: string, skillId: string) => sendTextRequest(text, { metadata: { skillId } });

const textOf = (parts: { content?: { $case: string; value?: unknown } }[] | undefined) =>
  (parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? String(part.content.value) : ''))
    .join('');

async function collect(stream: AsyncGenerator<StreamResponse>, onTask?: (id: string) => void) {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
    if (event.payload?.$case === 'task') onTask?.(event.payload.value.id);
  }
  const statuses = events.flatMap((event) =>
    event.payload?.$case === 'statusUpdate' ? [event.payload.value] : [],
  );
  const artifacts = events.flatMap((event) =>
    event.payload?.$case === 'artifactUpdate' ? [event.payload.value] : [],
  );
  return { events, statuses, artifacts, final: statuses.at(-1) };
}

describe('warren a2a serve', () => {
  it('publishes a card whose skills are the definitions, and refuses callers without the token', async () => {
    const server = await serve();
    try {
      const card = (await (
        await fetch(`${server.url}/.well-known/agent-card.json`)
      ).json()) as AgentCard;
      expect(card.skills.map((skill) => skill.id)).toEqual(['lead', 'counter', 'slow']);
      expect(Object.keys(card.securitySchemes)).toEqual(['bearer', 'apiKey']);
      const anonymous = await fetch(`${server.url}/`, { method: 'POST', body: '{}' });
      expect(anonymous.status).toBe(401);
      const wrong = await a2aClient(server.url, 'not-the-token');
      await expect(wrong.sendMessage(message('COUNT', 'counter'))).rejects.toThrow();
      const apiKey = await fetch(`${server.url}/`, {
        method: 'POST',
        headers: {
          'x-api-key': 'a2a-token',
          'content-type': 'application/json',
          'a2a-version': '1.0',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'nope' } }),
      });
      expect(apiKey.status).toBe(200);
      // A page that rebinds its own name to 127.0.0.1 sends its own Host: it reaches nothing.
      expect(
        await statusWithHost(`${server.url}/.well-known/agent-card.json`, 'evil.example:80'),
      ).toBe(403);
    } finally {
      await server.stop();
    }
  });

  it('streams a task whose lead runs two helpers (one in the background) to completion', async () => {
    const server = await serve();
    try {
      const client = await a2aClient(server.url);
      const { statuses, artifacts, final } = await collect(
        client.sendMessageStream(message('PLAN it', 'lead')),
      );
      const lines = statuses.map((status) => textOf(status.status?.message?.parts));
      expect(lines).toContain('main/Agent#1/helper: started (helper)');
      expect(lines.some((line) => /background task \S+ completed/.test(line))).toBe(true);
      expect(textOf(artifacts[0]?.artifact?.parts)).toBe('lead done');
      expect(final?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(final?.metadata?.['warren/run']).toMatchObject({
        agentType: 'lead',
        status: 'completed',
      });
    } finally {
      await server.stop();
    }
  });

  it('hands back a structured result as a data part, and keeps it across a restart', async () => {
    const first = await serve();
    let taskId = '';
    try {
      const { artifacts, final } = await collect(
        (await a2aClient(first.url)).sendMessageStream(message('COUNT files', 'counter')),
        (id) => {
          taskId = id;
        },
      );
      expect(final?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(
        artifacts[0]?.artifact?.parts.find((part) => part.content?.$case === 'data')?.content
          ?.value,
      ).toEqual({
        count: 3,
      });
    } finally {
      await first.stop();
    }
    const second = await serve();
    try {
      const task = await (await a2aClient(second.url)).getTask({ tenant: '', id: taskId });
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(textOf(task.artifacts[0]?.parts)).toBe('{"count":3}');
    } finally {
      await second.stop();
    }
  });

  it('cancels a running task: its run stops and the task ends canceled', async () => {
    const server = await serve();
    try {
      const client = await a2aClient(server.url);
      const { final } = await collect(
        client.sendMessageStream(message('SLOW work', 'slow')),
        (id) => {
          setTimeout(
            () => client.cancelTask({ tenant: '', id, metadata: {} }).catch(() => {}),
            300,
          );
        },
      );
      expect(final?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    } finally {
      await server.stop();
    }
  });

  it('rejects a message that names no served skill, listing them', async () => {
    const server = await serve();
    try {
      const client = await a2aClient(server.url);
      const { final } = await collect(client.sendMessageStream(message('x', 'nobody')));
      expect(final?.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
      expect(textOf(final?.status?.message?.parts)).toBe(
        'No skill "nobody" here; skills: lead, counter, slow.',
      );
    } finally {
      await server.stop();
    }
  });
});

/** GET `url` with a Host header of our choosing (fetch will not send one). */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', reject);
    request.end();
  });
}
