// The PermissionPolicy the loop asks before every tool call: deny rules, then allow rules, then ask
// rules, then the permission mode, then the shared decision store and a person (or a deny that
// says how to allow); and how a sub-agent's policy is derived from its parent's.

import path from 'node:path';
import type { CommandSandbox } from '../core/command-sandbox.js';
import { messageOf } from '../core/error-message.js';
import {
  nobodyToAsk,
  type PermissionDecision,
  type PermissionMode,
  type PermissionPolicy,
  type PermissionRequest,
  type PermissionRule,
} from '../core/permission-policy.js';
import { isReadOnlyCall } from '../core/tool.js';
import { DecisionStore } from './decision-store.js';
import { isMemoryWrite } from './memory-grant.js';
import { askPerson, type CanUseTool, type PermissionPrompt } from './permission-prompt.js';
import {
  describeCall,
  findAskingRule,
  findDenyingRule,
  isAllowedByRules,
  type PermissionTarget,
  type SuggestedRules,
  suggestRules,
} from './permission-rule.js';
import {
  namesProtected,
  type ProtectedPath,
  protectedInCommand,
  protectedWrite,
} from './protected-paths.js';

export type { CanUseTool, PermissionAnswer, PermissionPrompt } from './permission-prompt.js';

/** From the strictest to the most permissive; a sub-agent never moves right of its parent. */
export const PERMISSION_MODES = [
  'plan',
  'default',
  'acceptEdits',
  'bypassPermissions',
] as const satisfies readonly PermissionMode[];

export interface PermissionPolicyOptions {
  mode: PermissionMode;
  allow?: readonly PermissionRule[];
  deny?: readonly PermissionRule[];
  /**
   * Calls a person must allow even where the mode or read-only-ness would let them run: only an
   * allow rule, a remembered decision, bypassPermissions or the person asked now lets them through.
   */
  ask?: readonly PermissionRule[];
  /** The run's shared store; a new one when absent (a root agent). */
  store?: DecisionStore;
  /** Asked when the rules and the mode leave a call open; without it such calls are denied. */
  canUseTool?: CanUseTool;
  /** Folders besides the agent's cwd where `acceptEdits` edits without asking. */
  additionalDirs?: readonly string[];
  /**
   * The agent's memory folder (a definition's `memory`): Write and Edit of files inside it are
   * allowed without asking, in every mode; deny rules still apply. Not passed on to children.
   */
  memoryDir?: string;
  /**
   * The run's command sandbox. Where it cannot confine commands, bypassPermissions still asks
   * before each Bash command that is not read-only: the mode assumes the sandbox holds.
   */
  sandbox?: CommandSandbox;
}

export interface DerivePolicyOptions {
  /** A definition's `permissionMode`; the stricter of it and the parent's mode applies. */
  mode?: PermissionMode;
  /** Rules denied to the child on top of everything its parent denies. */
  deny?: readonly PermissionRule[];
  /** Rules the child asks about on top of its parent's (opencode's `permission: … ask`). */
  ask?: readonly PermissionRule[];
  /** The child's own memory folder (see PermissionPolicyOptions); its parent's is not inherited. */
  memoryDir?: string;
}

export interface RulePermissionPolicy extends PermissionPolicy {
  readonly mode: PermissionMode;
  readonly allow: readonly PermissionRule[];
  readonly deny: readonly PermissionRule[];
  readonly ask: readonly PermissionRule[];
  readonly store: DecisionStore;
  /**
   * The policy of a sub-agent. It shares this policy's store, prompt and allow rules, adds deny
   * and ask rules, and runs in the stricter of the requested mode and this one (order as in
   * PERMISSION_MODES). So a child is never more permissive than its parent: under a `plan`
   * parent it stays in plan, and `bypassPermissions` or `acceptEdits` need the parent to have
   * them. Unlike Claude Code, where a bypass or acceptEdits parent overrides the child's mode,
   * a child that asks for a stricter mode gets it: a planner under a bypass parent stays read-only.
   */
  derive(options: DerivePolicyOptions): RulePermissionPolicy;
}

const EDIT_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit']);

const ALLOW: PermissionDecision = { behavior: 'allow' };

interface PolicyState {
  mode: PermissionMode;
  allow: readonly PermissionRule[];
  deny: readonly PermissionRule[];
  ask: readonly PermissionRule[];
  store: DecisionStore;
  canUseTool: CanUseTool | undefined;
  additionalDirs: readonly string[];
  memoryDir: string | undefined;
  sandbox: CommandSandbox | undefined;
}

export function createPermissionPolicy(options: PermissionPolicyOptions): RulePermissionPolicy {
  const policy: PolicyState = {
    mode: options.mode,
    allow: [...(options.allow ?? [])],
    deny: [...(options.deny ?? [])],
    ask: [...(options.ask ?? [])],
    store: options.store ?? new DecisionStore(),
    canUseTool: options.canUseTool,
    additionalDirs: [...(options.additionalDirs ?? [])],
    memoryDir: options.memoryDir,
    sandbox: options.sandbox,
  };
  const self: RulePermissionPolicy = {
    mode: policy.mode,
    allow: policy.allow,
    deny: policy.deny,
    ask: policy.ask,
    store: policy.store,
    decide: (request) => decideSafely(policy, request),
    confirm: (request, reason) =>
      confirm(policy, request, reason).catch((error: unknown) =>
        deny(
          `Permission to use ${request.tool.name} could not be asked for (${messageOf(error)}), so it was not run.`,
        ),
      ),
    derive: (child) => {
      const mode = stricterMode(policy.mode, child.mode ?? policy.mode);
      // Most children change nothing: they share the policy itself (a thousand at once, say).
      // A memory folder belongs to one agent: a child gets its own or none, never its parent's.
      const same = mode === policy.mode && policy.memoryDir === child.memoryDir;
      if (same && !child.deny?.length && !child.ask?.length) return self;
      return createPermissionPolicy({
        ...policy,
        mode,
        deny: [...policy.deny, ...(child.deny ?? [])],
        ask: [...policy.ask, ...(child.ask ?? [])],
        memoryDir: child.memoryDir,
      });
    },
  };
  return self;
}

/** `decide`, a failure a denial. Not async itself: one frame and promise less per tool call. */
function decideSafely(
  policy: PolicyState,
  request: PermissionRequest,
): Promise<PermissionDecision> {
  return decide(policy, request).catch((error: unknown) =>
    deny(
      `Permission to use ${request.tool.name} could not be checked (${messageOf(error)}), so it was not run.`,
    ),
  );
}

/** A call past a line only a person may open: deny rules, then the person, every time. */
async function confirm(
  policy: PolicyState,
  request: PermissionRequest,
  reason: string,
): Promise<PermissionDecision | undefined> {
  const target = targetOf(request);
  const denying = findDenyingRule(policy.deny, target);
  if (denying) return deniedByRule(target, denying);
  if (!policy.canUseTool) return undefined;
  const call = describeCall(target);
  const prompt: PermissionPrompt = {
    ...request,
    subject: target.subject,
    call,
    suggestions: suggestRules(target),
    reason,
  };
  return (await askPerson(policy.canUseTool, prompt, request.signal)).decision;
}

function targetOf(request: PermissionRequest): PermissionTarget {
  const { tool, input, cwd } = request;
  return { toolName: tool.name, subject: tool.permissionSubject?.(input, { cwd }), cwd };
}

function deniedByRule(target: PermissionTarget, rule: PermissionRule): PermissionDecision {
  const call = describeCall(target);
  return deny(
    `Permission to use ${call} is denied by the rule "${rule.text}" from ${rule.source}. Do not try to get around it: do without it, or report that it is not allowed.`,
    `${call} was denied by the rule "${rule.text}" from ${rule.source}; to allow it, remove that rule.`,
  );
}

async function decide(
  policy: PolicyState,
  request: PermissionRequest,
): Promise<PermissionDecision> {
  const { tool, input, cwd } = request;
  const target = targetOf(request);
  const denying = findDenyingRule(policy.deny, target);
  if (denying) return deniedByRule(target, denying);
  // A protected path is written without asking only by a rule that names it, or in bypass mode.
  const guarded = await protectedTarget(policy, target);
  // A hook's answer comes after the deny rules and before everything that could allow the call.
  if (request.hookDecision?.behavior === 'allow') return ALLOW;
  if (request.hookDecision?.behavior === 'ask')
    return ask(policy, request, target, { why: '', guarded });
  // An agent keeps its own notes in every mode, in its memory folder alone (under .warren/, or
  // $WARREN_HOME, both protected otherwise): the grant is checked as narrowly as a rule naming it.
  if (policy.memoryDir !== undefined && (await isMemoryWrite(target, policy.memoryDir))) {
    return ALLOW;
  }
  const allow =
    guarded === undefined
      ? policy.allow
      : policy.allow.filter((rule) => namesProtected(rule.specifier, guarded));
  if (isAllowedByRules(allow, target)) return ALLOW;
  const readOnly = isReadOnlyCall(tool, input, { cwd, allowedDirs: request.allowedDirs });
  const asking = findAskingRule(policy.ask, target);
  const why = readOnly ? '' : notReadOnlyReason(request, target);
  if (policy.mode === 'bypassPermissions') {
    const unconfined = readOnly ? undefined : await unconfinedCommand(policy, target);
    if (unconfined === undefined) return ALLOW;
    return ask(policy, request, target, {
      why: `${why || ': it is not read-only'}, and ${unconfined}`,
      guarded,
    });
  }
  if (policy.mode === 'plan' && !readOnly) {
    const call = describeCall(target);
    return deny(
      `${call} was not run: the agent is in plan mode and must not change anything${why}. Use read-only tools to research, then present the plan.`,
      `${call} was not run: the agent is in plan mode, which allows only read-only calls${why}; to let it change things, run it in another --permission-mode (or without \`permissionMode: plan\` in its definition).`,
    );
  }
  if (asking) return ask(policy, request, target, { rule: asking, why: '', guarded });
  if (readOnly) return ALLOW;
  if (policy.mode === 'acceptEdits' && !guarded && isAcceptableEdit(policy, target)) return ALLOW;
  return ask(policy, request, target, { why, guarded });
}

/** Why a Bash command would run unconfined although the sandbox is on; undefined when it would not. */
async function unconfinedCommand(
  policy: PolicyState,
  target: PermissionTarget,
): Promise<string | undefined> {
  if (target.toolName !== 'Bash' || policy.sandbox === undefined) return undefined;
  const availability = await policy.sandbox.confines();
  return availability.confined
    ? undefined
    : `commands cannot be sandboxed here (${availability.why})`;
}

/** Why a call needs asking, for the message that denies it when nobody can be asked. */
interface Unsettled {
  /** The ask rule that sent the call to a person, when one did. */
  rule?: PermissionRule;
  /** `: it is not read-only, because …`, or empty. */
  why: string;
  /** The protected path it would change: only a remembered rule that names it counts. */
  guarded: ProtectedPath | undefined;
}

/** The protected path a Write, an Edit or a Bash command would change, if any. */
async function protectedTarget(
  policy: PolicyState,
  target: PermissionTarget,
): Promise<ProtectedPath | undefined> {
  if (target.subject === undefined) return undefined;
  if (target.toolName === 'Bash') return protectedInCommand(target.subject);
  if (!EDIT_TOOLS.has(target.toolName)) return undefined;
  return protectedWrite(target.subject, target.cwd, [target.cwd, ...policy.additionalDirs]);
}

/** `: it is not read-only, because …`, when the tool can say why; else nothing. */
function notReadOnlyReason(request: PermissionRequest, target: PermissionTarget): string {
  const reason = request.tool.notReadOnlyReason?.(request.input, {
    cwd: target.cwd,
    allowedDirs: request.allowedDirs,
  });
  return reason === undefined ? '' : `: it is not read-only, because ${reason}`;
}

/**
 * Asks the person (canUseTool), unless a remembered answer already allows the call; with nobody
 * to ask, denies with how to allow it.
 */
async function ask(
  policy: PolicyState,
  request: PermissionRequest,
  target: PermissionTarget,
  unsettled: Unsettled,
): Promise<PermissionDecision> {
  const { guarded } = unsettled;
  const naming = (rule: PermissionRule) =>
    guarded === undefined || namesProtected(rule.specifier, guarded);
  // A hook that asks wants a person now: a remembered answer does not stand in for one.
  const hook = request.hookDecision?.behavior === 'ask' ? request.hookDecision : undefined;
  if (!hook && policy.store.allows(target, naming)) return ALLOW;
  const suggestions = suggestRules(target);
  const call = describeCall(target);
  if (!policy.canUseTool) {
    if (hook) return deny(nobodyToAsk(call, hook.reason));
    return deny(notGrantedMessage(policy, target, suggestions, unsettled));
  }
  request.onAsk?.(`warren needs your permission to use ${call}`);
  const prompt: PermissionPrompt = { ...request, subject: target.subject, call, suggestions };
  const { decision, remember } = await askPerson(policy.canUseTool, prompt, request.signal);
  if (remember !== undefined) policy.store.remember(remember);
  return decision;
}

/** What print mode says instead of asking: why, and the exact flag that would have allowed the call. */
function notGrantedMessage(
  policy: PolicyState,
  target: PermissionTarget,
  suggestions: SuggestedRules,
  { rule, why, guarded }: Unsettled,
): string {
  const { exact, broader } = suggestions;
  const kind = target.toolName === 'Bash' ? 'a prefix rule' : 'a broader rule';
  const alternative = broader ? ` (or ${kind} such as ${shellQuote(broader)})` : '';
  // acceptEdits lets no call through that an ask rule covers, nor a protected path.
  const acceptEditsHelps =
    rule === undefined &&
    guarded === undefined &&
    policy.mode !== 'acceptEdits' &&
    isAcceptableEdit(policy, target);
  const modes = acceptEditsHelps ? 'acceptEdits|bypassPermissions' : 'bypassPermissions';
  // In bypassPermissions already, only the missing sandbox stands in the way.
  const lastResort =
    policy.mode === 'bypassPermissions'
      ? '--no-sandbox to run commands unconfined'
      : `--permission-mode ${modes}`;
  const because = rule
    ? `: the rule "${rule.text}" from ${rule.source} says to ask first, and no one can be asked here`
    : guarded
      ? `: ${guarded.name} is protected, since it holds ${guarded.holds}, read on the next run; only a rule that names it allows the call without asking`
      : why;
  return (
    `Permission to use ${describeCall(target)} was not granted${because}. ` +
    `To allow it, rerun with --allowed-tools ${shellQuote(exact)}${alternative}, or ${lastResort}.`
  );
}

/** A Write or Edit inside cwd or an additional folder (protected paths are checked before). */
function isAcceptableEdit(policy: PolicyState, target: PermissionTarget): boolean {
  if (!EDIT_TOOLS.has(target.toolName) || target.subject === undefined) return false;
  const file = path.resolve(target.cwd, target.subject);
  return [target.cwd, ...policy.additionalDirs].some((dir) => {
    const relative = path.relative(path.resolve(target.cwd, dir), file);
    const first = relative.split(path.sep)[0];
    return relative !== '' && first !== '..' && !path.isAbsolute(relative);
  });
}

function stricterMode(parent: PermissionMode, child: PermissionMode): PermissionMode {
  return PERMISSION_MODES.indexOf(child) < PERMISSION_MODES.indexOf(parent) ? child : parent;
}

/** Double quotes where the shell leaves the text alone inside them, else single quotes. */
function shellQuote(text: string): string {
  if (!/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** @param notice the denial for people, where it differs from what the model is told */
function deny(message: string, notice?: string): PermissionDecision {
  return notice === undefined
    ? { behavior: 'deny', message }
    : { behavior: 'deny', message, notice };
}
