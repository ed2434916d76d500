import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { parseRuleList } from '../permissions/permission-rule.js';
import {
  callThroughPolicy,
  isErrorOutput,
  outputText,
  testToolContext,
} from '../testing/tool-context.js';
import { useWebServers } from '../testing/web-server.js';
import { webFetchTool } from './web-fetch.js';

const startServer = useWebServers();

/** A print-mode policy: nothing is asked, only the rules allow. */
function allowing(rules: string, deny = '') {
  return createPermissionPolicy({
    mode: 'default',
    allow: parseRuleList(rules, '--allowed-tools'),
    deny: parseRuleList(deny, '--disallowed-tools'),
  });
}

const bypass = createPermissionPolicy({ mode: 'bypassPermissions' });

function fetchAs(policy: ReturnType<typeof allowing>, input: { url: string; prompt?: string }) {
  return callThroughPolicy(webFetchTool, input, policy, testToolContext());
}

function page(html: string, type = 'text/html; charset=utf-8') {
  return startServer((_req, res) => {
    res.writeHead(200, { 'content-type': type });
    res.end(html);
  });
}

describe('WebFetch', () => {
  it('returns an HTML page as readable text: no markup, scripts, styles or navigation; absolute links', async () => {
    const server = await page(
      '<html><head><style>p{}</style><script>steal()</script></head><body><nav><a href="/">Home</a></nav>' +
        '<h1>Release notes</h1><p>Version <b>2</b> adds <a href="/docs/cache">caching</a>.</p>' +
        '<img src="x.png" alt="logo"><footer>© someone</footer></body></html>',
    );
    const result = await fetchAs(bypass, { url: `${server.url}/notes` });
    const text = outputText(result);
    expect(isErrorOutput(result)).toBe(false);
    expect(text).toContain(`${server.url}/notes (HTTP 200 OK, text/html; charset=utf-8`);
    expect(text).toContain('Release notes');
    expect(text).toContain(`Version 2 adds caching [${server.url}/docs/cache].`);
    for (const gone of ['steal', 'p{}', 'Home', 'logo', '©', '<']) expect(text).not.toContain(gone);
  });

  it('returns JSON and plain text as they are, and decompresses what the server compressed', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ version: '2.0.1' })));
    });
    const result = await fetchAs(bypass, { url: server.url });
    expect(outputText(result)).toContain('{"version":"2.0.1"}');
  });

  it('refuses binary content without reading it, whatever the server calls it', async () => {
    const image = await page('\x89PNG....', 'image/png');
    expect(outputText(await fetchAs(bypass, { url: image.url }))).toMatch(
      /is image\/png, which WebFetch does not read: it reads HTML and text only/,
    );
    const untyped = await startServer((_req, res) => res.end(Buffer.from([1, 0, 2, 0, 3])));
    const result = await fetchAs(bypass, { url: untyped.url });
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toMatch(/is binary content/);
  });

  it('reports an HTTP error as an error result with the start of the page', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>No such page</h1>');
    });
    const result = await fetchAs(bypass, { url: `${server.url}/gone` });
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toBe(
      `${server.url}/gone answered HTTP 404 Not Found.\n\nNo such page`,
    );
  });

  it('caps what it reads and what it returns; with a prompt, the matching passages are kept', async () => {
    const filler = Array.from(
      { length: 400 },
      (_, i) => `<p>Paragraph ${i} about nothing in particular, padded out ${'x'.repeat(100)}.</p>`,
    );
    filler.splice(300, 0, '<p>The cache lifetime is five minutes.</p>');
    const server = await page(`<h1>Guide</h1>${filler.join('')}`);
    const plain = outputText(await fetchAs(bypass, { url: server.url }));
    expect(plain).toMatch(/\[Cut at 40000 characters; \d+ more left out\. Pass a prompt/);
    expect(plain).not.toContain('five minutes');
    const focused = outputText(
      await fetchAs(bypass, { url: server.url, prompt: 'What is the cache lifetime?' }),
    );
    expect(focused).toMatch(
      /\[Passages matching the prompt; \d+ characters of other passages left out\.\]/,
    );
    expect(focused).toContain('Guide');
    expect(focused).toContain('The cache lifetime is five minutes.');
    expect(focused.length).toBeLessThan(45_000);
  });

  it('reads at most 5 MiB of a body, and says so', async () => {
    const server = await page('y'.repeat(6 * 1024 * 1024), 'text/plain');
    const text = outputText(await fetchAs(bypass, { url: server.url }));
    expect(text).toContain('5242880 bytes');
    expect(text).toContain('[The body is over 5 MiB; only the start was read.]');
  });

  it('follows a redirect on the same host, and hands one to another host back to the model', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/old') res.writeHead(301, { location: '/new' }).end();
      else if (req.url === '/away')
        res.writeHead(302, { location: 'http://other.example/x' }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(`at ${req.url}`);
    });
    const moved = outputText(await fetchAs(bypass, { url: `${server.url}/old` }));
    expect(moved).toContain(`${server.url}/new (HTTP 200`);
    expect(moved).toContain('at /new');
    const away = await fetchAs(bypass, { url: `${server.url}/away` });
    expect(isErrorOutput(away)).toBe(false);
    expect(outputText(away)).toBe(
      `${server.url}/away redirects to another host: http://other.example/x\nTo read it, call WebFetch with that URL (the new host needs its own permission).`,
    );
    expect(server.requests.map((request) => request.path)).toEqual(['/old', '/new', '/away']);
  });

  it('stops after five redirects', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(302, { location: `/r${Number(req.url?.slice(2) || 0) + 1}` }).end();
    });
    const result = await fetchAs(bypass, { url: `${server.url}/r0` });
    expect(outputText(result)).toMatch(/redirected more than 5 times/);
  });

  it('refuses URLs it must not fetch before asking anyone', () => {
    const problems = (url: string) =>
      webFetchTool.inputSchema.safeParse({ url }).error?.issues[0]?.message;
    expect(problems('file:///etc/passwd')).toMatch(/only http:\/\/ and https:\/\/ URLs/);
    expect(problems('http://user:secret@example.com/')).toMatch(/user name or password/);
    expect(problems('example.com')).toMatch(/not a valid URL/);
    expect(problems('https://example.com/page')).toBeUndefined();
  });

  it('reports a host it cannot reach as an error result', async () => {
    // Port 1 (tcpmux) has no listener on a test machine.
    const result = await fetchAs(bypass, { url: `http://127.0.0.1:1/` });
    expect(outputText(result)).toMatch(
      /^Could not fetch http:\/\/127\.0\.0\.1:1\/: ECONNREFUSED\.$/,
    );
  });

  it('stops when the call is cancelled', async () => {
    const server = await startServer(() => {}); // never answers
    const controller = new AbortController();
    const ctx = testToolContext({ signal: controller.signal });
    const call = callThroughPolicy(webFetchTool, { url: server.url }, bypass, ctx);
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toThrow();
  });
});

describe('WebFetch permissions', () => {
  it('matches rules against domain:<host>, or private:<host> for local addresses and names, before any DNS', () => {
    const subject = (url: string) => webFetchTool.permissionSubject?.({ url }, { cwd: '/' });
    expect(subject('http://127.0.0.1:9/x')).toBe('private:127.0.0.1');
    expect(subject('http://[::1]:9/')).toBe('private:[::1]');
    expect(subject('http://169.254.169.254/latest/meta-data')).toBe('private:169.254.169.254');
    expect(subject('http://app.localhost:3000/')).toBe('private:app.localhost');
    expect(subject('https://93.184.215.14/')).toBe('domain:93.184.215.14');
    expect(subject('https://Docs.Example.test/a')).toBe('domain:docs.example.test');
  });

  it('needs a private: rule for localhost, even when its domain is allowed', async () => {
    const server = await page('<p>internal</p>');
    const url = `http://localhost:${server.port}/`;
    const denied = await fetchAs(allowing('WebFetch(domain:localhost)'), { url });
    expect(outputText(denied)).toBe(
      'Permission to use WebFetch(private:localhost) was not granted. To allow it, rerun with --allowed-tools "WebFetch(private:localhost)", or --permission-mode bypassPermissions.',
    );
    const allowed = await fetchAs(allowing('WebFetch(private:localhost)'), { url });
    expect(outputText(allowed)).toContain('internal');
    expect(server.requests).toHaveLength(1);
  });

  it('keeps a domain deny rule in force for that host on a private address', async () => {
    const server = await page('<p>internal</p>');
    const result = await fetchAs(allowing('WebFetch', 'WebFetch(domain:localhost)'), {
      url: `http://localhost:${server.port}/`,
    });
    expect(outputText(result)).toMatch(/denied by the rule "WebFetch\(domain:localhost\)"/);
    expect(server.requests).toHaveLength(0);
  });

  it('asks in default mode, like Bash: a fetch is not read-only', async () => {
    const server = await page('x');
    const result = await fetchAs(allowing(''), { url: `${server.url}/` });
    expect(outputText(result)).toMatch(/WebFetch\(private:127\.0\.0\.1\) was not granted/);
  });

  it('refuses a private address when there is no permission policy to allow it', async () => {
    const server = await page('x');
    const result = await webFetchTool.call({ url: server.url }, testToolContext());
    expect(outputText(result)).toBe(
      'Refused: 127.0.0.1 resolves to the private address 127.0.0.1; fetches on the local network need permission, and no permission policy is there to give it.',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('rejects rules that name no host', () => {
    expect(() => parseRuleList('WebFetch(example.com)', '--allowed-tools')).toThrow(
      /does not name a host.*WebFetch\(domain:example\.com\)/,
    );
    expect(parseRuleList('WebFetch(Domain:Docs.Example.COM)', 'x')[0]?.specifier).toBe(
      'domain:docs.example.com',
    );
  });
});
