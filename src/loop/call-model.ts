// One model call of a run, as a step of its StepRunner: counted against the turn cap and the
// budget, its stream passed on as it comes (a replayed step has no stream, only its result).
import { RUN_KNOBS } from '../core/run-knobs.js';
import { directSteps } from '../core/step-runner.js';
import { addUsage, budgetTokens } from '../core/usage.js';
import { describeModelFailure } from '../model/describe-model-error.js';
import { type ModelTurn, modelTurn } from '../model/model-turn.js';
import { costOf } from '../model/pricing.js';
import { DEFAULT_RETRY } from '../model/retry-policy.js';
import { event, modelOf, type RunState } from './run-state.js';

export interface ModelCall {
  toolChoice: 'auto' | 'none';
  signal: AbortSignal;
  maxOutputTokens?: number;
}

export async function callModel(run: RunState, call: ModelCall): Promise<ModelTurn> {
  const { options } = run;
  run.numTurns++;
  const started = Date.now();
  event(run, { type: 'turn_start', turn: run.numTurns });
  // The turn's stream goes out as it comes; a runner that replays the step calls no model.
  const take = () =>
    modelTurn(
      {
        model: run.model,
        messages: run.messages,
        tools: run.shownTools,
        toolChoice: call.toolChoice,
        stream: options.stream ?? RUN_KNOBS.stream,
        signal: call.signal,
        retry: options.retry ? { ...DEFAULT_RETRY, ...options.retry } : DEFAULT_RETRY,
        requestTimeoutMs: options.requestTimeoutMs ?? RUN_KNOBS.requestTimeoutMs,
        describeFailure: (error) => describeModelFailure(error, modelOf(run)),
        maxOutputTokens: call.maxOutputTokens ?? options.maxOutputTokens,
        providerOptions: options.providerOptions,
        settings: options.modelSettings,
        headers: run.headers,
      },
      (made) => event(run, made),
    );
  const turn = await (options.steps ?? directSteps).run(
    { kind: 'model', name: `model#${run.numTurns}` },
    take,
  );
  addUsage(run.usage, turn.usage);
  const turnCost = costOf(turn.usage, run.price);
  if (run.costUsd !== null && turnCost !== null) run.costUsd += turnCost;
  run.budget.spend(budgetTokens(turn.usage), turnCost);
  event(run, {
    type: 'usage',
    turn: run.numTurns,
    usage: turn.usage,
    costUsd: turnCost,
    durationMs: Date.now() - started,
    finishReason: turn.finishReason,
    ...(turn.response?.id !== undefined && { responseId: turn.response.id }),
    ...(turn.response?.modelId !== undefined && { responseModel: turn.response.modelId }),
  });
  return turn;
}
