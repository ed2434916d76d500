// The Markdown models write, as styled terminal lines: headings, lists, quotes, rules, fenced
// code, and inline bold, italics, code and links. Text still streaming in parses the same way:
// an unclosed marker stays plain text until its pair arrives.

export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
}

export type LineKind = 'text' | 'heading' | 'code' | 'quote' | 'rule';

export interface MarkdownLine {
  kind: LineKind;
  spans: Span[];
}

const FENCE = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const ORDERED = /^(\s*)(\d+[.)])\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

const INLINE =
  /(`+)(.+?)\1|\*\*(.+?)\*\*|__(.+?)__|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function markdownLines(text: string): MarkdownLine[] {
  const lines: MarkdownLine[] = [];
  let fence: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    const marker = FENCE.exec(line);
    if (fence !== undefined) {
      if (marker && marker[1]![0] === fence[0] && marker[1]!.length >= fence.length) {
        fence = undefined;
      } else {
        lines.push({ kind: 'code', spans: [{ text: raw.replace(/\t/g, '  '), code: true }] });
      }
      continue;
    }
    if (marker) {
      fence = marker[1]!;
      continue;
    }
    lines.push(blockLine(line));
  }
  return lines;
}

function blockLine(line: string): MarkdownLine {
  const heading = HEADING.exec(line);
  if (heading) {
    return { kind: 'heading', spans: inline(heading[2]!).map((span) => ({ ...span, bold: true })) };
  }
  if (RULE.test(line)) return { kind: 'rule', spans: [{ text: '─'.repeat(40) }] };
  const bullet = BULLET.exec(line);
  if (bullet) return { kind: 'text', spans: [{ text: `${bullet[1]}• ` }, ...inline(bullet[2]!)] };
  const ordered = ORDERED.exec(line);
  if (ordered) {
    return {
      kind: 'text',
      spans: [{ text: `${ordered[1]}${ordered[2]} ` }, ...inline(ordered[3]!)],
    };
  }
  const quote = QUOTE.exec(line);
  if (quote) return { kind: 'quote', spans: [{ text: '│ ' }, ...inline(quote[1]!)] };
  return { kind: 'text', spans: inline(line) };
}

/** Inline markup as spans; text between markers keeps its place. */
export function inline(text: string): Span[] {
  const spans: Span[] = [];
  let at = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > at) spans.push({ text: text.slice(at, match.index) });
    const [, , code, bold, boldUnderscore, italic, italicUnderscore, label, url] = match;
    if (code !== undefined) spans.push({ text: code, code: true });
    else if (bold !== undefined || boldUnderscore !== undefined) {
      spans.push({ text: (bold ?? boldUnderscore)!, bold: true });
    } else if (italic !== undefined || italicUnderscore !== undefined) {
      spans.push({ text: (italic ?? italicUnderscore)!, italic: true });
    } else if (label !== undefined) {
      spans.push({ text: label === url ? label : `${label} (${url})` });
    }
    at = match.index + match[0].length;
  }
  if (at < text.length || spans.length === 0) spans.push({ text: text.slice(at) });
  return spans;
}
