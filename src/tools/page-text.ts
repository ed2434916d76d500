// What WebFetch shows the model of a response body: HTML as readable text (no markup, scripts,
// styles, navigation or images; links with absolute addresses), other text as it is, binary
// refused. Over the size cap, the passages that match the caller's `prompt` are kept first.
import type { HtmlToTextOptions } from 'html-to-text';

export type PageKind = 'html' | 'text';

/** Types read as text besides text/*: JSON, XML, JavaScript, YAML, TOML and their +suffixes. */
const TEXT_TYPES =
  /^(?:text\/.+|application\/(?:json|xml|javascript|ecmascript|x-javascript|x-yaml|yaml|toml|x-sh|x-ndjson|ld\+json|[\w.-]+\+(?:json|xml)))$/;

const skip = (selector: string) => ({ selector, format: 'skip' });
const plainHeading = (selector: string) => ({ selector, options: { uppercase: false } });

function htmlOptions(baseUrl: string): HtmlToTextOptions {
  return {
    wordwrap: false,
    selectors: [
      ...['img', 'nav', 'footer', 'aside', 'noscript', 'svg', 'iframe', 'template'].map(skip),
      {
        selector: 'a',
        options: {
          hideLinkHrefIfSameAsText: true,
          // Relative links resolved as a browser would; the library's own baseUrl only prefixes.
          pathRewrite: (href: string) => absoluteUrl(href, baseUrl),
        },
      },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map(plainHeading),
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ],
    // Bounds for hostile markup: nesting thousands deep, or millions of siblings.
    limits: { maxDepth: 256, maxChildNodes: 20_000, ellipsis: '…' },
  };
}

function absoluteUrl(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

/**
 * How to read a body of this Content-Type: as HTML, as text, or not at all (undefined). Without
 * a type, the first bytes decide: a NUL byte means binary, markup means HTML.
 */
export function pageKind(contentType: string | undefined, head: Buffer): PageKind | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type !== undefined && type !== '') return TEXT_TYPES.test(type) ? 'text' : undefined;
  const sample = head.subarray(0, 8192);
  if (sample.includes(0)) return undefined;
  return /^\s*<(?:!doctype html|html)/i.test(sample.toString('latin1')) ? 'html' : 'text';
}

/** The body as a string, in the charset the Content-Type names (UTF-8 otherwise). */
export function decodeBody(body: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * Readable text of an HTML page; scripts never run: the markup is only parsed. The converter
 * (a whole HTML parser) is loaded with the first page, not with every run that might fetch one.
 */
export async function htmlToText(html: string, baseUrl: string): Promise<string> {
  const { convert } = await import('html-to-text');
  return convert(html, htmlOptions(baseUrl))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface CappedText {
  text: string;
  /** Characters left out. */
  omitted: number;
  /** The passages were chosen by the prompt rather than taken from the top. */
  selected: boolean;
}

/** Words of a prompt too common to tell passages apart. */
const STOP_WORDS = new Set(
  'the and for are but not you all any can has her was one our out who how what when where which why with this that from into about does than then them they their there these those its use using used get'.split(
    ' ',
  ),
);

/**
 * At most `maxChars` of `text`. Over the cap, without a prompt the top of the page is kept; with
 * one, the opening passage and then the passages sharing most words with it, in page order,
 * each gap marked.
 */
export function capText(text: string, maxChars: number, prompt: string | undefined): CappedText {
  if (text.length <= maxChars) return { text, omitted: 0, selected: false };
  const terms = promptTerms(prompt);
  if (terms.length === 0) {
    return { text: text.slice(0, maxChars), omitted: text.length - maxChars, selected: false };
  }
  const passages = text.split(/\n{2,}/).map((passage, index) => ({
    passage,
    index,
    score: index === 0 ? Infinity : scoreOf(passage.toLowerCase(), terms),
  }));
  const chosen = new Set<number>();
  let used = 0;
  for (const candidate of [...passages].sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (candidate.score === 0) break;
    const cost = candidate.passage.length + 2;
    if (used + cost > maxChars) continue;
    chosen.add(candidate.index);
    used += cost;
  }
  const parts: string[] = [];
  let gap = false;
  for (const { passage, index } of passages) {
    if (chosen.has(index)) {
      if (gap) parts.push('[…]');
      parts.push(passage);
      gap = false;
    } else gap = true;
  }
  if (gap) parts.push('[…]');
  const omitted = passages
    .filter(({ index }) => !chosen.has(index))
    .reduce((sum, { passage }) => sum + passage.length, 0);
  return { text: parts.join('\n\n'), omitted, selected: true };
}

function promptTerms(prompt: string | undefined): string[] {
  const words = (prompt ?? '').toLowerCase().match(/[\p{L}\p{N}_-]{3,}/gu) ?? [];
  return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))];
}

function scoreOf(passage: string, terms: readonly string[]): number {
  return terms.filter((term) => passage.includes(term)).length;
}
