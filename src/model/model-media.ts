// What a model takes beside text, from its `provider:model` spec: images, audio, PDFs. Provider
// knowledge, so it lives with the other model facts; an ACP session asks it what to accept.
import { providerOf } from './model-alias.js';

/** Media a session accepts beside text (ACP's `promptCapabilities` image and audio, and PDFs). */
export interface MediaAccepted {
  image?: boolean;
  audio?: boolean;
  pdf?: boolean;
}

/**
 * What the session's model takes, from its `provider:model` spec: every provider takes images;
 * audio only OpenAI's chat API (`input_audio`) and the scripted test model. Unknown: images.
 */
export function mediaAccepted(modelSpec: string | undefined): Required<MediaAccepted> {
  const provider = providerOf(modelSpec) ?? '';
  return {
    image: true,
    audio: ['openai', 'openai-compatible', 'scripted'].includes(provider),
    // Embedded PDFs: Anthropic's `document`, OpenAI's `file`; other servers cannot be known.
    pdf: ['anthropic', 'openai', 'scripted'].includes(provider),
  };
}
