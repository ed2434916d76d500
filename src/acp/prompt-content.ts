// An ACP prompt as a warren prompt: text, resource links and embedded text resources become its
// text; images, audio and PDFs (blocks, or embedded binary resources of those types) its files,
// for models that take them. Anything else, or media the model does not take, is refused by name.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { FilePart } from '../core/messages.js';
import type { MediaAccepted } from '../model/model-media.js';

export type PromptContent = { text: string; files: FilePart[] } | { refused: string };

type MediaKind = 'image' | 'audio' | 'pdf';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Larger media than providers take (Anthropic: 5 MB an image; OpenAI: 20 MB) is refused here. */
const MAX_MB = 20;
const MAX_BASE64_CHARS = Math.ceil((MAX_MB * 2 ** 20 * 4) / 3);

export function promptContent(
  blocks: readonly ContentBlock[],
  accepted: MediaAccepted,
): PromptContent {
  const parts: string[] = [];
  const files: FilePart[] = [];
  const media = (kind: MediaKind, mediaType: string, data: string, where: string) => {
    if (!accepted[kind]) {
      return `${where} is ${kind === 'pdf' ? 'a PDF' : kind}, which this session's model does not take: send text`;
    }
    if (kind !== 'pdf' && !mediaType.startsWith(`${kind}/`)) {
      return `${where} says it is ${kind} but its mimeType is "${mediaType}": use an ${kind}/… type`;
    }
    if (!BASE64.test(data)) return `${where}'s data is not base64: send the bytes base64-encoded`;
    if (data.length > MAX_BASE64_CHARS) {
      return `${where} is ${Math.round((data.length * 3) / 4 / 2 ** 20)} MB; the most a prompt's ${kind} may be is ${MAX_MB} MB`;
    }
    files.push({ type: 'file', mediaType, data });
    return undefined;
  };
  for (const [index, block] of blocks.entries()) {
    const where = `prompt block ${index + 1}`;
    let refused: string | undefined;
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link':
        parts.push(`[${block.name}](${block.uri})`);
        break;
      case 'image':
      case 'audio':
        refused = media(block.type, block.mimeType, block.data, where);
        break;
      case 'resource': {
        const { resource } = block;
        if ('text' in resource) {
          parts.push(`<resource uri="${resource.uri}">\n${resource.text}\n</resource>`);
          break;
        }
        const kind =
          resource.mimeType === 'application/pdf' ? 'pdf' : resource.mimeType?.split('/')[0];
        if (kind === 'image' || kind === 'audio' || kind === 'pdf') {
          refused = media(
            kind,
            resource.mimeType ?? '',
            resource.blob,
            `${where} (${resource.uri})`,
          );
        } else {
          refused = `the embedded resource ${resource.uri} is binary and not an image, audio or a PDF; send it as text`;
        }
        break;
      }
      default:
        refused = `${where}: ${(block as { type: string }).type} content is not supported`;
    }
    if (refused !== undefined) return { refused };
  }
  return { text: parts.join('\n'), files };
}
