// An ACP prompt (text, resource links, embedded resources) as the one text a warren prompt is.
// warren's conversation holds text only, so images and audio are refused by name, not dropped.
import type { ContentBlock } from '@agentclientprotocol/sdk';

export type PromptText = { text: string } | { refused: string };

export function promptText(blocks: readonly ContentBlock[]): PromptText {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link':
        parts.push(`[${block.name}](${block.uri})`);
        break;
      case 'resource': {
        const { resource } = block;
        if ('text' in resource) {
          parts.push(`<resource uri="${resource.uri}">\n${resource.text}\n</resource>`);
        } else {
          return { refused: `the embedded resource ${resource.uri} is binary; send it as text` };
        }
        break;
      }
      default:
        return {
          refused: `${block.type} content is not supported: warren's models take text prompts`,
        };
    }
  }
  return { text: parts.join('\n') };
}
