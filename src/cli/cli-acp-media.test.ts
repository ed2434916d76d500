import { join } from 'node:path';
import { methods } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AcpWarren, agentText, startAcpWarren } from '../testing/acp-client.js';
import { homeEnv } from '../testing/cli-process.js';
import { type MockLlmServer, startMockLlmServer } from '../testing/mock-llm/server.js';
import { useTempDir } from '../testing/temp-dir.js';

const home = useTempDir('warren-acp-media-home-');
const project = useTempDir('warren-acp-media-project-');
let running: AcpWarren | undefined;
let llm: MockLlmServer | undefined;

afterEach(async () => {
  await running?.close();
  await llm?.close();
  running = undefined;
  llm = undefined;
});

/** A 1×1 PNG, as an editor pastes it. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function acpOnAnthropic(): Promise<AcpWarren> {
  llm ??= await startMockLlmServer({ handler: () => ({ text: 'A red dot.' }) });
  running = await startAcpWarren({
    args: ['--model', 'anthropic:claude-sonnet-4-5', '--session-dir', join(home(), 'sessions')],
    env: { ...homeEnv(home()), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: llm.url },
    cwd: project(),
  });
  return running;
}

/** The content blocks of the last user message of each request the model got. */
function userContent(server: MockLlmServer): unknown[][] {
  return server.requests
    .filter((request) => request.api === 'anthropic-messages')
    .map((request) => {
      const { messages } = request.body as {
        messages: Array<{ role: string; content: unknown[] }>;
      };
      return messages.filter((message) => message.role === 'user').at(-1)?.content ?? [];
    });
}

const IMAGE_BLOCK = {
  type: 'image',
  source: { type: 'base64', media_type: 'image/png', data: PNG },
};

describe('warren acp: images and documents in prompts', () => {
  it('says in initialize that prompts may carry images, and audio only for models that take it', async () => {
    const warren = await acpOnAnthropic();
    expect(warren.initialized.agentCapabilities?.promptCapabilities).toEqual({
      image: true,
      audio: false,
      embeddedContext: true,
    });
  });

  it('hands an image of the prompt to the model as an image beside the text', async () => {
    const warren = await acpOnAnthropic();
    const { sessionId } = await warren.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    const response = await warren.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
    });
    expect(response.stopReason).toBe('end_turn');
    expect(agentText(warren.updates)).toBe('A red dot.');
    expect(userContent(llm!)[0]).toEqual([
      expect.objectContaining({ type: 'text', text: 'What is in this picture?' }),
      expect.objectContaining(IMAGE_BLOCK),
    ]);
  });

  it('keeps the image in the session: a load replays it and the next prompt still shows it', async () => {
    const first = await acpOnAnthropic();
    const { sessionId } = await first.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    await first.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'Remember this.' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
    });
    await first.close();
    const second = await acpOnAnthropic();
    await second.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: project(),
      mcpServers: [],
    });
    expect(second.updates.map(({ update }) => update.sessionUpdate)).toEqual([
      'user_message_chunk',
      'user_message_chunk',
      'agent_message_chunk',
    ]);
    expect(second.updates[1]!.update).toMatchObject({
      content: { type: 'image', mimeType: 'image/png', data: PNG },
    });
    await second.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'What did I show you?' }],
    });
    const messages = (llm!.requests.at(-1)!.body as { messages: Array<{ content: unknown[] }> })
      .messages;
    expect(messages[0]!.content).toContainEqual(expect.objectContaining(IMAGE_BLOCK));
  });

  it('hands an embedded PDF to the model as a document', async () => {
    const warren = await acpOnAnthropic();
    const { sessionId } = await warren.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    await warren.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'Summarize the spec.' },
        {
          type: 'resource',
          resource: { uri: 'file:///spec.pdf', blob: 'JVBERi0xLjQK', mimeType: 'application/pdf' },
        },
      ],
    });
    expect(userContent(llm!)[0]).toContainEqual(
      expect.objectContaining({
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' },
      }),
    );
  });

  it('refuses audio by name when the model does not take it, and a mimeType that is not an image', async () => {
    const warren = await acpOnAnthropic();
    const { sessionId } = await warren.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    await expect(
      warren.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
      }),
    ).rejects.toThrow(/prompt block 1 is audio, which this session's model does not take/);
    await expect(
      warren.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'image', data: 'AAAA', mimeType: 'text/html' }],
      }),
    ).rejects.toThrow(/its mimeType is "text\/html": use an image\/… type/);
    expect(llm!.requests).toHaveLength(0);
  });
});
