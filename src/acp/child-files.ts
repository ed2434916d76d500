// The files an ACP child reads and writes through warren (`fs/read_text_file`,
// `fs/write_text_file`): the same allowed-directory checks as warren's own file tools, and a write
// the child was not already allowed to make is put to its permission gate as a Write.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  RequestError,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import { resolveAllowedPath } from '../tools/allowed-path.js';
import { writeTool } from '../tools/write.js';
import type { ChildAsker } from './child-permission.js';

export class ChildFiles {
  readonly #asker: ChildAsker;
  /** Files the gate already allowed an edit of (the child asked first, as ACP agents do). */
  readonly #allowed = new Set<string>();

  constructor(asker: ChildAsker) {
    this.#asker = asker;
  }

  /** A file the child was allowed to edit by a permission request it made. */
  allowEdit(file: string): void {
    this.#allowed.add(path.resolve(this.#asker.cwd, file));
  }

  async read(request: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const file = await this.#checked(request.path);
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw (
        RequestError.resourceNotFound?.(request.path) ??
        RequestError.invalidParams(undefined, `${request.path}: ${error.code ?? 'cannot be read'}`)
      );
    });
    if (request.line == null && request.limit == null) return { content: text };
    const lines = text.split('\n');
    const start = Math.max(0, (request.line ?? 1) - 1);
    const end = request.limit == null ? lines.length : start + request.limit;
    return { content: lines.slice(start, end).join('\n') };
  }

  async write(request: WriteTextFileRequest): Promise<void> {
    const file = await this.#checked(request.path);
    if (
      !this.#allowed.has(file) &&
      !this.#allowed.has(path.resolve(this.#asker.cwd, request.path))
    ) {
      const asker = this.#asker;
      const decision = asker.permissions
        ? await asker.permissions.decide({
            tool: writeTool,
            input: { file_path: file, content: request.content },
            cwd: asker.cwd,
            allowedDirs: asker.allowedDirs,
            agent: asker.agent,
            signal: asker.signal,
          })
        : { behavior: 'deny' as const, message: 'no permission policy' };
      if (decision.behavior === 'deny') {
        throw RequestError.invalidRequest(
          undefined,
          `writing ${request.path} was not allowed: ${decision.message}`,
        );
      }
    }
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, request.content);
  }

  /** The path's real location inside the child's allowed directories, or a refusal. */
  async #checked(requested: string): Promise<string> {
    if (!path.isAbsolute(requested)) {
      throw RequestError.invalidParams(undefined, `${requested}: ACP file paths must be absolute`);
    }
    const allowed = await resolveAllowedPath(requested, this.#asker);
    if (!allowed.ok) throw RequestError.invalidParams(undefined, allowed.message);
    return allowed.path;
  }
}
