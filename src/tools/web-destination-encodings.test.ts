// Every way a URL can spell a private address reaches WebFetch's check as private: IPv4 as
// integers, hex and octal; IPv6 with an IPv4 inside (mapped, compatible, NAT64, 6to4) in every
// notation; loopback, link-local, unique-local and multicast IPv6 written out or compressed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPublicAddress, resolveDestination } from './web-destination.js';
import { webFetchTool } from './web-fetch.js';

type Octets = [number, number, number, number];

const byte = fc.integer({ min: 0, max: 255 });
const privateV4: fc.Arbitrary<Octets> = fc.oneof(
  fc.tuple(fc.constant(127), byte, byte, byte),
  fc.tuple(fc.constant(10), byte, byte, byte),
  fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), byte, byte),
  fc.tuple(fc.constant(192), fc.constant(168), byte, byte),
  fc.tuple(fc.constant(169), fc.constant(254), byte, byte),
  fc.tuple(fc.constant(0), byte, byte, byte),
  fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), byte, byte),
);

const hex = (n: number, width = 0) => n.toString(16).padStart(width, '0');
const asInteger = ([a, b, c, d]: Octets) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
const highWord = ([a, b]: Octets) => hex((a << 8) | b);
const lowWord = ([, , c, d]: Octets) => hex((c << 8) | d);

/** URL hosts that spell the IPv4 address `v4`. */
const V4_HOSTS: readonly ((v4: Octets) => string)[] = [
  (v4) => v4.join('.'),
  (v4) => String(asInteger(v4)),
  (v4) => `0x${hex(asInteger(v4))}`,
  (v4) => v4.map((octet) => `0${octet.toString(8)}`).join('.'),
  (v4) => v4.map((octet) => `0x${hex(octet)}`).join('.'),
  ([a, b, c, d]) => `${a}.${b}.${(c << 8) | d}`,
  ([a, b, c, d]) => `${a}.${(b << 16) | (c << 8) | d}`,
  (v4) => `[::ffff:${v4.join('.')}]`,
  (v4) => `[::FFFF:${highWord(v4)}:${lowWord(v4)}]`,
  (v4) => `[0:0:0:0:0:ffff:${v4.join('.')}]`,
  (v4) => `[0000:0000:0000:0000:0000:ffff:${hex(asInteger(v4) >>> 16, 4)}:${lowWord(v4)}]`,
  (v4) => `[::${v4.join('.')}]`,
  (v4) => `[::${highWord(v4)}:${lowWord(v4)}]`,
  (v4) => `[::ffff:0:${v4.join('.')}]`,
  (v4) => `[64:ff9b::${v4.join('.')}]`,
  (v4) => `[64:FF9B:1::${highWord(v4)}:${lowWord(v4)}]`,
  (v4) => `[2002:${highWord(v4)}:${lowWord(v4)}::1]`,
];

const word = fc.integer({ min: 0, max: 0xffff });
/** IPv6 addresses that are not public, each written out in full (then compressed below). */
const privateV6: fc.Arbitrary<readonly number[]> = fc.oneof(
  fc.constant([0, 0, 0, 0, 0, 0, 0, 1]),
  fc.constant([0, 0, 0, 0, 0, 0, 0, 0]),
  fc.tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), word, word, word, word, word, word, word),
  fc.tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), word, word, word, word, word, word, word),
  fc.tuple(fc.integer({ min: 0xff00, max: 0xffff }), word, word, word, word, word, word, word),
);

/** A host for IPv6 words: in full, padded, upper case, or with its longest zero run as `::`. */
function v6Host(words: readonly number[], style: number): string {
  const full = words.map((w) => (style === 1 ? hex(w, 4) : hex(w)));
  let text = full.join(':');
  if (style === 2) text = text.toUpperCase();
  if (style === 3) {
    const zeros = text.match(/(?:^|:)0(?::0)+(?::|$)/g) ?? [];
    const longest = zeros.sort((a, b) => b.length - a.length)[0];
    if (longest) text = text.replace(longest, '::');
  }
  return `[${text}]`;
}

async function judged(host: string) {
  const url = new URL(`http://${host}/page`);
  const destination = await resolveDestination(url);
  const subject = webFetchTool.permissionSubject?.({ url: url.href, prompt: 'x' }, { cwd: '/' });
  return { destination, subject };
}

describe('WebFetch on every spelling of a private address (property)', () => {
  it('calls every IPv4 encoding of a private address private, before any DNS', async () => {
    await fc.assert(
      fc.asyncProperty(privateV4, fc.constantFrom(...V4_HOSTS), async (v4, spell) => {
        const { destination, subject } = await judged(spell(v4));
        expect(destination).toMatchObject({ isPrivate: true });
        expect(subject).toMatch(/^private:/);
      }),
      { numRuns: 400 },
    );
  });

  it('calls loopback, unspecified, link-local, unique-local and multicast IPv6 private in any notation', async () => {
    await fc.assert(
      fc.asyncProperty(privateV6, fc.integer({ min: 0, max: 3 }), async (words, style) => {
        const { destination, subject } = await judged(v6Host(words, style));
        expect(destination).toMatchObject({ isPrivate: true });
        expect(subject).toMatch(/^private:/);
      }),
      { numRuns: 300 },
    );
  });

  it('takes [::127.0.0.1] for loopback, not for a public address', async () => {
    expect(await judged('[::127.0.0.1]')).toMatchObject({
      destination: { isPrivate: true, privateAddress: '::7f00:1' },
      subject: 'private:[::7f00:1]',
    });
  });

  it('judges a zone id on a link-local address private', () => {
    expect(isPublicAddress('fe80::1%eth0')).toBe(false);
    expect(isPublicAddress('fe80::1%25eth0')).toBe(false);
  });

  it('still calls public addresses public, however they are spelled', async () => {
    for (const host of [
      '93.184.215.14',
      '1572394766',
      '[::ffff:93.184.215.14]',
      '[2606:4700::1111]',
    ]) {
      expect((await judged(host)).destination, host).toMatchObject({ isPrivate: false });
    }
  });
});
