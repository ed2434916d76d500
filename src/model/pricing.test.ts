import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { thrownConfigError } from '../testing/caught-errors.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { loadPriceTable, parsePriceFile, priceFilePath } from './price-file.js';
import { BUILTIN_PRICES, costOf, modelName, priceOf } from './pricing.js';

const million = {
  inputTokens: 1_000_000,
  outputTokens: 100_000,
  cacheReadInputTokens: 1_000_000,
  cacheCreationInputTokens: 0,
};

describe('pricing', () => {
  it('prices a dated model id by its family', () => {
    const price = priceOf('anthropic:claude-sonnet-4-20250514');
    expect(costOf(million, price)).toBeCloseTo(3 + 1.5 + 0.3);
  });

  it('knows no price for local or unknown models', () => {
    expect(priceOf('openai-compatible:llama3.1')).toBeUndefined();
    expect(
      costOf(
        { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
        undefined,
      ),
    ).toBeNull();
  });

  it('names a model as provider:id without the AI SDK suffix', () => {
    expect(modelName({ provider: 'anthropic.messages', modelId: 'claude-opus-4-1' })).toBe(
      'anthropic:claude-opus-4-1',
    );
  });

  it('ships its prices as data that says where and when they were taken', () => {
    expect(BUILTIN_PRICES.source).toMatch(/https:\/\//);
    expect(BUILTIN_PRICES.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(BUILTIN_PRICES.models).length).toBeGreaterThan(10);
  });
});

describe('the user price file', () => {
  it('lives in $WARREN_HOME, else ~/.warren', () => {
    expect(priceFilePath({ WARREN_HOME: '/srv/w' })).toBe(join('/srv/w', 'prices.json'));
    expect(priceFilePath({})).toMatch(/\.warren[/\\]prices\.json$/);
  });

  it('adds prices for models warren does not know and wins over the built-in ones', async () => {
    const home = await makeTempDir();
    await writeFile(
      join(home, 'prices.json'),
      JSON.stringify({
        source: 'our contract',
        models: {
          'openai-compatible:llama': { input: 0.1, output: 0.2 },
          'anthropic:claude-sonnet-4': { input: 1, output: 2, cacheRead: 0.5 },
        },
      }),
    );
    const table = await loadPriceTable({ env: { WARREN_HOME: home } });
    // Without a cache price, cached tokens cost the input price: no invented discount.
    expect(priceOf('openai-compatible:llama3.1', table)).toEqual({
      input: 0.1,
      output: 0.2,
      cacheRead: 0.1,
      cacheWrite: 0.1,
    });
    expect(costOf(million, priceOf('anthropic:claude-sonnet-4-5', table))).toBeCloseTo(
      1 + 0.2 + 0.5,
    );
    // What the user does not price still has its built-in price.
    expect(priceOf('openai:gpt-4o', table)).toEqual(priceOf('openai:gpt-4o'));
    expect(table.source).toBe('our contract');
  });

  it('is the built-in table when there is no file', async () => {
    expect(await loadPriceTable({ env: { WARREN_HOME: await makeTempDir() } })).toBe(
      BUILTIN_PRICES,
    );
  });

  it('refuses a wrong field, naming file:line:column, the field and the shape', () => {
    const text = '{\n  "models": {\n    "x:y": { "input": "cheap", "output": 1 }\n  }\n}\n';
    const error = thrownConfigError(() => parsePriceFile(text, '/h/prices.json'));
    expect(error.message).toMatch(
      /^\/h\/prices\.json:3:14: models\.x:y\.input: .*expected number.*\(the file looks like \{ "models"/,
    );
  });

  it('refuses an unknown field and broken JSON with the line of the problem', async () => {
    const unknown = thrownConfigError(() =>
      parsePriceFile('{\n  "modles": {}\n}', '/h/prices.json'),
    );
    expect(unknown.where).toBe('/h/prices.json:1:1');
    const broken = thrownConfigError(() =>
      parsePriceFile('{\n  "models": {\n    "a": { "input": 1, }\n', '/h/prices.json'),
    );
    expect(broken.where).toMatch(/^\/h\/prices\.json:3:/);
    expect(broken.problem).toMatch(/^not valid JSON/);
    const dir = await makeTempDir();
    await mkdir(join(dir, 'prices.json'));
    await expect(loadPriceTable({ env: { WARREN_HOME: dir } })).rejects.toThrow(
      /prices\.json: is a directory, not a regular file/,
    );
  });
});
