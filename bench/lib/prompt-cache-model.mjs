// Anthropic's prompt cache, as its documentation describes it, for the benchmark's mock: a
// request is a sequence of blocks (tools, then system, then message content); `cache_control`
// marks breakpoints (at most four). At each breakpoint the cache is checked for the prefix
// ending there and at every block boundary up to 20 blocks before it; the longest prefix found
// is read. The prefix up to the last breakpoint is then written, counted from where the read
// ended, if it holds at least `minTokens`. An entry is readable only once the response that
// wrote it has begun (`commit`), and lives `ttlMs` (five minutes) after its last use.
//
// One cache per `scope`: the benchmark's variants keep their entries apart (a child that may
// never read its parent's entries, an agent that reads only its own). Tokens are estimated as
// characters / 4 of each block's JSON, without its cache_control.
import { createHash } from 'node:crypto';

export const MAX_BREAKPOINTS = 4;
export const LOOKBACK_BLOCKS = 20;

/** The request as the cache sees it: every block's token count, prefix hash and marker. */
export function cacheBlocks(body) {
  const blocks = [];
  const add = (kind, value) => {
    const { cache_control: marker, ...content } = value;
    blocks.push({ kind, content, marked: marker !== undefined });
  };
  for (const tool of Array.isArray(body.tools) ? body.tools : []) add('tool', tool);
  const system =
    typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : body.system;
  for (const block of Array.isArray(system) ? system : []) add('system', block);
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    const content =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : message.content;
    for (const block of Array.isArray(content) ? content : []) add(message.role, block);
  }
  let hash = '';
  let tokens = 0;
  return blocks.map((block) => {
    const json = JSON.stringify(block.content);
    hash = createHash('sha256').update(`${hash}\u0000${block.kind}\u0000${json}`).digest('hex');
    tokens += Math.ceil(json.length / 4);
    return { hash, tokens, marked: block.marked };
  });
}

export class PromptCacheModel {
  /** scope + '|' + prefix hash -> expiry (ms since epoch) */
  #entries = new Map();

  /**
   * `bound: true` is no real cache but the most any placement of breakpoints could read: every
   * block boundary is a breakpoint, nothing is too short, the look-back is unlimited, and what
   * a request writes is readable at once (call `commit` right away).
   */
  constructor({
    ttlMs = 5 * 60_000,
    minTokens = 1024,
    now = () => Date.now(),
    bound = false,
  } = {}) {
    this.ttlMs = ttlMs;
    this.minTokens = bound ? 0 : minTokens;
    this.now = now;
    this.bound = bound;
  }

  /**
   * What one request reads and writes in `scope`: `{ read, write, input, total, commit }`.
   * Call `commit()` when the response begins: only then are the written entries readable.
   */
  account(blocks, scope) {
    const now = this.now();
    const total = blocks.at(-1)?.tokens ?? 0;
    const marks = blocks.flatMap((block, index) => (block.marked || this.bound ? [index] : []));
    const lookback = this.bound ? 0 : LOOKBACK_BLOCKS;
    let readAt = -1;
    for (const mark of marks) {
      for (let i = mark; i >= 0 && i >= mark - lookback; i--) {
        if (i <= readAt) break;
        const key = `${scope}|${blocks[i].hash}`;
        if ((this.#entries.get(key) ?? 0) > now) {
          readAt = i;
          break;
        }
      }
    }
    const read = readAt >= 0 ? blocks[readAt].tokens : 0;
    if (readAt >= 0) this.#entries.set(`${scope}|${blocks[readAt].hash}`, now + this.ttlMs);
    const cacheable = marks.filter((mark) => blocks[mark].tokens >= this.minTokens);
    const last = cacheable.at(-1);
    const written = last !== undefined && last > readAt ? blocks[last].tokens - read : 0;
    const input = total - read - written;
    const commit = () => {
      const expires = this.now() + this.ttlMs;
      for (const mark of cacheable) this.#entries.set(`${scope}|${blocks[mark].hash}`, expires);
    };
    return { read, write: written, input, total, commit };
  }

  reset() {
    this.#entries.clear();
  }
}
