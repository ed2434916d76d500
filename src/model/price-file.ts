// The user's prices, `~/.warren/prices.json` (`$WARREN_HOME/prices.json`): models warren does not
// price (a local server, a negotiated rate) and corrections, laid over the built-in table.
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../core/config-error.js';
import {
  findNodeAtLocation,
  type JsonNode as Node,
  type JsonParseError as ParseError,
  parseTree,
} from '../core/json-tree.js';
import { lazy } from '../core/lazy.js';
import { CONFIG_FILE_MAX_BYTES, isRefusedFile, readRegularText } from '../core/regular-file.js';
import { warrenHome } from '../core/warren-home.js';
import { BUILTIN_PRICES, type PriceTable } from './pricing.js';

const SHAPE =
  'the file looks like { "models": { "openai-compatible:llama3.1": { "input": 0, "output": 0 }, "anthropic:claude-sonnet-4": { "input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75 } } } in US dollars per million tokens';

const dollars = () => z.number().min(0);

/** Made on first use: most runs have no price file. */
const priceFileSchema = lazy(() =>
  z.strictObject({
    source: z.string().optional(),
    date: z.string().optional(),
    unit: z.string().optional(),
    note: z.string().optional(),
    models: z.record(
      z.string().min(1),
      z.strictObject({
        input: dollars(),
        output: dollars(),
        // Without a cache price, cached tokens cost what uncached ones do: never an invented discount.
        cacheRead: dollars().optional(),
        cacheWrite: dollars().optional(),
      }),
    ),
  }),
);

/** Where the user's price file is: `$WARREN_HOME/prices.json`, else `~/.warren/prices.json`. */
export function priceFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(warrenHome(env), 'prices.json');
}

/**
 * The built-in prices with the user's file on top, or the built-in ones when there is no file.
 * @throws ConfigError naming `file:line:column`, the field and the fix for a broken file.
 */
export async function loadPriceTable(
  options: { env?: NodeJS.ProcessEnv; file?: string } = {},
): Promise<PriceTable> {
  const file = options.file ?? priceFilePath(options.env);
  let text: string;
  try {
    text = await readRegularText(file, { maxBytes: CONFIG_FILE_MAX_BYTES });
  } catch (error) {
    if (isRefusedFile(error)) throw new ConfigError(file, error.problem, error.fix);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return BUILTIN_PRICES;
    throw new ConfigError(file, `cannot be read: ${(error as Error).message}`, 'fix or remove it');
  }
  return { ...parsePriceFile(text, file), base: BUILTIN_PRICES };
}

/** Reads the text of a price file; `file` names it in errors. */
export function parsePriceFile(text: string, file: string): PriceTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const errors: ParseError[] = [];
    parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
    const reason = (error as Error).message.replace(/ in JSON at position \d+.*$/s, '');
    throw new ConfigError(
      `${file}:${lineAndColumn(text, errors[0]?.offset ?? text.length)}`,
      `not valid JSON: ${reason.replace(/, (?:\.\.\.)?".*$/s, '')}`,
      `write strict JSON (double quotes, no comments, no trailing commas); ${SHAPE}`,
    );
  }
  const parsed = priceFileSchema().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
    const path = [...issue.path.filter((key) => typeof key !== 'symbol'), ...keys];
    const field = path.map((key) => (typeof key === 'number' ? `[${key}]` : key)).join('.');
    const problem =
      issue.code === 'unrecognized_keys' ? 'is not a known field' : issue.message.toLowerCase();
    throw new ConfigError(
      `${file}:${locate(text, parseTree(text), path)}`,
      `${field || 'the file'}: ${problem}`,
      SHAPE,
    );
  }
  const { models, source, date } = parsed.data;
  return {
    source: source ?? file,
    date: date ?? '',
    models: Object.fromEntries(
      Object.entries(models).map(([prefix, price]) => [
        prefix,
        {
          input: price.input,
          output: price.output,
          cacheRead: price.cacheRead ?? price.input,
          cacheWrite: price.cacheWrite ?? price.input,
        },
      ]),
    ),
  };
}

/** `line:column` of the field, or of the nearest enclosing field the file has. */
function locate(text: string, tree: Node | undefined, path: readonly (string | number)[]): string {
  for (let depth = path.length; depth > 0 && tree; depth--) {
    const node = findNodeAtLocation(tree, path.slice(0, depth));
    if (!node) continue;
    const start = node.parent?.type === 'property' ? node.parent.offset : node.offset;
    return lineAndColumn(text, start);
  }
  return '1:1';
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}
