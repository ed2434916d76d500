// The page of `warren report`: one self-contained HTML file (inline CSS and a few lines of
// script, nothing fetched) with the agent tree as a timeline, a bar per agent nested under its
// parent and coloured by status, model calls and tool calls as marks, each agent's numbers,
// and its transcript on a click. A transcript is a file anyone could have written: every field
// is escaped whatever its type, and the page's policy runs its own script only (by its hash).
import { createHash } from 'node:crypto';
import type { Message } from '../../core/messages.js';
import type { Usage } from '../../core/usage.js';
import {
  type SessionTimeline,
  type TimelineAgent,
  treeOrder,
} from '../../telemetry/session-timeline.js';

/** Characters of one message shown in the transcript; the rest is in the JSONL file. */
const MAX_MESSAGE_CHARS = 4000;

export function renderReport(timeline: SessionTimeline): string {
  const ordered = treeOrder(timeline.agents);
  const span = Math.max(1, timeline.endMs - timeline.startMs);
  const at = (ms: number) => (((ms - timeline.startMs) / span) * 100).toFixed(3);
  const width = (from: number, to: number) => ((Math.max(0, to - from) / span) * 100).toFixed(3);
  const rows = ordered
    .map(({ agent, depth }, index) => {
      const marks = [
        ...agent.turns.map(
          (turn) =>
            `<span class="mark turn" style="left:${at(turn.startMs)}%;width:${width(turn.startMs, turn.endMs)}%" title="${escapeHtml(
              `model call ${turn.turn}: ${tokens(turn.usage)}, ${seconds(turn.endMs - turn.startMs)}, ${turn.finishReason}`,
            )}"></span>`,
        ),
        ...agent.tools.map(
          (tool) =>
            `<span class="mark tool${tool.isError ? ' error' : ''}" style="left:${at(tool.startMs)}%;width:${width(tool.startMs, tool.endMs)}%" title="${escapeHtml(
              `${tool.toolName}${tool.isError ? ' (error)' : ''}: ${seconds(tool.endMs - tool.startMs)}`,
            )}"></span>`,
        ),
      ].join('');
      const name = agent.description
        ? `<b>${escapeHtml(agent.agentType)}</b> ${escapeHtml(agent.description)}`
        : `<b>${escapeHtml(agent.agentType)}</b>`;
      return `<div class="row" role="button" tabindex="0" data-agent="${index}" style="--depth:${depth}">
  <div class="label" title="${escapeHtml(agent.path)}">${name}</div>
  <div class="track"><span class="bar status-${escapeHtml(agent.status)}" style="left:${at(agent.startMs)}%;width:${width(agent.startMs, agent.endMs)}%" title="${escapeHtml(`${agent.path}: ${agent.status}, ${seconds(agent.durationMs)}`)}"></span>${marks}</div>
  <div class="num">${count(inputOf(agent.usage))}</div>
  <div class="num">${count(agent.usage.outputTokens)}</div>
  <div class="num">${cacheRatio(agent.usage)}</div>
  <div class="num">${cost(agent.costUsd)}</div>
  <div class="num">${seconds(agent.durationMs)}</div>
</div>`;
    })
    .join('\n');
  const transcripts = ordered.map(({ agent }, index) => transcriptSection(agent, index)).join('\n');
  const statuses = [...new Set(ordered.map(({ agent }) => agent.status))];
  const axis = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (fraction) =>
        `<span style="left:${(fraction * 100).toFixed(0)}%">${seconds(fraction * span)}</span>`,
    )
    .join('');
  const title = `warren session ${timeline.sessionId}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <h1>${escapeHtml(title)}</h1>
  <p class="summary">${ordered.length} agent${ordered.length === 1 ? '' : 's'} · ${seconds(span)} · ${tokens(timeline.usage)} · cost ${cost(timeline.costUsd)} · started ${escapeHtml(isoTime(timeline.startMs))}</p>
  <p class="legend">${statuses.map((status) => `<span class="swatch status-${escapeHtml(status)}"></span>${escapeHtml(status)}`).join(' ')} <span class="swatch turn"></span>model call <span class="swatch tool"></span>tool call <span class="swatch tool error"></span>failed tool call</p>
</header>
<main>
<div class="table">
<div class="row head"><div class="label">agent</div><div class="track axis">${axis}</div><div class="num">input</div><div class="num">output</div><div class="num">cached</div><div class="num">cost</div><div class="num">time</div></div>
${rows}
</div>
<p class="hint">Click an agent to read its transcript.</p>
${transcripts}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function transcriptSection(agent: TimelineAgent, index: number): string {
  const messages = agent.messages.map(messageHtml).join('\n');
  const facts = [
    ['path', agent.path],
    ['agent id', agent.agentId],
    ['model', agent.model],
    ['status', agent.status],
    ['turns', String(agent.numTurns)],
    ['tool calls', String(agent.toolCalls)],
    ['tokens', tokens(agent.usage)],
    ['subtree tokens', tokens(agent.subtreeUsage)],
    ['cost', cost(agent.costUsd)],
    ['subtree cost', cost(agent.subtreeCostUsd)],
    ['transcript', agent.transcript ?? ''],
  ]
    .filter(([, value]) => value)
    .map(([name, value]) => `<dt>${escapeHtml(name!)}</dt><dd>${escapeHtml(value!)}</dd>`)
    .join('');
  return `<section class="transcript" id="transcript-${index}" hidden>
<h2>${escapeHtml(agent.agentType)}${agent.description ? ` — ${escapeHtml(agent.description)}` : ''}</h2>
<dl>${facts}</dl>
${messages || '<p class="empty">No messages recorded.</p>'}
</section>`;
}

/** The roles a message can have; any other (a crafted file) is shown as `unknown`. */
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function messageHtml(message: Message): string {
  const parts: string[] = [];
  const role = ROLES.has(String(message.role)) ? message.role : 'unknown';
  // The record is not checked when read: the shapes below are hoped for, never trusted.
  const content: unknown = message.content;
  if (role === 'system' || role === 'user' || !Array.isArray(content)) {
    parts.push(pre(typeof content === 'string' ? content : JSON.stringify(content ?? '')));
  } else if (role === 'assistant') {
    for (const part of content as Record<string, unknown>[]) {
      if (part?.type === 'text') parts.push(pre(String(part.text ?? '')));
      else {
        parts.push(
          `<div class="call">→ ${escapeHtml(part?.toolName)} ${pre(JSON.stringify(part?.input ?? null))}</div>`,
        );
      }
    }
  } else {
    for (const part of content as Record<string, unknown>[]) {
      parts.push(
        `<div class="result${part?.isError === true ? ' error' : ''}">← ${escapeHtml(part?.toolName)}${part?.isError === true ? ' (error)' : ''} ${pre(String(part?.output ?? ''))}</div>`,
      );
    }
  }
  return `<article class="message ${role}"><h3>${role}</h3>${parts.join('')}</article>`;
}

function pre(text: string): string {
  const shown =
    text.length > MAX_MESSAGE_CHARS
      ? `${text.slice(0, MAX_MESSAGE_CHARS)}\n… ${text.length - MAX_MESSAGE_CHARS} more characters in the transcript file`
      : text;
  return `<pre>${escapeHtml(shown)}</pre>`;
}

/** Any value as text safe in an element or a quoted attribute. */
function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A number read from a transcript, or 0: a crafted file may hold text (or markup) there. */
function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function inputOf(usage: Usage): number {
  return (
    numberOf(usage.inputTokens) +
    numberOf(usage.cacheReadInputTokens) +
    numberOf(usage.cacheCreationInputTokens)
  );
}

/** Share of the input read from the provider's cache. */
function cacheRatio(usage: Usage): string {
  const input = inputOf(usage);
  return input === 0 ? '–' : `${Math.round((numberOf(usage.cacheReadInputTokens) / input) * 100)}%`;
}

function tokens(usage: Usage): string {
  return `${count(inputOf(usage))} in / ${count(usage.outputTokens)} out`;
}

/** A time as ISO 8601; a crafted file can make it no time at all. */
function isoTime(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : '–';
}

function count(value: unknown): string {
  return numberOf(value).toLocaleString('en-US');
}

function cost(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? `$${value.toFixed(4)}` : '–';
}

function seconds(value: unknown): string {
  const ms = numberOf(value);
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}

const STYLE = `
:root { --completed:#2e9d5b; --failed:#d64545; --cancelled:#8a8f98; --max_turns:#e08a1e; --budget:#e0b21e; --stalled:#8e5bd6; --no_progress:#b5179e; --running:#3a7bd5; --turn:#1d3557; --tool:#f4f1de; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #fff; }
header { padding: 16px 24px 8px; border-bottom: 1px solid #d0d7de; }
h1 { font-size: 18px; margin: 0 0 4px; }
.summary, .legend, .hint { margin: 4px 0; color: #57606a; }
.legend .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin: 0 4px 0 10px; vertical-align: -1px; }
main { padding: 8px 24px 24px; }
.row { display: grid; grid-template-columns: minmax(180px, 26%) 1fr 64px 64px 56px 72px 64px; column-gap: 12px; cursor: pointer; border-bottom: 1px solid #eaeef2; }
.row > div { padding: 4px 0; }
.row:hover, .row.selected { background: #f6f8fa; }
.row:focus { outline: none; }
.row:focus-visible { background: #ddf4ff; }
.row.head { cursor: default; font-weight: 600; color: #57606a; }
.label { padding-left: calc(var(--depth, 0) * 18px) !important; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.label b { font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.track { position: relative; min-height: 26px; }
.axis span { position: absolute; top: 4px; transform: translateX(-50%); font-weight: 400; font-size: 12px; white-space: nowrap; }
.axis span:first-child { transform: none; } .axis span:last-child { transform: translateX(-100%); }
.bar { position: absolute; top: 5px; height: 16px; min-width: 3px; border-radius: 3px; opacity: .9; }
.mark { position: absolute; min-width: 2px; }
.mark.turn { top: 7px; height: 5px; background: var(--turn); opacity: .75; border-radius: 1px; }
.mark.tool { top: 14px; height: 5px; background: var(--tool); border: 1px solid #5c5c5c; border-radius: 1px; }
.mark.tool.error, .swatch.tool.error { background: var(--failed); }
.swatch.turn { background: var(--turn); } .swatch.tool { background: var(--tool); border: 1px solid #5c5c5c; }
${['completed', 'failed', 'cancelled', 'max_turns', 'budget', 'stalled', 'no_progress', 'running'].map((status) => `.status-${status} { background: var(--${status}); }`).join('\n')}
.transcript { margin-top: 16px; border: 1px solid #d0d7de; border-radius: 6px; padding: 12px 16px; }
.transcript h2 { font-size: 16px; margin: 0 0 8px; }
.transcript dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 12px; color: #57606a; }
.transcript dd { margin: 0; font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
.message { border-left: 3px solid #d0d7de; margin: 8px 0; padding: 2px 10px; }
.message h3 { font-size: 11px; text-transform: uppercase; letter-spacing: .05em; color: #57606a; margin: 4px 0; }
.message.user { border-color: #3a7bd5; } .message.assistant { border-color: #2e9d5b; } .message.tool { border-color: #8a8f98; }
.message pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
.call pre, .result pre { display: inline; }
.result.error { color: var(--failed); }
`;

/** Shows the transcript of the agent clicked (or chosen with Enter), one at a time. */
const SCRIPT = `
(() => {
  const rows = document.querySelectorAll('.row[data-agent]');
  const show = (row) => {
    for (const other of rows) other.classList.toggle('selected', other === row);
    for (const section of document.querySelectorAll('.transcript')) section.hidden = true;
    const section = document.getElementById('transcript-' + row.dataset.agent);
    section.hidden = false;
    section.scrollIntoView({ block: 'nearest' });
  };
  for (const row of rows) {
    row.addEventListener('click', () => show(row));
    row.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); show(row); }
    });
  }
})();
`;

/**
 * Nothing loads from anywhere; styles are inline; the one script that runs is the page's own,
 * named by its hash, so markup that slipped into a field could not run script even if unescaped.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
