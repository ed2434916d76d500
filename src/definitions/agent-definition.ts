// The one shape of a sub-agent definition: the permissive input people write (files, the SDK's
// `agents` option) and the normalised AgentDefinition every other layer reads. The schemas are
// made on first use (core/lazy.ts): a run that reads no definition (built-ins are trusted as
// written) never builds them.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import type { PermissionMode } from '../core/permission-policy.js';
import type { HookSettings } from '../hooks/hook-settings.js';
import { CACHE_TTLS, EFFORTS } from '../model/model-settings.js';
import { type OutputSchemaInput, outputSchemaProblem } from './output-schema.js';
import { remoteAgentSchema } from './remote-agent-fields.js';

/** Where a definition came from; also its precedence level (see load-agent-definitions.ts). */
export const agentSourceSchema = lazy(() =>
  z.object({
    /**
     * `cli` is reserved for definitions passed as JSON on the command line; `agents-dir` files
     * (`--agents-dir`) sit at the same precedence level.
     */
    kind: z.enum(['builtin', 'cli', 'project', 'user', 'agents-dir', 'sdk']),
    path: z.string().optional(),
    /** The file format (dialect) it was read as; absent for built-ins and SDK definitions. */
    format: z.enum(['warren', 'claude-code', 'opencode', 'codex', 'gemini']).optional(),
  }),
);
export type AgentSource = z.infer<ReturnType<typeof agentSourceSchema>>;
export type AgentSourceKind = AgentSource['kind'];
export type AgentFileFormat = NonNullable<AgentSource['format']>;

const permissionModeSchema = lazy(
  () =>
    z
      .enum(['default', 'acceptEdits', 'plan', 'bypassPermissions'])
      .describe(
        'one of default, acceptEdits, plan, bypassPermissions',
      ) satisfies z.ZodType<PermissionMode>,
);

const positiveInt = (what: string) =>
  z
    .union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)])
    .refine((n) => n > 0)
    .describe(what);

/** `Read, Grep`, `["Read", "Grep"]` or opencode's `{ read: true, write: false }`. */
const toolsInputSchema = lazy(() =>
  z
    .union([z.string(), z.array(z.string()), z.record(z.string(), z.boolean())])
    .describe(
      'a comma-separated string, a list of tool names, or a map of tool name to true/false',
    ),
);

/** `a, b` or `[a, b]`. */
const nameListSchema = lazy(() =>
  z
    .union([z.string(), z.array(z.string())])
    .describe('a comma-separated string or a list of names'),
);

const mcpServerRefSchema = lazy(() => z.union([z.string(), z.record(z.string(), z.unknown())]));

/** Checked in full by buildAgentDefinition, which names each bad entry. */
const hooksSchema = lazy(() =>
  z
    .custom<HookSettings>(
      (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    )
    .describe('a map of hook event to a list of matchers, as in settings.json'),
);

const outputSchemaSchema = lazy(() =>
  z
    .custom<OutputSchemaInput>()
    .superRefine((value, ctx) => {
      const problem = outputSchemaProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('a JSON Schema of an object (or, in code, a zod object schema)'),
);

const onFailureSchema = lazy(() =>
  z.enum(['recoverable', 'fatal']).describe('`recoverable` or `fatal`'),
);

/**
 * opencode's `permission`: `allow`/`ask`/`deny` for every tool, or per tool (`edit: deny`), or per
 * pattern (`bash: { "*": ask, "git status": allow }`); OpenCode 2's `permissions` list of
 * `{ action, resource, effect }` rules, in order. Entries are read one by one
 * (opencode-permission.ts), so one odd entry does not lose the others.
 */
const permissionInputSchema = lazy(() =>
  z
    .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .describe(
      '`allow`, `ask` or `deny`, a map of tool to one of them or to a map of pattern to one, or (OpenCode 2 `permissions`) a list of { action, resource, effect }',
    ),
);

/** A rule an opencode `permission` block adds to its agent's permissions. */
export const definitionPermissionRuleSchema = lazy(() =>
  z.object({
    behavior: z.enum(['deny', 'ask']),
    /** A warren permission rule: `Bash(git push:*)`, `Edit(**\/*.env*)`, `Agent(architect)`, `*`. */
    rule: z.string(),
    /** Calls it does not cover: later entries of the block with another action (the last match wins). */
    except: z.array(z.string()).optional(),
    /** Where in the block it was written, for messages: `permission.bash`. */
    field: z.string(),
  }),
);
export type DefinitionPermissionRule = z.infer<ReturnType<typeof definitionPermissionRuleSchema>>;

/**
 * Every field a definition may set, each validated on its own so a file with one bad field
 * still loads (the field is dropped with a warning) while `defineAgent` can name the field.
 */
export const agentFieldSchemas = lazy(
  () =>
    ({
      name: z.string().trim().min(1).describe('a non-empty string'),
      description: z
        .string()
        .trim()
        .min(1)
        .describe('a non-empty string that tells the parent model when to use this agent'),
      prompt: z.string().describe('a string (the system prompt)'),
      tools: toolsInputSchema(),
      disallowedTools: toolsInputSchema(),
      /** Spawnable sub-agent types; files say this as `tools: Agent(a, b)`. */
      spawnableAgents: nameListSchema(),
      readOnly: z.boolean().describe('true or false'),
      model: z
        .string()
        .trim()
        .min(1)
        .describe('`inherit`, an alias such as `sonnet`, or `provider:model`'),
      permissionMode: permissionModeSchema(),
      maxTurns: positiveInt('a whole number above 0'),
      timeBudgetMs: positiveInt('a whole number of milliseconds above 0'),
      tokenBudget: positiveInt('a whole number of tokens above 0'),
      mcpServers: z
        .union([z.string(), z.array(mcpServerRefSchema()), z.record(z.string(), z.unknown())])
        .describe('a server name, a map of name to server config, or a list of either'),
      background: z.boolean().describe('true or false'),
      isolation: z.enum(['worktree', 'remote']).describe('`worktree` or `remote`'),
      worktreeBase: z
        .string()
        .trim()
        .min(1)
        .describe('`head` or a ref (branch, tag, commit) the worktree branches from'),
      agents: nameListSchema(),
      color: z.string().describe('a colour name'),
      hooks: hooksSchema(),
      outputSchema: outputSchemaSchema(),
      onFailure: onFailureSchema(),
      skills: nameListSchema(),
      memory: z.enum(['user', 'project', 'local']).describe('one of user, project, local'),
      forkContext: z
        .union([z.boolean(), positiveInt('a whole number of turns above 0')])
        .describe('true (the whole conversation), false (none) or a whole number of turns above 0'),
      omitProjectInstructions: z.boolean().describe('true or false'),
      permission: permissionInputSchema(),
      effort: z.enum(EFFORTS).describe(`one of ${EFFORTS.join(', ')}`),
      temperature: z.number().min(0).max(2).describe('a number from 0 to 2'),
      cacheTtl: z.enum(CACHE_TTLS).describe('`5m` or `1h`'),
      kind: z
        .enum(['local', 'acp'])
        .describe('`local` (warren runs the agent) or `acp` (an external ACP agent)'),
      command: z.string().trim().min(1).describe('the program that starts the ACP agent'),
      args: z.array(z.string()).describe('a list of strings'),
      env: z.record(z.string(), z.string()).describe('a map of variable name to string'),
      remote: remoteAgentSchema(),
    }) as const,
);

export type AgentFieldName = keyof ReturnType<typeof agentFieldSchemas>;

/**
 * What a library user passes (like the Claude Agent SDK's `agents` option): `description` and
 * `prompt` are required, everything else optional and accepted in any of the shapes files use.
 * Unknown keys are allowed and end up in `extra`.
 */
export const agentDefinitionInputSchema = lazy(() =>
  z.looseObject({
    name: agentFieldSchemas().name.optional(),
    description: agentFieldSchemas().description,
    prompt: agentFieldSchemas().prompt,
    tools: agentFieldSchemas().tools.optional(),
    disallowedTools: agentFieldSchemas().disallowedTools.optional(),
    spawnableAgents: agentFieldSchemas().spawnableAgents.optional(),
    readOnly: agentFieldSchemas().readOnly.optional(),
    model: agentFieldSchemas().model.optional(),
    permissionMode: agentFieldSchemas().permissionMode.optional(),
    maxTurns: agentFieldSchemas().maxTurns.optional(),
    timeBudgetMs: agentFieldSchemas().timeBudgetMs.optional(),
    tokenBudget: agentFieldSchemas().tokenBudget.optional(),
    mcpServers: agentFieldSchemas().mcpServers.optional(),
    background: agentFieldSchemas().background.optional(),
    isolation: agentFieldSchemas().isolation.optional(),
    worktreeBase: agentFieldSchemas().worktreeBase.optional(),
    agents: agentFieldSchemas().agents.optional(),
    color: agentFieldSchemas().color.optional(),
    hooks: agentFieldSchemas().hooks.optional(),
    outputSchema: agentFieldSchemas().outputSchema.optional(),
    onFailure: agentFieldSchemas().onFailure.optional(),
    skills: agentFieldSchemas().skills.optional(),
    memory: agentFieldSchemas().memory.optional(),
    forkContext: agentFieldSchemas().forkContext.optional(),
    omitProjectInstructions: agentFieldSchemas().omitProjectInstructions.optional(),
    permission: agentFieldSchemas().permission.optional(),
    effort: agentFieldSchemas().effort.optional(),
    temperature: agentFieldSchemas().temperature.optional(),
    cacheTtl: agentFieldSchemas().cacheTtl.optional(),
    kind: agentFieldSchemas().kind.optional(),
    command: agentFieldSchemas().command.optional(),
    args: agentFieldSchemas().args.optional(),
    env: agentFieldSchemas().env.optional(),
    /** A remote agent reached over A2A instead of a prompt run here (docs/a2a.md). */
    remote: agentFieldSchemas().remote.optional(),
  }),
);
export type AgentDefinitionInput = z.input<ReturnType<typeof agentDefinitionInputSchema>>;

/** A resolved definition. Tool entries are permission-rule strings: `Name` or `Name(specifier)`. */
export const agentDefinitionSchema = lazy(() =>
  z.object({
    name: z.string().min(1),
    /** Shown to the parent model: when to use this agent. */
    description: z.string().min(1),
    /** The system prompt (a file's Markdown body). */
    prompt: z.string(),
    /** Allowlist. Undefined inherits every tool of the parent; `[]` means no tools at all. */
    tools: z.array(z.string()).optional(),
    /**
     * Which sub-agent types this agent's `Agent` tool may spawn (from `Agent(a, b)` or
     * `Task(a, b)` in `tools`); undefined = any type. Only meaningful when `tools` grants Agent.
     */
    spawnableAgents: z.array(z.string()).optional(),
    /** Denylist, applied before the allowlist; may hold rules such as `Bash(rm -rf*)`. */
    disallowedTools: z.array(z.string()).optional(),
    /**
     * Read-only agent: the tool filter must never grant Write or Edit and must swap Bash for the
     * read-only Bash tool (`readOnlyBashTool`). Set by the built-in `explore` and `plan`.
     */
    readOnly: z.boolean().optional(),
    /** `inherit`, an alias (`sonnet`, `opus`, `haiku`) resolved by the model layer, or `provider:model`. */
    model: z.string().optional(),
    permissionMode: permissionModeSchema().optional(),
    maxTurns: z.number().int().positive().optional(),
    timeBudgetMs: z.number().int().positive().optional(),
    tokenBudget: z.number().int().positive().optional(),
    /** Server names (of the session's servers) or `{ name: config }` records, kept unparsed. */
    mcpServers: z.array(mcpServerRefSchema()).optional(),
    background: z.boolean().optional(),
    /**
     * `worktree`: every run of this agent gets a git worktree of its own; `remote`: it runs on a
     * worker through the run's remote executor (docs/remote.md).
     */
    isolation: z.enum(['worktree', 'remote']).optional(),
    /** What that worktree branches from: `head` (the parent's HEAD, the default) or a ref. */
    worktreeBase: z.string().optional(),
    /** Delegation targets: each becomes a `delegate_to_<name>` tool. */
    agents: z.array(z.string()).optional(),
    color: z.string().optional(),
    /** Hooks active only while this agent runs; in a sub-agent, `Stop` means its SubagentStop. */
    hooks: hooksSchema().optional(),
    /** The agent must finish with a value this schema accepts (see docs/hooks.md). */
    outputSchema: z.custom<OutputSchemaInput>().optional(),
    /** `fatal`: any failure of this agent ends the whole run instead of becoming a result. */
    onFailure: onFailureSchema().optional(),
    /** Skills whose whole text goes into the prompt at start (prompt/skills/). */
    skills: z.array(z.string()).optional(),
    /** A memory folder the agent keeps across sessions (prompt/memory/). */
    memory: z.enum(['user', 'project', 'local']).optional(),
    /**
     * Leave the project instructions (AGENTS.md, CLAUDE.md, WARREN.md) out of this agent's prompt,
     * as the built-in explore and plan do. Claude Code's `omitClaudeMd` means the same.
     */
    omitProjectInstructions: z.boolean().optional(),
    /**
     * Start from the parent's conversation instead of a fresh one: `true` all of it, a number N
     * its last N turns (see agents/fork-context.ts).
     */
    forkContext: z.union([z.boolean(), z.number().int().positive()]).optional(),
    /**
     * Deny and ask rules of this agent's permissions, from an opencode `permission` block. A tool
     * the block switches off outright is in `disallowedTools` instead.
     */
    permissionRules: z.array(definitionPermissionRuleSchema()).optional(),
    /**
     * How hard the model reasons (the AI SDK's portable `reasoning`); an Agent call's `effort`
     * wins over it. Codex's `model_reasoning_effort` means the same.
     */
    effort: z.enum(EFFORTS).optional(),
    /** Sampling temperature (opencode's and Gemini's `temperature`). */
    temperature: z.number().optional(),
    /** Prompt-cache lifetime of its requests (Claude Code's `experimental.cacheTtl`). */
    cacheTtl: z.enum(CACHE_TTLS).optional(),
    /**
     * `acp`: the agent is an external ACP agent (`command`, `args`, `env`) that warren runs as a
     * child and speaks to as its client (docs/acp.md); its prompt is not used. Default `local`.
     */
    kind: z.enum(['local', 'acp']).optional(),
    /** `kind: acp`: the program to start, its arguments, and the variables it gets (`${VAR}` expanded). */
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    /**
     * A remote agent reached over A2A (`kind: remote`): its card and auth. Its tasks are sent
     * there instead of running the loop here (docs/a2a.md).
     */
    remote: remoteAgentSchema().optional(),
    /** Fields warren does not know (opencode's `mode`, `top_p`, …), kept as written. */
    extra: z.record(z.string(), z.unknown()),
    source: agentSourceSchema(),
  }),
);
export type AgentDefinition = z.infer<ReturnType<typeof agentDefinitionSchema>>;
