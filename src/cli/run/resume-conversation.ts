// Going on with a saved session: its conversation read back, ready for the next prompt.
import type { Message } from '../../core/messages.js';
import type { CliIo } from '../print/print-mode.js';

/**
 * A saved session's conversation, ready to go on: read problems become warnings on stderr, and
 * the environment (cwd, date) in its system prompt is today's.
 * @throws ConfigError for an unknown session.
 */
export async function resumeConversation(params: {
  sessionDir: string;
  sessionId: string;
  systemPrompt: string;
  io: Pick<CliIo, 'stderr'>;
}): Promise<{ sessionId: string; history: Message[] }> {
  // Loaded on demand: most runs start a new session.
  const { loadSession } = await import('../../session/read-transcript.js');
  const session = loadSession({ sessionDir: params.sessionDir, sessionId: params.sessionId });
  for (const warning of session.warnings) params.io.stderr(`warren: warning: ${warning}\n`);
  return {
    sessionId: params.sessionId,
    history: session.messages.map((message) =>
      message.role === 'system' ? { role: 'system', content: params.systemPrompt } : message,
    ),
  };
}
