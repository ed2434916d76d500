// The public surface, name by name: each entry of package.json "exports" and exactly what it
// exports. Adding a name here is a decision someone reviews; moving one is a breaking change
// that docs/library.md must list. One test reads the build (`npm test` builds first).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = new URL('.', import.meta.url);

/** Every entry, by its subpath, with the names it exports (types included), sorted. */
const SURFACE: Readonly<Record<string, readonly string[]>> = {
  '.': [
    'AgentDefinition',
    'AgentDefinitionInput',
    'AgentEvent',
    'AgentEventOf',
    'AgentEventType',
    'AgentIdentity',
    'AgentRef',
    'AgentStatus',
    'AssistantMessage',
    'ConfigError',
    'FatalToolError',
    'Message',
    'OutputSchemaInput',
    'Query',
    'QueryOptions',
    'QueryParams',
    'QueryTasks',
    'ResultSubtype',
    'RunResult',
    'StructuredOutputOf',
    'SystemMessage',
    'TaskEnding',
    'TaskEventFields',
    'TextPart',
    'Tool',
    'ToolCallPart',
    'ToolContext',
    'ToolMessage',
    'ToolOutput',
    'ToolResultPart',
    'Usage',
    'UserMessage',
    'WorktreeReport',
    'defineAgent',
    'defineTool',
    'query',
    'resolveAgentDefinitions',
    'resolveModel',
  ],
  './agents': [
    'AgentContext',
    'AgentDefinitionsResult',
    'LoadAgentDefinitionsOptions',
    'ProjectContext',
    'ProjectContextOptions',
    'PromptSection',
    'builtinAgents',
    'loadAgentDefinitions',
  ],
  './engine': [
    'AgentLoopOptions',
    'AgentLoopParams',
    'AgentStop',
    'Budget',
    'BudgetKind',
    'BudgetLimits',
    'Inbox',
    'InboxDelivery',
    'InboxOptions',
    'InboxState',
    'InheritedOptions',
    'LoopStep',
    'OutputCheck',
    'OutputSchema',
    'RemoteChildSpec',
    'RemoteEnding',
    'RemoteExecutor',
    'RemotePort',
    'RemoteProgress',
    'RetryOptions',
    'RunContext',
    'StepRunner',
    'TaskControl',
    'TaskExecutor',
    'agentLoop',
    'directSteps',
  ],
  './hooks': [
    'CommandHook',
    'HandoffCheck',
    'HandoffInput',
    'HandoffVerdict',
    'HookAgent',
    'HookCallback',
    'HookEvent',
    'HookEventName',
    'HookInput',
    'HookJsonOutput',
    'HookMatcher',
    'HookOutcome',
    'HookRunner',
    'HookSettings',
    'NotificationInput',
    'PostToolUseFailureInput',
    'PostToolUseInput',
    'PreToolUseInput',
    'SessionEndInput',
    'SessionStartInput',
    'StopInput',
    'SubagentStartInput',
    'SubagentStopInput',
    'UserPromptSubmitInput',
    'neutraliseHandoff',
  ],
  './mcp': [
    'McpInProcessServerConfig',
    'McpRemoteServerConfig',
    'McpServerConfig',
    'McpServerInput',
    'McpServerObject',
    'McpStdioServerConfig',
    'McpTool',
    'isMcpTool',
  ],
  './permissions': [
    'CanUseTool',
    'DecisionStore',
    'PermissionAnswer',
    'PermissionDecision',
    'PermissionMode',
    'PermissionPolicy',
    'PermissionPolicyOptions',
    'PermissionPrompt',
    'PermissionRequest',
    'RulePermissionPolicy',
    'createPermissionPolicy',
    'parsePermissionRule',
    'parseRuleList',
  ],
  './session': [
    'EventFeed',
    'EventFeedOptions',
    'EventListener',
    'TranscriptWriter',
    'loadSession',
    'readTranscript',
  ],
  './tasks': [
    'TaskKind',
    'TaskManager',
    'TaskManagerOptions',
    'TaskMeta',
    'TaskOutcome',
    'TaskProgress',
    'TaskRecord',
    'TaskStatus',
    'TaskStore',
    'WaitOptions',
  ],
  './telemetry': [
    'AgentSummary',
    'AgentTree',
    'BUILTIN_PRICES',
    'ModelPrice',
    'PriceTable',
    'addUsage',
    'cacheHitRatio',
    'emptyUsage',
    'loadPriceTable',
    'priceFilePath',
    'priceOf',
  ],
  './testing': [
    'Cassette',
    'CassetteEntry',
    'CassetteHeader',
    'CassetteRecorder',
    'MockLlmServer',
    'MockLlmServerOptions',
    'MockReply',
    'MockToolCall',
    'MockUsage',
    'ModelCallEntry',
    'RecordedRequest',
    'Replay',
    'ReplayMismatchError',
    'Script',
    'ScriptError',
    'ScriptMatch',
    'ScriptToolCall',
    'ScriptTurn',
    'ScriptUsage',
    'ScriptedModel',
    'ScriptedModelOptions',
    'ToolResultEntry',
    'cassetteToScript',
    'formatScript',
    'loadScript',
    'loadScriptedModel',
    'recordModel',
    'replayModel',
    'replayTools',
    'scriptedModel',
    'startMockLlmServer',
  ],
  './tools': [
    'CommandLaunch',
    'CommandRequest',
    'CommandSandbox',
    'FileStateCache',
    'SandboxOptions',
    'TodoItem',
    'TodoStatus',
    'bashTool',
    'builtinTools',
    'createCommandSandbox',
    'editTool',
    'globTool',
    'grepTool',
    'isReadOnlyCommand',
    'readOnlyBashTool',
    'readTool',
    'todoWriteTool',
    'webFetchTool',
    'writeTool',
  ],
};

interface ExportTarget {
  types: string;
  default: string;
}

const packageExports: Record<string, ExportTarget> = JSON.parse(
  readFileSync(new URL('../package.json', SRC), 'utf8'),
).exports;

/** The source file behind an entry: `./dist/tools.js` is built from `src/tools.ts`. */
function sourceOf(entry: string): string {
  const built = packageExports[entry]!.default;
  return built.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts');
}

/** What an entry file says it exports: it is nothing but `export … from` lists (checked below). */
function exportedNames(text: string): string[] {
  const names: string[] = [];
  for (const [, list] of text.matchAll(/^export (?:type )?\{([^}]*)\} from '[^']+';$/gm)) {
    for (const item of list!.split(',')) {
      const name = item
        .trim()
        .replace(/^type /, '')
        .split(' as ')
        .at(-1)!;
      if (name) names.push(name);
    }
  }
  return names.sort();
}

/** The entry file without comments and its `export … from` statements: must be empty. */
function otherStatements(text: string): string {
  return text
    .replace(/^\/\/.*$/gm, '')
    .replace(/^export (?:type )?\{[^}]*\} from '[^']+';$/gm, '')
    .trim();
}

describe('the public surface', () => {
  it('lists every entry of package.json, each with types and code from dist/', () => {
    expect(Object.keys(packageExports).sort()).toEqual(Object.keys(SURFACE).sort());
    for (const [entry, target] of Object.entries(packageExports)) {
      expect(target.types, entry).toBe(target.default.replace(/\.js$/, '.d.ts'));
      expect(target.default, entry).toMatch(/^\.\/dist\/[a-z]+\.js$/);
    }
  });

  it.each(Object.entries(SURFACE))('%s exports exactly its listed names', async (entry, names) => {
    const text = readFileSync(new URL(sourceOf(entry), SRC), 'utf8');
    expect(otherStatements(text), `${sourceOf(entry)} holds only re-exports`).toBe('');
    expect(exportedNames(text)).toEqual([...names].sort());
    // The values the module really has at run time are among them (the rest are types).
    const module = await import(new URL(sourceOf(entry), SRC).href);
    expect(Object.keys(module).filter((name) => !names.includes(name))).toEqual([]);
  });

  it('resolves each entry by its name to the built code, with the same values (needs the build)', async () => {
    // Node resolves a package's own name through its "exports", as it does for its users.
    const script = `const names = {};
for (const entry of ${JSON.stringify(Object.keys(SURFACE))}) {
  names[entry] = Object.keys(await import(entry === '.' ? 'warren' : 'warren/' + entry.slice(2)));
}
console.log(JSON.stringify(names));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', SRC)),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const built: Record<string, string[]> = JSON.parse(run.stdout);
    for (const entry of Object.keys(SURFACE)) {
      const source = await import(new URL(sourceOf(entry), SRC).href);
      expect(built[entry]!.sort(), entry).toEqual(Object.keys(source).sort());
    }
  });

  it('keeps the root entry small: at most 60 names', () => {
    expect(SURFACE['.']!.length).toBeLessThanOrEqual(60);
  });

  it('exports each name from one entry only', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [entry, names] of Object.entries(SURFACE)) {
      for (const name of names) {
        if (seen.has(name)) twice.push(`${name}: ${seen.get(name)} and ${entry}`);
        seen.set(name, entry);
      }
    }
    expect(twice).toEqual([]);
  });
});
