// The one way warren reads a file someone else supplied (a cloned repository, a flag, a
// setting): only a regular file is read. A FIFO, device or socket, named directly or through a
// symlink, is refused with the path and the fix, never opened for a read that would wait forever.
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import { isSystemPath } from './system-path.js';

/** 4 MiB: a settings, MCP config, prices or trust file is kilobytes; more is a mistake or an attack. */
export const CONFIG_FILE_MAX_BYTES = 4 * 1024 * 1024;

export interface RegularFileOptions {
  /** Refuse a file larger than this many bytes (FileTooLargeError). */
  maxBytes: number;
}

/** A file warren would not read: the path, what is wrong with it and the fix, apart and whole. */
export class RefusedFileError extends Error {
  readonly code: string;
  readonly path: string;
  /** What is wrong, without the path: for a ConfigError that names the place itself. */
  readonly problem: string;
  readonly fix: string;
  constructor(code: string, path: string, problem: string, fix: string) {
    super(`${path} ${problem} (${fix})`);
    this.name = 'RefusedFileError';
    this.code = code;
    this.path = path;
    this.problem = problem;
    this.fix = fix;
  }
}

/** The file exists but is a FIFO, device, socket or directory: it is not read. */
export class NotRegularFileError extends RefusedFileError {
  constructor(path: string, kind: string) {
    const problem = `is ${kind}, not a regular file; warren reads only regular files`;
    super('ENOTREGULAR', path, problem, 'replace it with a regular file, or remove it');
  }
}

/** The path leads into /proc, /sys or /dev, whose files can hold a process's secrets. */
export class SystemFileError extends RefusedFileError {
  constructor(path: string, real: string) {
    const problem = `is a process, system or device file (${real}), which can hold secrets such as the environment; warren does not read those`;
    super('ESYSTEMFILE', path, problem, 'name a file of your own instead');
  }
}

/** The file is larger than its reader accepts: refused rather than read in part. */
export class FileTooLargeError extends RefusedFileError {
  constructor(path: string, size: number, maxBytes: number) {
    const problem = `is ${size} bytes, more than the ${maxBytes} warren reads from such a file`;
    super('EFILETOOLARGE', path, problem, 'shorten it');
  }
}

/**
 * Opening a FIFO without O_NONBLOCK waits for a writer; with it the open returns at once and
 * the fstat of the opened descriptor (not a stat of the name, which could be swapped between
 * the two calls) says what it is. O_NONBLOCK changes nothing for a regular file.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);

/** What a non-regular file is, for the message. */
export function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/** Whether an error is the refusal of a non-regular, system or oversized file. */
export function isRefusedFile(error: unknown): error is RefusedFileError {
  return error instanceof RefusedFileError;
}

/**
 * Reads a regular file whole. Throws the usual fs errors (ENOENT, EACCES…) for a file that
 * cannot be opened, NotRegularFileError for anything else than a regular file (a device is not
 * even opened: its stat is checked first, and the opened descriptor again), FileTooLargeError
 * above `maxBytes`.
 */
export async function readRegularFile(file: string, options: RegularFileOptions): Promise<Buffer> {
  const { handle, stats } = await openRegularFile(file);
  try {
    refuseOversized(file, stats.size, options.maxBytes);
    const bytes = await handle.readFile();
    // The file may have grown since its fstat.
    refuseOversized(file, bytes.length, options.maxBytes);
    return bytes;
  } finally {
    await handle.close();
  }
}

/**
 * Opens a regular file for reading, for a reader that reads only part of it; the caller closes
 * the handle. Throws as readRegularFile does, without the size cap.
 */
export async function openRegularFile(file: string): Promise<{ handle: FileHandle; stats: Stats }> {
  refuseNonRegular(file, await stat(file));
  refuseSystemFile(file, await realpath(file));
  const handle = await open(file, OPEN_FLAGS);
  try {
    const stats = await handle.stat();
    refuseNonRegular(file, stats);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** readRegularFile for the few readers that must stay synchronous. */
export function readRegularFileSync(file: string, options: RegularFileOptions): Buffer {
  refuseNonRegular(file, statSync(file));
  refuseSystemFile(file, realpathSync(file));
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    refuseNonRegular(file, stats);
    refuseOversized(file, stats.size, options.maxBytes);
    const bytes = readFileSync(fd);
    refuseOversized(file, bytes.length, options.maxBytes);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** readRegularFile as UTF-8 text, without a leading byte-order mark. */
export async function readRegularText(file: string, options: RegularFileOptions): Promise<string> {
  return (await readRegularFile(file, options)).toString('utf8').replace(/^\uFEFF/, '');
}

/** readRegularFileSync as UTF-8 text, without a leading byte-order mark. */
export function readRegularTextSync(file: string, options: RegularFileOptions): string {
  return readRegularFileSync(file, options)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

function refuseNonRegular(file: string, stats: Stats): void {
  if (!stats.isFile()) throw new NotRegularFileError(file, fileKind(stats));
}

function refuseSystemFile(file: string, real: string): void {
  if (isSystemPath(real)) throw new SystemFileError(file, real);
}

function refuseOversized(file: string, size: number, maxBytes: number): void {
  if (size > maxBytes) throw new FileTooLargeError(file, size, maxBytes);
}
