// What a stdio MCP server's process is given from warren's environment, and how a server that did
// not answer is described: the SDK's short safe list plus the certificate and proxy variables that
// make networking work behind a TLS proxy; never a provider key unless the config passes it.
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * Passed through when set: a server started with `npx -y …` behind a corporate proxy needs them
 * to download itself and to reach its API. Proxy URLs may hold credentials; they go only to the
 * process, never into a message.
 */
export const NETWORK_VARIABLES: readonly string[] = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'NODE_USE_ENV_PROXY',
  ...['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY'].flatMap((name) => [
    name,
    name.toLowerCase(),
  ]),
];

/** The environment a stdio server starts with: safe variables, network variables, its own `env`. */
export function serverEnvironment(
  own: Record<string, string>,
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const network: Record<string, string> = {};
  for (const name of NETWORK_VARIABLES) {
    const value = from[name];
    if (value !== undefined && !value.startsWith('()')) network[name] = value;
  }
  return { ...getDefaultEnvironment(), ...network, ...own };
}

/** Arguments that follow a flag like `--token` or `--api-key`, or carry one as `--token=…`. */
const SECRET_FLAG = /^--?[\w-]*(?:key|token|secret|password|auth)[\w-]*$/i;
const SECRET_ASSIGNMENT = /^(--?[\w-]*(?:key|token|secret|password|auth)[\w-]*=).+$/i;
const HIDDEN = '…';
/** Shorter values ("1", "info") would hide ordinary arguments. */
const MIN_SECRET_LENGTH = 6;

export interface StdioLaunch {
  command: string;
  args: readonly string[];
  cwd: string;
  /** Everything the process got. */
  env: Record<string, string>;
  /** The config's own `env`: its values may be keys, so an argument holding one is hidden. */
  own: Record<string, string>;
}

/** Variables whose values are hidden wherever an argument repeats them. */
const SECRET_VARIABLE = /KEY|TOKEN|SECRET|PASSWORD|PROXY/i;

/**
 * One line on how a server was started, for the error of a server that did not answer: command,
 * arguments (values that look like secrets, or equal one of its variables, hidden), folder and
 * the names of the variables it got, never their values.
 */
export function describeLaunch(launch: StdioLaunch): string {
  const values = [
    ...Object.values(launch.own),
    ...Object.entries(launch.env).flatMap(([name, value]) =>
      SECRET_VARIABLE.test(name) ? [value] : [],
    ),
  ].filter((value) => value.length >= MIN_SECRET_LENGTH);
  const args = launch.args.map((arg, index) => {
    if (index > 0 && SECRET_FLAG.test(launch.args[index - 1]!)) return HIDDEN;
    const assignment = SECRET_ASSIGNMENT.exec(arg);
    if (assignment) return `${assignment[1]}${HIDDEN}`;
    return values.some((value) => arg.includes(value)) ? HIDDEN : arg;
  });
  const words = [launch.command, ...args].map(quoted).join(' ');
  const names = Object.keys(launch.env).sort().join(', ');
  return `it was started as ${words} in ${launch.cwd} with the variables ${names || '(none)'}`;
}

function quoted(word: string): string {
  return /^[\w@%+=:,./…-]+$/.test(word) ? word : JSON.stringify(word);
}
