// A terminal screen with its colours (tmux `capture-pane -e`) as a self-contained HTML page,
// for pictures of the terminal UI taken in a browser. Knows the SGR codes terminals use for
// text: bold, dim, italic, underline, inverse, the 16 colours, 256 colours and RGB.

/** The 16 colours of a dark terminal theme, as most terminals ship them. */
const PALETTE = [
  '#1e1e1e',
  '#e06c75',
  '#98c379',
  '#e5c07b',
  '#61afef',
  '#c678dd',
  '#56b6c2',
  '#d7dae0',
  '#5c6370',
  '#ef7b86',
  '#a9d68a',
  '#f0cf8c',
  '#7ec0ff',
  '#d898ea',
  '#6fd0dc',
  '#ffffff',
];
const FOREGROUND = '#d7dae0';
const BACKGROUND = '#16181d';

interface Style {
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
  fg: string | undefined;
  bg: string | undefined;
}

const PLAIN: Style = {
  bold: false,
  dim: false,
  italic: false,
  underline: false,
  inverse: false,
  fg: undefined,
  bg: undefined,
};

export interface AnsiPageOptions {
  title: string;
  /** Font size in CSS pixels. */
  fontSize?: number;
}

export function ansiToHtmlPage(screen: string, options: AnsiPageOptions): string {
  // One pass over the whole screen: tmux writes a style once and it holds across lines.
  const body = ansiToHtml(screen);
  const size = options.fontSize ?? 15;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title><style>
body { margin: 0; background: ${BACKGROUND}; }
pre { margin: 0; padding: 14px 18px; color: ${FOREGROUND}; background: ${BACKGROUND};
  font: ${size}px/1.2 "DejaVu Sans Mono", "Liberation Mono", monospace; display: inline-block; }
</style></head><body><pre>${body}</pre></body></html>
`;
}

/** Text between escape sequences, each run in a span of its style. */
export function ansiToHtml(line: string): string {
  let style = { ...PLAIN };
  let html = '';
  let at = 0;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are the input
  const sgr = /\u001b\[([0-9;]*)m/g;
  for (const match of line.matchAll(sgr)) {
    html += span(line.slice(at, match.index), style);
    style = apply(style, match[1] ?? '');
    at = match.index + match[0].length;
  }
  // Other escape sequences (cursor moves) draw nothing.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are the input
  return (html + span(line.slice(at), style)).replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

function apply(style: Style, codes: string): Style {
  const next = { ...style };
  const numbers = codes === '' ? [0] : codes.split(';').map(Number);
  for (let index = 0; index < numbers.length; index++) {
    const code = numbers[index]!;
    if (code === 0) Object.assign(next, PLAIN);
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 7) next.inverse = true;
    else if (code === 22) next.bold = next.dim = false;
    else if (code === 23) next.italic = false;
    else if (code === 24) next.underline = false;
    else if (code === 27) next.inverse = false;
    else if (code >= 30 && code <= 37) next.fg = PALETTE[code - 30];
    else if (code >= 90 && code <= 97) next.fg = PALETTE[code - 90 + 8];
    else if (code === 39) next.fg = undefined;
    else if (code >= 40 && code <= 47) next.bg = PALETTE[code - 40];
    else if (code >= 100 && code <= 107) next.bg = PALETTE[code - 100 + 8];
    else if (code === 49) next.bg = undefined;
    else if (code === 38 || code === 48) {
      const [colour, used] = extendedColour(numbers, index + 1);
      if (code === 38) next.fg = colour;
      else next.bg = colour;
      index += used;
    }
  }
  return next;
}

/** `5;n` (256 colours) or `2;r;g;b`; returns the colour and how many numbers it took. */
function extendedColour(numbers: number[], from: number): [string | undefined, number] {
  if (numbers[from] === 5) return [colour256(numbers[from + 1] ?? 0), 2];
  if (numbers[from] === 2) {
    const [r, g, b] = [numbers[from + 1], numbers[from + 2], numbers[from + 3]];
    return [`rgb(${r ?? 0}, ${g ?? 0}, ${b ?? 0})`, 4];
  }
  return [undefined, 0];
}

function colour256(n: number): string {
  if (n < 16) return PALETTE[n]!;
  if (n >= 232) {
    const grey = 8 + (n - 232) * 10;
    return `rgb(${grey}, ${grey}, ${grey})`;
  }
  const cube = n - 16;
  const level = (value: number) => (value === 0 ? 0 : 55 + value * 40);
  return `rgb(${level(Math.floor(cube / 36))}, ${level(Math.floor(cube / 6) % 6)}, ${level(cube % 6)})`;
}

function span(text: string, style: Style): string {
  if (text === '') return '';
  const fg = style.inverse ? (style.bg ?? BACKGROUND) : style.fg;
  const bg = style.inverse ? (style.fg ?? FOREGROUND) : style.bg;
  const css = [
    fg ? `color:${fg}` : '',
    bg ? `background:${bg}` : '',
    style.bold ? 'font-weight:bold' : '',
    style.dim ? 'opacity:0.6' : '',
    style.italic ? 'font-style:italic' : '',
    style.underline ? 'text-decoration:underline' : '',
  ].filter(Boolean);
  return css.length === 0
    ? escapeHtml(text)
    : `<span style="${css.join(';')}">${escapeHtml(text)}</span>`;
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
