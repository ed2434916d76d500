// How a shell command is started: the contract between the tools that run commands (Bash, in
// the foreground and the background) and the operating-system sandbox (src/sandbox/) that
// confines them. Tools see only this; the sandbox decides how the confinement is built.

/** A program to spawn in place of `bash -c <command>`, with the environment it gets. */
export interface CommandLaunch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Whether the command runs confined (false: the sandbox is off or cannot be had here). */
  confined: boolean;
}

export interface CommandRequest {
  command: string;
  cwd: string;
  /**
   * The directories the command may change (the agent's cwd and added folders); everything else
   * is read-only. Empty for a command run because it was judged read-only.
   */
  writableDirs: readonly string[];
  /** Extra variables for the command (a background task's id). */
  env?: Readonly<Record<string, string>>;
}

export interface CommandSandbox {
  /**
   * Whether commands run confined: false where no sandbox can be had (another OS, no
   * bubblewrap, no user namespaces); `why` says which, for the message shown once.
   */
  confines(): Promise<{ confined: true } | { confined: false; why: string }>;
  /** How to start `request.command`; unconfined (with the keys taken out) when `confines` is false. */
  launch(request: CommandRequest): Promise<CommandLaunch>;
}
