// A Restate request identity key pair for tests: the private key as the PEM file restate-server
// reads, the public key as the `publickeyv1_<base58>` text a worker is given. Internal to
// warren's own tests.
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export async function identityKeyPair(
  dir: string,
): Promise<{ pemFile: string; publicKey: string }> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pemFile = join(dir, 'restate-identity.pem');
  await writeFile(pemFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  // The raw key is the last 32 bytes of its SPKI encoding.
  const raw = publicKey.export({ type: 'spki', format: 'der' }).subarray(-32);
  return { pemFile, publicKey: `publickeyv1_${base58(raw)}` };
}

function base58(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = BASE58[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}
